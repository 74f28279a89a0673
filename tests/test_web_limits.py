"""What one client may ask (``pytest -m web``): creations and refused tries of a key limited
per client (429 with Retry-After), a hint at a time per client and a few at once in all (so
the other tables' plays stay answered), the connections one address may hold open on a real
server, and cookies Secure when the proxy in front says the request came over TLS."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")

from flask import Flask

from herzla.web.app import create_app
from herzla.web.config import Limits, WebConfig
from herzla.web.limits import Bucket
from herzla.web.store import Store
from tests.test_serve import needs_web, serving
from tests.web_calls import call, error, ok

pytestmark = pytest.mark.web

NEW_TABLE = {"game": "herzla", "contract": "normal", "opponents": "random", "seed": 1}


def _app(tmp_path: Path, **limits: Any) -> Flask:
    return create_app(Store(tmp_path / "l.db"), WebConfig(limits=Limits(**limits)))


def _from(app: Flask, address: str) -> Any:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def test_a_bucket_refills_over_its_window() -> None:
    now = [0.0]
    bucket = Bucket(2, 10.0, clock=lambda: now[0])
    assert [bucket.take("a"), bucket.take("a")] == [0.0, 0.0]
    assert bucket.take("a") == pytest.approx(5.0) and bucket.wait("b") == 0.0
    now[0] = 5.0
    assert bucket.wait("a") == 0.0 and bucket.take("a") == 0.0 and bucket.take("a") > 0


def test_creations_are_limited_per_client(tmp_path: Path) -> None:
    app = _app(tmp_path, creations=3, window=60)
    phone, other, here = (_from(app, a) for a in ("203.0.113.7", "203.0.113.8", "127.0.0.1"))
    for _ in range(2):
        ok(call(phone, "POST", "/api/tables", NEW_TABLE), 201)
    ok(call(phone, "POST", "/api/evenings", {"game": "herzla", "players": ["A", "B", "C", "D"]}),
       201)
    refused = call(phone, "POST", "/api/tables", NEW_TABLE)
    assert "too many new evenings and tables from here" in error(refused, 429)
    assert 1 <= int(refused.headers["Retry-After"]) <= 20
    page = phone.post("/evenings", data={})  # the start page's form too, before the guard
    assert page.status_code == 429 and "Retry-After" in page.headers
    ok(call(other, "POST", "/api/tables", NEW_TABLE), 201)  # another phone is not held
    for _ in range(5):  # the machine's own user is not held
        ok(call(here, "POST", "/api/tables", NEW_TABLE), 201)
    ok(phone.get("/api/tables"))  # reading is not limited


def test_tries_of_wrong_keys_are_limited_per_client(tmp_path: Path) -> None:
    app = _app(tmp_path, joins=3, window=600)
    creator = _from(app, "203.0.113.9")
    made = ok(call(creator, "POST", "/api/tables", {**NEW_TABLE, "people": [0, 1]}), 201)
    tid, key = made["id"], made["seats"][0]["key"]
    guesser = _from(app, "203.0.113.10")
    for n in range(3):
        error(guesser.get(f"/api/tables/{tid}?key=guess-{n:012d}"), 403)
    held = guesser.get(f"/api/tables/{tid}?key={key}")  # even the right key, for a while
    assert "too many tries with a wrong token or seat key" in error(held, 429)
    assert int(held.headers["Retry-After"]) > 0
    assert ok(_from(app, "203.0.113.11").get(f"/api/tables/{tid}?key={key}"))["seat"] == 0


def test_a_hint_at_a_time_per_client_and_the_plays_go_on(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    from herzla.web import tables

    app = _app(tmp_path, thinking_each=1, thinking=2)
    a, b, c = (_from(app, f"203.0.113.{n}") for n in (20, 21, 22))
    tid = ok(call(a, "POST", "/api/tables", NEW_TABLE), 201)["id"]
    other = ok(call(c, "POST", "/api/tables", NEW_TABLE), 201)
    release = threading.Event()
    inside = threading.Semaphore(0)
    real = getattr(tables, "hint")  # noqa: B009 (the name the call looks up)

    def slow(*args: Any, **kwargs: Any) -> Any:
        inside.release()
        release.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(tables, "hint", slow)
    answers: list[int] = []
    threads = [threading.Thread(target=lambda cl=cl: answers.append(
        cl.get(f"/api/tables/{tid}/hint").status_code)) for cl in (a, b)]
    for t in threads:
        t.start()
    assert inside.acquire(timeout=60) and inside.acquire(timeout=60)
    # a's second hint, and c's (two are thinking already), wait their turn: 429
    assert "still thinking for you" in error(a.get(f"/api/tables/{tid}/hint"), 429)
    busy = c.get(f"/api/tables/{tid}/hint")
    assert "thinking for other tables" in error(busy, 429) and busy.headers["Retry-After"] == "1"
    assert c.get(f"/tables/{tid}?hint=1").status_code == 429  # the page's hint too
    # meanwhile the other table's plays and polls are answered
    ok(call(c, "POST", f"/api/tables/{other['id']}/play", {"card": other["legal"][0]}))
    ok(c.get(f"/api/tables/{other['id']}/revision"))
    release.set()
    for t in threads:
        t.join(60)
    assert answers == [200, 200]
    ok(a.get(f"/api/tables/{tid}/hint"))  # and the next hint is answered


def _idle(address: str, port: int) -> socket.socket:
    sock = socket.socket()
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", port))
    return sock


@needs_web
def test_idle_connections_from_one_address_keep_no_one_else_out(tmp_path: Path) -> None:
    from herzla.web.server import CONNECTIONS_EACH

    proc, base = serving(tmp_path, "c.db")
    port = int(base.rsplit(":", 1)[1].strip("/"))
    held: list[socket.socket] = []
    try:
        for _ in range(100):  # a hundred idle connections from one address
            held.append(_idle("127.0.0.2", port))
        time.sleep(0.5)
        refused = 0
        for sock in held:
            sock.settimeout(0.2)
            try:
                got = sock.recv(200)
            except TimeoutError:
                continue
            refused += got.startswith(b"HTTP/1.1 429")
        assert refused >= 100 - CONNECTIONS_EACH - 2
        # another address polls and is answered at once
        sock = _idle("127.0.0.3", port)
        with sock:
            sock.settimeout(30)
            sock.sendall(b"GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Connection: close\r\n\r\n")
            assert sock.recv(20).startswith(b"HTTP/1.1 200")
    finally:
        for sock in held:
            sock.close()
        proc.terminate()
        proc.communicate(timeout=60)


@needs_web
def test_cookies_are_secure_when_the_proxy_says_tls(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.test_serve import ROOT, _first_line

    proc = subprocess.Popen([sys.executable, "-m", "herzla", "serve", "--port", "0", "--db",
                             str(tmp_path / "p.db"), "--proxy", "https://cards.example.org/",
                             "--token", "our-table-2026"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=tmp_path,
                            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    try:
        line = _first_line(proc)
        assert line == "herzla: serving on https://cards.example.org/?token=our-table-2026\n"
        err = proc.stderr
        assert err is not None
        port = 0
        while not port:
            text = err.readline().decode()
            if "listening on" in text:
                port = int(text.rsplit(":", 1)[1])
        assert port

        def cookies(address: str, proto: str) -> list[str]:
            sock = _idle(address, port)
            with sock:
                sock.settimeout(30)
                sock.sendall(f"GET /?token=our-table-2026 HTTP/1.1\r\nHost: cards.example.org"
                             f"\r\nX-Forwarded-Proto: {proto}\r\nX-Forwarded-For: 198.51.100.4"
                             f"\r\nConnection: close\r\n\r\n".encode())
                data = b""
                while chunk := sock.recv(65536):
                    data += chunk
            head = data.split(b"\r\n\r\n", 1)[0].decode()
            return [h for h in head.split("\r\n") if h.lower().startswith("set-cookie")]

        over_tls = cookies("127.0.0.1", "https")
        assert over_tls and all("Secure" in c for c in over_tls)
        assert not any("Secure" in c for c in cookies("127.0.0.1", "http"))
        # from anyone but the proxy the header is not believed
        assert not any("Secure" in c for c in cookies("127.0.0.2", "https"))
    finally:
        proc.terminate()
        proc.communicate(timeout=60)
