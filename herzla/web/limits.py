"""What one client may ask of the app, so that one hostile (or broken) phone cannot spoil the
evening of the others: per client (its address, as the trusted proxy names it behind one),

- **creations**: at most :attr:`Limits.creations` new evenings and tables (any page or call
  that makes one) in a burst, refilled over :attr:`Limits.window` seconds;
- **joins**: at most :attr:`Limits.joins` refused tries of a token or a seat key in a burst,
  refilled over the same window (so keys and tokens cannot be guessed at speed);
- **expensive calls** (a hint, a review: the computer thinks for a second or more): at most
  :attr:`Limits.thinking_each` at once from one client and :attr:`Limits.thinking` at once
  from all, so that the server's threads stay free for the plays and polls of the other tables.

Beyond a limit the answer is 429 with ``Retry-After`` (seconds) and one line.  A client on this
machine's loopback address (the machine's own user, who may read the store anyway) is held to
the expensive calls' limits alone.  The limits are kept in the memory of each process
(several processes behind one proxy each keep their own).
The number of connections one address may hold open is the server's (:mod:`herzla.web.server`).
"""

from __future__ import annotations

import ipaddress
import math
import threading
import time
from collections.abc import Callable

from flask import Flask, g, request
from werkzeug.wrappers import Response

from herzla.i18n import N_, _, language
from herzla.web.config import Limits
from herzla.web.errors import respond
from herzla.web.speech import asked

__all__ = ["EXPENSIVE", "Bucket", "Gate", "Limits", "install"]

#: the endpoints that make an evening or a table
CREATING = frozenset({"evenings.create_call", "evenings.import_call", "tables.create_call",
                      "pad.new_evening", "pad.import_evening", "table_pages.new_table_page"})

#: the endpoints where the computer thinks (always, or when the page asks for it)
EXPENSIVE = frozenset({"tables.hint_call", "tables.review_call"})
_EXPENSIVE_PAGE = ("table_pages.table_page", ("hint", "review"))

#: the most clients a bucket remembers (the fullest are forgotten first)
_REMEMBERED = 10_000


class Bucket:
    """At most ``burst`` events from one client at once, one more each ``window / burst``
    seconds (a token bucket per client; thread-safe)."""

    def __init__(self, burst: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.clock = max(1, burst), max(1, burst) / window, clock
        self._held: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def _now(self, client: str) -> tuple[float, float]:
        now = self.clock()
        tokens, then = self._held.get(client, (float(self.burst), now))
        return min(float(self.burst), tokens + (now - then) * self.rate), now

    def wait(self, client: str) -> float:
        """The seconds until ``client`` may act (0: now), without acting."""
        with self._lock:
            tokens, _ = self._now(client)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def take(self, client: str) -> float:
        """Count an event of ``client``: 0 when it was within the limit, else the seconds
        until it would be (and nothing is counted)."""
        with self._lock:
            tokens, now = self._now(client)
            if tokens < 1:
                return (1 - tokens) / self.rate
            if len(self._held) >= _REMEMBERED and client not in self._held:
                self._forget(now)
            self._held[client] = (tokens - 1, now)
            return 0.0

    def _forget(self, now: float) -> None:
        full = [c for c, (t, then) in self._held.items()
                if t + (now - then) * self.rate >= self.burst]
        for c in full or list(self._held)[: len(self._held) // 2]:
            del self._held[c]


class Gate:
    """At most ``each`` calls at once from one client and ``most`` from all (thread-safe)."""

    def __init__(self, each: int, most: int) -> None:
        self.each, self.most = max(1, each), max(1, most)
        self._inside: dict[str, int] = {}
        self._lock = threading.Lock()

    def enter(self, client: str) -> str | None:
        """Let ``client`` in (None), or say why not."""
        with self._lock:
            if self._inside.get(client, 0) >= self.each:
                return N_("the computer is still thinking for you: wait for its answer")
            if sum(self._inside.values()) >= self.most:
                return N_("the computer is thinking for other tables: ask again in a moment")
            self._inside[client] = self._inside.get(client, 0) + 1
            return None

    def leave(self, client: str) -> None:
        with self._lock:
            left = self._inside.get(client, 0) - 1
            if left > 0:
                self._inside[client] = left
            else:
                self._inside.pop(client, None)


def _too_many(message: str, seconds: float) -> Response:
    """429 with ``message`` (marked for the catalog) in the request's language: the limits
    answer before the pages choose it."""
    with language(asked()):
        out = respond(429, _(message))
    out.headers["Retry-After"] = str(max(1, math.ceil(seconds)))
    return out


def _client() -> str:
    return request.remote_addr or "?"


def _trusted(client: str) -> bool:
    try:
        return ipaddress.ip_address(client).is_loopback
    except ValueError:
        return False


def _expensive() -> bool:
    if request.endpoint in EXPENSIVE:
        return True
    endpoint, asks = _EXPENSIVE_PAGE
    return request.endpoint == endpoint and any(request.args.get(a) for a in asks)


def install(app: Flask, limits: Limits) -> None:
    """Hold every request of ``app`` to ``limits`` (before the guard, so that a client over
    its limit of refused tries is not even checked)."""
    creations = Bucket(limits.creations, limits.window)
    joins = Bucket(limits.joins, limits.window)
    gate = Gate(limits.thinking_each, limits.thinking)

    def before() -> Response | None:
        client = _client()
        wait = 0.0 if _trusted(client) else joins.wait(client)
        if wait > 0:
            return _too_many(N_("too many tries with a wrong token or seat key from here: "
                                "wait before trying again"), wait)
        if request.method == "POST" and request.endpoint in CREATING and not _trusted(client):
            wait = creations.take(client)
            if wait > 0:
                return _too_many(N_("too many new evenings and tables from here: wait "
                                    "before starting another"), wait)
        if _expensive():
            why = gate.enter(client)
            if why is not None:
                return _too_many(why, 1)
            g.limits_thinking = client
        return None

    def after(out: Response) -> Response:
        tried = (request.args.get("token") or request.args.get("key")
                 or request.headers.get("Authorization"))
        if (out.status_code == 401 and tried) or g.get("wrong_key"):
            joins.take(_client())
        return out

    def teardown(_: BaseException | None) -> None:
        client = g.pop("limits_thinking", None)
        if client is not None:
            gate.leave(client)

    app.before_request_funcs.setdefault(None, []).insert(0, before)
    app.after_request(after)
    app.teardown_request(teardown)
