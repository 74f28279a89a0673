"""The hostile round's defects of the table app (issue 32), each through the surface that had
it: a real server's body limit, an evening import's size, digits that are no numbers, the
limits under concurrent creations, and stores that are not herzla's."""

from __future__ import annotations

import json
import re
import signal
import socket
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.test_serve import serving

if TYPE_CHECKING:
    from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[1]
pytest.importorskip("flask")
pytest.importorskip("waitress")
pytestmark = pytest.mark.web


def _raw(port: int, head: str, timeout: float = 10) -> bytes:
    """Send ``head`` (a request's header, no body) and read the answer until the server closes
    the connection (or the timeout)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(head.encode())
        got = b""
        while True:
            try:
                part = conn.recv(65536)
            except TimeoutError:
                break
            if not part:
                break
            got += part
            if b"\r\n\r\n" in got:
                head_part, _, rest = got.partition(b"\r\n\r\n")
                m = re.search(rb"(?i)content-length: *(\d+)", head_part)
                if m is not None and len(rest) >= int(m.group(1)):
                    break
        return got


@pytest.mark.parametrize("over", [1, 3 * 2**20])
def test_a_body_over_the_limit_is_herzlas_json_413(tmp_path: Path, over: int) -> None:
    proc, url = serving(tmp_path, "l.db")
    try:
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        from herzla.web.config import MAX_BODY

        # the header alone: a server that waits for the body (or reads it) is wrong too
        size = MAX_BODY + over
        answer = _raw(port, f"POST /api/replay HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                            f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n")
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b"application/json" in head.lower()
        assert json.loads(body) == {"error": f"the request is larger than {MAX_BODY // 1024} "
                                             f"KiB, the most this app takes"}
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "Traceback" not in err.decode()


def test_an_import_over_the_deal_limit_is_refused_before_a_deal_is_read(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    from herzla.evening import Evening, entry
    from herzla.web.config import MAX_DEALS

    read: list[object] = []
    real = entry.Entry.from_json

    def counted(obj: object) -> entry.Entry:
        read.append(obj)
        return real(obj)

    monkeypatch.setattr(entry.Entry, "from_json", staticmethod(counted))
    body = Evening.new("herzla", ["A", "B", "C", "D"]).to_json()
    body["deals"] = [{"hearts": [0, 3, 5, 0]}] * (MAX_DEALS + 1)
    body["sheet"] = True  # a score sheet's deals are not bounded by the evening's own limit
    answer = client.post("/api/evenings/import", json=body)
    assert answer.status_code == 409, answer.get_json()
    assert answer.get_json() == {"error": f"the evening has {MAX_DEALS + 1} deals; the app "
                                          f"keeps at most {MAX_DEALS} an evening"}
    assert read == []
    assert client.get("/api/evenings").get_json()["evenings"] == []


@pytest.mark.parametrize("digit", ["²", "٣", "1²", "9" * 5000])
def test_a_digit_that_is_no_number_is_one_line_in_the_api_and_the_forms(
        client: FlaskClient, digit: str) -> None:
    from tests.test_web_pad import csrf_of, revision_in
    from tests.web_calls import call, error, ok

    players = ["Anna", "Berni", "Carla", "Done"]
    said = error(call(client, "POST", "/api/evenings", {"game": "herzla", "players": players,
                                                        "dealer": digit}), 422)
    assert said.startswith("dealer:")
    doc = ok(call(client, "POST", "/api/evenings", {"game": "herzla", "players": players}), 201)
    pad = f"/evenings/{doc['id']}"
    csrf, text = csrf_of(client, pad)
    sent = {"csrf": csrf, "revision": revision_in(text), "contract": "normal",
            "hearts-0": digit, "hearts-1": "2", "hearts-2": "2", "hearts-3": "2"}
    answer = client.post(f"{pad}/deals", data=sent)
    assert answer.status_code == 422 and "is not a count from 0 to" in answer.get_data(
        as_text=True)
    assert ok(client.get(f"/api/evenings/{doc['id']}"))["deals"] == []
    # the revision a form names, a table's seed, the desk's numbers
    assert "a revision is a whole number" in error(
        call(client, "POST", f"/api/evenings/{doc['id']}/undo", **{"If-Match": digit}), 422)


@pytest.mark.parametrize(("path", "body"), [
    ("/api/evenings", {"game": "herzla", "players": ["A", "B", "C", "D"]}),
    ("/api/tables", {"game": "herzla", "contract": "normal", "opponents": "random", "seed": 1}),
])
def test_the_limits_hold_under_concurrent_creations_through_two_servers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str, body: object) -> None:
    import threading

    from herzla.web.app import create_app
    from herzla.web.config import WebConfig
    from herzla.web.store import Kind, Store
    from tests.web_calls import call

    most, callers = 3, 12
    apps = [create_app(Store(tmp_path / "one.db"),
                       WebConfig(max_evenings=most, max_tables=most)) for _ in range(2)]
    # every creation has counted before any inserts: the worst interleaving, every time
    together = threading.Barrier(callers, timeout=60)
    real_count = Store.count

    def count(self: Store, kind: Kind) -> int:
        n = real_count(self, kind)
        together.wait()
        return n

    monkeypatch.setattr(Store, "count", count)
    statuses: list[int] = []

    def create(i: int) -> None:
        with apps[i % 2].test_client() as client:
            statuses.append(call(client, "POST", path, body).status_code)

    threads = [threading.Thread(target=create, args=(i,)) for i in range(callers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert sorted(statuses) == [201] * most + [409] * (callers - most)
    monkeypatch.setattr(Store, "count", real_count)
    kind = Kind.EVENING if "evenings" in path else Kind.TABLE
    assert Store(tmp_path / "one.db").count(kind) == most


@pytest.mark.parametrize("version", ["'two'", "NULL"])
def test_serve_refuses_a_store_with_an_unreadable_version_in_one_line(tmp_path: Path,
                                                                      version: str) -> None:
    import sqlite3

    from click.testing import CliRunner

    from herzla.cli import main

    path = tmp_path / "odd.db"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL DEFAULT 0)")
        con.execute(f"INSERT INTO schema_version VALUES ({version})" if version != "NULL"
                    else "INSERT INTO schema_version VALUES (0)")
    if version == "NULL":  # a column that takes NULL, as a hand-made file may have
        with sqlite3.connect(path) as con:
            con.execute("DROP TABLE schema_version")
            con.execute("CREATE TABLE schema_version (version)")
            con.execute("INSERT INTO schema_version VALUES (NULL)")
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db", str(path)])
    assert result.exit_code == 2 and result.stdout == "", result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"herzla: error: {path} is not a herzla database that this herzla "
                           f"can read (its schema version is ")
