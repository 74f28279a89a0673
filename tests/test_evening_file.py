"""The evening's file: what it holds, what it refuses, undo across saving and loading, and the
atomic write (a failing rename or a full disk leaves the old file)."""

from __future__ import annotations

import errno
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest

from herzla.evening import Evening, EveningError, create, dumps, load, save, update

PLAYERS = ["Anna", "Berni", "Carla", "Done"]


def evening() -> Evening:
    e = Evening.new("herzla", PLAYERS, {"heart_unit": 10}, stock=40, dealer="Berni")
    return e.add({"hearts": [0, 3, 5, 0]}).add({"contract": "beddl", "declarer": "carla",
                                                 "made": True}).edit(1, {"hearts": [2, 2, 2, 2]})


def test_the_file_holds_the_entries_not_the_numbers() -> None:
    obj = evening().to_json()
    assert obj == {
        "format": "herzla-evening", "version": 1, "game": "herzla", "players": PLAYERS,
        "options": {"heart_unit": 10}, "stock": 40, "dealer": 1, "revision": 3,
        "deals": [{"contract": "normal", "hearts": [2, 2, 2, 2]},
                  {"contract": "beddl", "declarer": "Carla", "made": True}],
        "undo": [{"change": "add", "k": 1}, {"change": "add", "k": 2},
                 {"change": "edit", "k": 1, "entry": {"contract": "normal",
                                                      "hearts": [0, 3, 5, 0]}}]}
    text = dumps(evening())
    assert "totals" not in text and "scores" not in text and json.loads(text) == obj


def test_round_trip_and_undo_across_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "evening.json"
    e = evening()
    save(e, path)
    back = load(path)
    assert back == e and back.to_dict() == e.to_dict()
    undone = back.undo()
    assert undone.deals[0].scores == (60, -30, -50, 60)  # the edit taken back: 40c + 20c
    save(undone, path)
    again = load(path).undo().undo()
    assert again.deals == () and again.stock == 40 and again.revision == 6
    with pytest.raises(EveningError, match="no change to take back"):
        again.undo()


def test_a_record_entry_is_kept_without_its_stock(tmp_path: Path) -> None:
    from tests.test_evening import record

    rec = record("05-herzla-no-void-stock-grows")
    e = Evening.new("herzla", PLAYERS, stock=80).add({"record": rec})
    kept = e.to_json()["deals"][0]["record"]
    assert "stock" not in kept and kept["dealer"] == 3 and kept["plays"] == rec["plays"]
    path = tmp_path / "e.json"
    save(e, path)
    assert load(path).stock == 160


@pytest.mark.parametrize(("obj", "message"), [
    ([1, 2], "not a herzla evening"),
    ({"game": "herzla"}, "not a herzla evening"),
    ({"format": "herzla-evening", "version": 2, "game": "herzla", "players": PLAYERS},
     "written by a later herzla; this one reads version 1"),
    ({"format": "herzla-evening", "version": "1"}, "version must be a whole number"),
    ({"format": "herzla-evening", "version": 1, "game": "herzla", "players": PLAYERS,
      "totals": [1]}, 'unknown key "totals"'),
    ({"format": "herzla-evening", "version": 1, "game": "herzla", "players": PLAYERS,
      "deals": [{"hearts": [0, 3, 5]}]}, "deal 1: hearts: give one value per seat"),
    ({"format": "herzla-evening", "version": 1, "game": "herzla", "players": PLAYERS,
      "deals": [{"hearts": [0, 3, 5, 0]}], "undo": [{"change": "add", "k": 7}]},
     r"undo\[0\]: there is no deal 7"),
    ({"format": "herzla-evening", "version": 1, "game": "herzla", "players": PLAYERS,
      "undo": [{"change": "drop", "k": 1}]}, "a drop keeps the entry|an drop keeps"),
    ({"format": "herzla-evening", "version": 1, "game": "herzla", "players": ["A"]},
     "played by 4 players"),
])
def test_what_is_not_an_evening_is_one_line(obj: Any, message: str) -> None:
    with pytest.raises(EveningError, match=message) as info:
        Evening.from_json(obj)
    assert "\n" not in str(info.value)


def test_load_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(EveningError, match="no such file"):
        load(tmp_path / "nope.json")
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "herzla-evening", "version": 1, "game": "herzla\xff"}')
    with pytest.raises(EveningError, match="is not UTF-8 text"):
        load(bad)
    bad.write_text('{"format": "herzla-evening", "format": 1}')
    with pytest.raises(EveningError, match="appears twice"):
        load(bad)
    bad.write_text("[" * 100_000)
    with pytest.raises(EveningError, match="nested too deeply"):
        load(bad)
    with pytest.raises(EveningError, match="is a folder"):
        load(tmp_path)


@pytest.mark.parametrize("where", ["replace", "fsync", "write"])
def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            where: str) -> None:
    path = tmp_path / "evening.json"
    old = evening()
    save(old, path)
    before = path.read_bytes()

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    if where == "replace":
        monkeypatch.setattr(os, "replace", full)
    elif where == "fsync":
        monkeypatch.setattr(os, "fsync", full)
    else:
        real = os.fdopen

        class Full:
            def __init__(self, fh: Any) -> None:
                self.fh = fh

            def __enter__(self) -> Full:
                return self

            def __exit__(self, *exc: object) -> None:
                self.fh.close()

            def write(self, data: bytes) -> int:
                self.fh.write(data[:10])
                raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "fdopen", lambda fd, mode: Full(real(fd, mode)))
    with pytest.raises(OSError, match="No space left"):
        save(old.add({"hearts": [0, 0, 4, 4]}), path)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evening.json"]  # no temporary file
    with pytest.raises(OSError):
        update(path, lambda e: e.add({"hearts": [0, 0, 4, 4]}))
    assert path.read_bytes() == before


def test_save_follows_a_link_and_keeps_the_mode(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    save(evening(), real)
    real.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    save(evening().undo(), link)
    assert link.is_symlink() and load(real).revision == 4
    assert real.stat().st_mode & 0o777 == 0o640


def test_create_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "e.json"
    create(evening(), path)
    with pytest.raises(EveningError, match="exists already"):
        create(Evening.new("herzla", PLAYERS), path)
    assert load(path) == evening()


def test_two_writers_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "e.json"
    create(Evening.new("herzla", PLAYERS), path)
    errors: list[BaseException] = []

    def add_some() -> None:
        try:
            for _ in range(6):
                update(path, lambda e: e.add({"hearts": [2, 2, 2, 2]}))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=add_some) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    e = load(path)
    assert len(e.deals) == 18 and e.revision == 18 and e.stock == 1440
