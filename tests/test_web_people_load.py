"""Tables of people under a real ``herzla serve`` on the loopback address (``pytest -m web``):
two tables of four people, each person a thread doing what a phone does (polling, fetching
the page, playing on its turn, now and then the same card twice at once), the server killed
with SIGKILL mid-hand and started again on its store: every play that was answered is kept,
none twice, every table reads and plays on to its end, and each deal's record replays to its
scores.  Bounded: a few seconds of play, two deals at most."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

import pytest

from benchmarks.people_load import call, make_tables, run_people
from herzla.records import read_record, replay
from tests.test_serve import needs_web, serving

pytestmark = [pytest.mark.web, needs_web]


def _moves(base: str, table: dict[str, object]) -> list[str]:
    seats = table["seats"]
    assert isinstance(seats, list)
    status, now = call(base, "GET", f"/api/tables/{table['id']}", key=seats[0]["key"])
    assert status == 200, now
    return list(now["moves"])


def test_people_race_and_a_killed_server_loses_nothing(tmp_path: Path) -> None:
    proc, base = serving(tmp_path, "people.db")
    try:
        tables = make_tables(base, 2, seed=31)
        stop = threading.Event()
        people = run_people(base, tables, deals=1, period=0.02, stop=stop, wait=0.0)
        deadline = time.monotonic() + 120
        while min(len(_moves(base, t)) for t in tables) < 10:  # mid-hand at both tables
            assert time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        stop.set()
        for p in people:
            p.join(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
    proc, base = serving(tmp_path, "people.db")
    try:
        for t in tables:  # every play answered before the kill is kept, in order, once
            kept = _moves(base, t)
            assert len(kept) == len(set(kept))
            for p in people:
                if p.tid == t["id"]:
                    mine = [card for _, card in p.played]
                    assert [c for c in kept if c in mine][:len(mine)] == mine
        # a double tap is refused, not played twice; the people play on to the end
        after = run_people(base, tables, deals=1, period=0.02, wait=120)
        assert all(not p.is_alive() for p in after)
        assert [e for p in after for e in p.errors] == []
        assert sum(p.refused_doubles for p in people + after) > 0
        for t in tables:
            status, done = call(base, "GET", f"/api/tables/{t['id']}",
                                key=t["seats"][0]["key"])
            assert status == 200
            assert done["over"] and len(done["moves"]) == 32 == len(set(done["moves"]))
            assert list(replay(read_record(done["record"])).scores or ()) == done["scores"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
