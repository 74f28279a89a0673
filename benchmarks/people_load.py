"""People at tables of a real ``herzla serve``, over the loopback address: each person a thread
that does what a phone's page does (asks for the table's revision every ``period`` seconds,
fetches its page when it has grown) and, on its turn, plays its first legal card, now and then
sending the same card twice at once (a double tap).  Used by tests/test_web_people_load.py (a
few bounded deals, a SIGKILL between) and benchmarks/bench_people.py (8 tables of 4)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from typing import Any

__all__ = ["Person", "call", "make_tables", "run_people"]


def call(base: str, method: str, path: str, body: object = None, key: str | None = None
         ) -> tuple[int, Any]:
    """``method path`` (the status and the JSON answer; a 4xx answers too)."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(base + path.lstrip("/"), method=method, headers=headers,
                                     data=None if body is None else json.dumps(body).encode())
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def make_tables(base: str, count: int, seed: int = 1) -> list[dict[str, Any]]:
    """``count`` Herzla tables (normal game) of four people."""
    out = []
    for k in range(count):
        status, table = call(base, "POST", "/api/tables", {
            "game": "herzla", "contract": "normal", "people": [0, 1, 2, 3],
            "seed": seed + k})
        assert status == 201, table
        out.append(table)
    return out


class Person(threading.Thread):
    """One person at one table, playing ``deals`` deals (asking for the next between).
    ``base`` may name several servers of one store (a list): the person's calls take them in
    turn, and a double tap sends the same card to two of them at once."""

    def __init__(self, base: str | list[str], tid: str, seat: int, key: str, deals: int,
                 period: float = 1.0, double_every: int = 5,
                 stop: threading.Event | None = None) -> None:
        super().__init__(daemon=True)
        self.bases = [base] if isinstance(base, str) else list(base)
        self.turn = seat
        self.tid, self.seat, self.key = tid, seat, key
        self.deals, self.period, self.double_every = deals, period, double_every
        self.stop = stop or threading.Event()
        #: the seconds each play took to be answered, and the plays answered 200
        self.latencies: list[float] = []
        self.played: list[tuple[int, str]] = []
        self.refused_doubles = 0
        self.errors: list[str] = []

    @property
    def base(self) -> str:
        """The server the next call goes to (the servers taken in turn)."""
        self.turn += 1
        return self.bases[self.turn % len(self.bases)]

    def _page(self) -> None:
        url = f"{self.base}tables/{self.tid}?key={self.key}"
        with urllib.request.urlopen(url, timeout=60) as answer:
            answer.read()

    def _play(self, deal: int, card: str, double: bool) -> None:
        answers: list[tuple[int, Any]] = []

        def send(base: str) -> None:
            try:
                answers.append(call(base, "POST", f"/api/tables/{self.tid}/play",
                                    {"card": card}, self.key))
            except OSError as exc:  # the server away (killed): no answer
                answers.append((0, repr(exc)))

        start = time.perf_counter()
        twins = [threading.Thread(target=send, args=(self.base,))
                 for _ in range(2 if double else 1)]
        for t in twins:
            t.start()
        for t in twins:
            t.join()
        self.latencies.append((time.perf_counter() - start) / len(twins) if double else
                              time.perf_counter() - start)
        good = [a for a in answers if a[0] == 200]
        if len(good) != 1:
            self.errors.append(f"seat {self.seat} played {card}: {answers}")
        else:
            self.played.append((deal, card))
        self.refused_doubles += sum(1 for a in answers if a[0] == 409)

    def run(self) -> None:
        shown = -1
        count = 0
        try:
            while not self.stop.is_set():
                status, rev = call(self.base, "GET", f"/api/tables/{self.tid}/revision",
                                   key=self.key)
                if status != 200:
                    self.errors.append(f"revision: {status} {rev}")
                    return
                if rev["revision"] != shown:
                    self._page()
                    shown = rev["revision"]
                    status, table = call(self.base, "GET", f"/api/tables/{self.tid}",
                                         key=self.key)
                    if table["over"]:
                        if table["deal"] >= self.deals:
                            return
                        if not any(p["seat"] == self.seat and p["asked"]
                                   for p in table["people"]):
                            call(self.base, "POST", f"/api/tables/{self.tid}/next", {},
                                 self.key)
                    elif table["to_move"] == self.seat and table["legal"]:
                        count += 1
                        self._play(table["deal"], table["legal"][0],
                                   self.double_every > 0 and count % self.double_every == 0)
                        continue
                time.sleep(self.period)
        except Exception as exc:  # the server away (killed): the test says what follows
            self.errors.append(f"seat {self.seat}: {exc!r}")


def run_people(base: str | list[str], tables: list[dict[str, Any]], deals: int, period: float = 1.0,
               stop: threading.Event | None = None, wait: float | None = None
               ) -> list[Person]:
    """Every person of ``tables`` playing ``deals`` deals at once (until ``stop``, or
    ``wait`` seconds), the people when they are done."""
    people = [Person(base, t["id"], s["seat"], s["key"], deals, period, stop=stop)
              for t in tables for s in t["seats"]]
    for p in people:
        p.start()
    end = None if wait is None else time.monotonic() + wait
    for p in people:
        p.join(None if end is None else max(0.0, end - time.monotonic()))
    return people
