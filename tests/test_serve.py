"""``herzla serve``: its first line, the token it makes up, bad options, the missing extra, and
a real server stopped by SIGINT and SIGTERM."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from herzla.cli import main
from tests.helpers import at_a_terminal

ROOT = Path(__file__).resolve().parents[1]
HAS_WEB = all(__import__("importlib.util").util.find_spec(n) for n in ("flask", "waitress"))
web = pytest.mark.web
needs_web = pytest.mark.skipif(not HAS_WEB, reason="the web extra is not installed")


def test_without_the_extra_one_line_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, runner: CliRunner) -> None:
    monkeypatch.setattr("herzla.web.missing", lambda: ["flask"])
    result = runner.invoke(main, ["serve"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == ("herzla: error: herzla serve needs the web extra (flask is not "
                             "installed): python3 -m pip install 'herzla[web]'\n")


@pytest.fixture
def no_serving(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The server says it is ready and stops at once; non-loopback hosts bind loopback (no
    test listens beyond this machine).  The list gets each host asked for."""
    from herzla.web import server

    asked: list[str] = []
    real_bind = server.bind

    def bind(host: str, port: int) -> socket.socket:
        asked.append(host)
        return real_bind("127.0.0.1", port)

    def serve(app: Any, sock: socket.socket, *, ready: Any = None, **how: Any) -> None:
        ready()
        sock.close()

    monkeypatch.setattr(server, "bind", bind)
    monkeypatch.setattr(server, "serve", serve)
    monkeypatch.setattr("herzla.cli.serve.warm_up_in_background", lambda: None)
    return asked


@web
@needs_web
def test_the_first_line_names_the_url(no_serving: list[str], tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db", str(tmp_path / "a.db")])
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    m = re.fullmatch(r"herzla: serving on http://127\.0\.0\.1:(\d+)/", first)
    assert m is not None and int(m.group(1)) > 0  # port 0: the free port picked is named
    assert result.stdout.count("\n") == 1  # the rest goes to standard error
    assert (tmp_path / "a.db").exists()


@web
@needs_web
def test_a_host_beyond_loopback_gets_a_token(no_serving: list[str], tmp_path: Path) -> None:
    from herzla.web.server import own_address

    db = str(tmp_path / "b.db")
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--port", "0", "--db", db])
    assert result.exit_code == 0, result.output
    m = re.fullmatch(r"herzla: serving on http://([0-9.]+):\d+/\?token=([A-Za-z0-9_-]{20,})",
                     result.stdout.splitlines()[0])
    assert m is not None and no_serving == ["0.0.0.0"]
    # the machine's own address, which a phone can open, never the wildcard it listens on
    assert m.group(1) == own_address("0.0.0.0") and m.group(1) != "0.0.0.0"
    assert "scan this" in result.stderr and "\u2580" in result.stderr  # the QR code, in blocks
    again = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--port", "0", "--db", db])
    assert m.group(2) not in again.stdout  # a new one each time
    given = CliRunner().invoke(main, ["serve", "--host", "::", "--port", "0", "--db", db,
                                      "--token", "table-seven"])
    port = re.fullmatch(r"herzla: serving on http://\[(.+)\]:(\d+)/\?token=table-seven",
                        given.stdout.splitlines()[0])
    assert port is not None and port.group(1) == own_address("::") != "::"
    local = CliRunner().invoke(main, ["serve", "--port", "0", "--db", db, "--token",
                                      "table-seven"])
    assert local.stdout.splitlines()[0].endswith("/?token=table-seven")


@web
@needs_web
@pytest.mark.parametrize(("args", "message"), [
    (["--token", "short"], "--token: give 8 to 200 letters"),
    (["--token", "has space in it"], "--token: give 8 to 200 letters"),
    (["--port", "70000"], "--port 70000 is not a port"),
    (["--host", "no.such.host.invalid"], "--host no.such.host.invalid: no such address"),
])
def test_bad_options_are_one_line(args: list[str], message: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "c.db"), *args])
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


@web
@needs_web
def test_a_port_in_use_and_a_store_it_cannot_read(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port), "--db",
                                           str(tmp_path / "d.db")])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1 port {port}" in result.stderr
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as con:
        con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        con.execute("INSERT INTO schema_version VALUES (99)")
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db", str(newer)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"herzla: error: {newer} was written by a later herzla (schema version 99; this herzla "
        f"reads up to 3): upgrade herzla"]


def _first_line(proc: subprocess.Popen[bytes]) -> str:
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 120)
    assert ready, "herzla serve printed nothing"
    return proc.stdout.readline().decode()


def serving(tmp_path: Path, db: str, pythonpath: str = str(ROOT)
            ) -> tuple[subprocess.Popen[bytes], str]:
    """A real ``herzla serve --port 0`` on the loopback address, with its store ``db`` in
    ``tmp_path`` (or the database a ``postgresql://`` URL names), and the URL its first line
    names (the caller stops it)."""
    env = {**os.environ, "PYTHONPATH": pythonpath}
    where = db if "://" in db else str(tmp_path / db)
    proc = subprocess.Popen([sys.executable, "-m", "herzla", "serve", "--port", "0", "--db",
                             where], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=tmp_path,
                            preexec_fn=at_a_terminal)
    try:
        line = _first_line(proc)
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    m = re.fullmatch(r"herzla: serving on (http://127\.0\.0\.1:\d+/)\n", line)
    if m is None:
        proc.kill()
        proc.communicate()
        raise AssertionError(line)
    return proc, m.group(1)


@web
@needs_web
@pytest.mark.parametrize(("signum", "code", "said"), [
    (signal.SIGINT, 130, "herzla: interrupted"),
    (signal.SIGTERM, 143, "herzla: stopped by SIGTERM"),
])
def test_a_real_server_answers_and_stops_cleanly(tmp_path: Path, signum: int, code: int,
                                                 said: str) -> None:
    proc, url = serving(tmp_path, "e.db")
    try:
        with urllib.request.urlopen(url + "desk", timeout=60) as page:
            assert page.status == 200 and b"Disputes desk" in page.read()
        body = (ROOT / "docs" / "examples" / "herzla-two-void.json").read_bytes()
        ask = urllib.request.Request(url + "api/replay", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(ask, timeout=60) as answer:
            assert json.loads(answer.read())["scores"] == [40, -30, -50, 40]
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == code
    text = err.decode()
    assert "Traceback" not in text and text.rstrip().endswith(said)


@web
@needs_web
def test_the_solver_is_warmed_up_in_a_thread_of_its_own(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    from herzla.analysis import warmup
    from herzla.cli.serve import warm_up_in_background

    ran: list[str] = []

    def warm() -> str:
        ran.append("warm")
        return "loaded"

    monkeypatch.setattr(warmup, "warm_up", warm)
    thread = warm_up_in_background()
    assert thread.daemon and thread.name == "herzla-warm-up"
    thread.join(60)
    assert ran == ["warm"]

    def broken() -> str:
        raise RuntimeError("numba says no")

    monkeypatch.setattr(warmup, "warm_up", broken)
    thread = warm_up_in_background()  # logged, never raised: the pure search runs on
    thread.join(60)
    assert not thread.is_alive()


def _ask(url: str, method: str = "GET", body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    ask = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(ask, timeout=120) as answer:
        return json.loads(answer.read())


@web
@needs_web
def test_serve_starts_and_plays_without_numba(tmp_path: Path) -> None:
    fake = tmp_path / "no-numba" / "numba"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('no numba here')\n")
    proc, url = serving(tmp_path, "f.db", f"{fake.parent}{os.pathsep}{ROOT}")
    try:
        table = _ask(url + "api/tables", "POST", {"game": "herzla", "contract": "normal",
                                                  "opponents": "pimc", "seed": 3})
        for _ in range(3):
            advice = _ask(url + f"api/tables/{table['id']}/hint")
            assert advice["card"] in table["legal"]
            table = _ask(url + f"api/tables/{table['id']}/play", "POST",
                         {"card": advice["card"]})
        assert len(table["record"]["plays"]) >= 12
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143 and "Traceback" not in err.decode()
