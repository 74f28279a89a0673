"""Two real ``herzla serve`` processes on one PostgreSQL database (marked ``server``; skipped
without one): they serve the same evenings and tables, a change answered by one is seen by the
other at once, an idempotency key and a revision hold whichever process gets the request, two
processes never both play a card for one turn, and a process killed mid-hand loses no answered
play while the other plays on.  Bounded: two tables, one deal, a few seconds of play."""

from __future__ import annotations

import json
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.people_load import call, make_tables, run_people
from herzla.records import read_record, replay
from tests.postgres import fresh_schema
from tests.test_serve import needs_web, serving

pytestmark = [pytest.mark.server, needs_web]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[list[subprocess.Popen[bytes]], list[str]]]:
    """Two servers on one fresh PostgreSQL schema."""
    with fresh_schema() as url:
        procs: list[subprocess.Popen[bytes]] = []
        bases: list[str] = []
        try:
            for _ in range(2):
                proc, base = serving(tmp_path, url)
                procs.append(proc)
                bases.append(base)
            yield procs, bases
        finally:
            for proc in procs:
                _stop(proc)


def _send(base: str, path: str, body: Any, **headers: str) -> tuple[int, Any, dict[str, str]]:
    ask = urllib.request.Request(base + path.lstrip("/"), method="POST",
                                 data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(ask, timeout=60) as answer:
            return answer.status, json.loads(answer.read()), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}"), dict(exc.headers)


def test_two_processes_serve_one_evening_and_keep_its_rules(two: Any) -> None:
    _, (a, b) = two
    status, evening = call(a, "POST", "/api/evenings",
                           {"game": "herzla", "players": ["Anna", "Berni", "Cilli", "Done"]})
    assert status == 201
    doc = evening["id"]
    assert call(b, "GET", f"/api/evenings/{doc}")[1]["players"] == evening["players"]
    deal = {"contract": "normal", "hearts": [0, 3, 5, 0]}
    # the same deal with its key sent to both processes at once, ten times: ten deals
    answers: list[tuple[int, Any, dict[str, str]]] = []
    for n in range(10):
        twins = [threading.Thread(target=lambda base=base, n=n: answers.append(
            _send(base, f"/api/evenings/{doc}/deals", deal, **{"Idempotency-Key":
                                                               f"one-deal-key-{n:04d}"})))
            for base in (a, b)]
        for t in twins:
            t.start()
        for t in twins:
            t.join(60)
    assert sorted(s for s, _, _ in answers) == [200] * 20
    assert sum(h.get("Idempotent-Replayed") == "true" for _, _, h in answers) == 10
    status, now = call(b, "GET", f"/api/evenings/{doc}")
    assert len(now["deals"]) == 10 and now["revision"] == 11
    # the revision a page polls grows on the other process at once (no wait)
    assert call(a, "GET", f"/api/evenings/{doc}/revision")[1]["revision"] == 11
    # a write from a stale revision is refused on either process
    stale = _send(a, f"/api/evenings/{doc}/deals", deal, **{"If-Match": '"3"'})
    assert stale[0] == 409 and "changed meanwhile (revision 11, not 3)" in stale[1]["error"]


def test_one_card_a_turn_across_processes_and_a_killed_one_loses_nothing(two: Any) -> None:
    procs, bases = two
    tables = make_tables(bases[0], 2, seed=41)
    stop = threading.Event()
    # each person's calls go to the two processes in turn; a double tap sends one card to each
    people = run_people(bases, tables, deals=1, period=0.02, stop=stop, wait=0.0)

    def moves(table: dict[str, Any], base: str) -> list[str]:
        status, now = call(base, "GET", f"/api/tables/{table['id']}",
                           key=table["seats"][0]["key"])
        assert status == 200, now
        return list(now["moves"])

    deadline = time.monotonic() + 120
    while min(len(moves(t, bases[0])) for t in tables) < 10:  # mid-hand at both tables
        assert time.monotonic() < deadline
        time.sleep(0.05)
    procs[1].send_signal(signal.SIGKILL)
    procs[1].wait(timeout=60)
    stop.set()
    for p in people:
        p.join(timeout=60)
    for t in tables:  # every play answered (by either process) is kept, in order, once
        kept = moves(t, bases[0])
        assert len(kept) == len(set(kept))
        for p in people:
            if p.tid == t["id"]:
                mine = [card for _, card in p.played]
                assert [c for c in kept if c in mine][:len(mine)] == mine
    # the process left plays on to the end; double taps were refused, never played twice
    after = run_people(bases[0], tables, deals=1, period=0.02, wait=120)
    assert all(not p.is_alive() for p in after)
    assert [e for p in after for e in p.errors] == []
    assert sum(p.refused_doubles for p in people + after) > 0
    for t in tables:
        status, done = call(bases[0], "GET", f"/api/tables/{t['id']}", key=t["seats"][0]["key"])
        assert status == 200
        assert done["over"] and len(done["moves"]) == 32 == len(set(done["moves"]))
        assert list(replay(read_record(done["record"])).scores or ()) == done["scores"]
