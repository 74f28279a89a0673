"""docs/hosting.md on loopback (``pytest -m server``; skipped without caddy or a PostgreSQL
server): two ``herzla serve --proxy`` processes on one PostgreSQL database behind Caddy with
the repository's own Caddyfile (deploy/Caddyfile) and Caddy's internal authority: a table of
four people played over HTTPS, each seat by its own key, cookies ``Secure``, one process
killed mid-hand with nothing lost (Caddy sends the requests on to the other)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from herzla.records import read_record, replay
from tests.postgres import fresh_schema
from tests.test_serve import ROOT, needs_web

pytestmark = [pytest.mark.server, needs_web,
              pytest.mark.skipif(shutil.which("caddy") is None, reason="caddy is not installed")]

TOKEN = "our-table-2026"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _herzla(db: str, site: str, tmp: Path) -> tuple[subprocess.Popen[bytes], int]:
    """``herzla serve`` behind the proxy at ``site``, as the systemd unit starts it, and its
    port."""
    proc = subprocess.Popen([sys.executable, "-m", "herzla", "serve", "--host", "127.0.0.1",
                             "--port", "0", "--proxy", site, "--token", TOKEN],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "HERZLA_DB": db})
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().decode() == f"herzla: serving on {site}?token={TOKEN}\n"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stderr.readline().decode()
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
        if found:
            return proc, int(found.group(1))
    raise AssertionError("herzla serve named no port")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def test_a_table_of_four_over_https_behind_caddy(tmp_path: Path) -> None:
    https, http = _free_port(), _free_port()
    site = f"https://127.0.0.1:{https}/"
    procs: list[subprocess.Popen[bytes]] = []
    with fresh_schema() as db:
        try:
            ports = []
            for _ in range(2):
                proc, port = _herzla(db, site, tmp_path)
                procs.append(proc)
                ports.append(port)
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
                   "XDG_DATA_HOME": str(tmp_path / "data"),
                   "XDG_CONFIG_HOME": str(tmp_path / "config"),
                   "HERZLA_SITE": site.rstrip("/"), "HERZLA_CERTS": "local_certs",
                   "HERZLA_HTTPS_PORT": str(https), "HERZLA_HTTP_PORT": str(http),
                   "HERZLA_UPSTREAMS": " ".join(f"127.0.0.1:{p}" for p in ports)}
            caddy = subprocess.Popen(["caddy", "run", "--config",
                                      str(ROOT / "deploy" / "Caddyfile"), "--adapter",
                                      "caddyfile"], env=env, cwd=tmp_path,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            procs.append(caddy)
            root = tmp_path / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
            context = None
            deadline = time.monotonic() + 60
            while context is None:
                assert time.monotonic() < deadline and caddy.poll() is None
                time.sleep(0.2)
                if root.exists():
                    try:
                        context = ssl.create_default_context(cafile=str(root))
                        with urllib.request.urlopen(site + "favicon.ico", context=context,
                                                    timeout=10) as answer:
                            assert answer.status == 200
                    except (OSError, ssl.SSLError):
                        context = None
            _play_over_https(site, context, procs[0])
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
            for proc in procs:
                try:
                    proc.communicate(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.communicate()


def _play_over_https(site: str, context: ssl.SSLContext,
                     victim: subprocess.Popen[bytes]) -> None:
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context),
                                         _NoRedirect())

    def call(method: str, path: str, body: Any = None, bearer: str = TOKEN) -> Any:
        ask = urllib.request.Request(site + path.lstrip("/"), method=method,
                                     headers={"Authorization": f"Bearer {bearer}",
                                              "Content-Type": "application/json"},
                                     data=None if body is None else json.dumps(body).encode())
        with opener.open(ask, timeout=60) as answer:
            return json.loads(answer.read())

    # the token once in the address: a cookie, Secure as the request came over TLS
    try:
        opener.open(site + f"?token={TOKEN}", timeout=60)
        raise AssertionError("no redirect")
    except urllib.error.HTTPError as exc:
        assert exc.code == 303
        cookies = exc.headers.get_all("Set-Cookie") or []
    assert cookies and all("Secure" in c and "HttpOnly" in c for c in cookies)
    made = call("POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                        "people": [0, 1, 2, 3], "seed": 54})
    keys = {s["seat"]: s["key"] for s in made["seats"]}
    assert all(s["url"].startswith(site + "tables/") for s in made["seats"])
    tid = made["id"]
    answered: list[str] = []
    while True:
        table = call("GET", f"/api/tables/{tid}", bearer=keys[0])
        if table["over"]:
            break
        seat = table["to_move"]
        mine = call("GET", f"/api/tables/{tid}", bearer=keys[seat])
        assert set(mine["hand"]).isdisjoint(table["hand"]) or seat == 0
        card = mine["legal"][0]
        call("POST", f"/api/tables/{tid}/play", {"card": card}, bearer=keys[seat])
        answered.append(card)
        if len(answered) == 10:  # one process killed mid-hand: Caddy goes on to the other
            victim.send_signal(signal.SIGKILL)
            victim.wait(timeout=60)
    moves = table["moves"]
    assert len(moves) == 32 == len(set(moves)) and moves == answered
    assert list(replay(read_record(table["record"])).scores or ()) == table["scores"]
