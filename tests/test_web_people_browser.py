"""A table of people in real browsers (``pytest -m browser``): two phones, each opening the link
of its own seat, play a whole Herzla deal against two computer seats by tapping their cards;
at every step each phone's page shows its own cards alone (searched for the other seats'
unplayed cards, read from the server's own store) and the other phone brings itself up to date
without a reload; the pages fit a phone's width; the deal's record replays to the scores the
pad shows.  The screenshot of the two phones side by side is docs/web-people-phones.png
(``HERZLA_SCREENSHOTS=DIR`` keeps it)."""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from herzla.cards import cards_of
from herzla.records import read_record, replay
from herzla.table import position
from tests.people_check import hidden_cards, table_of
from tests.test_web_browser import PHONE, READY, _click, shoot
from tests.test_web_phones import FITS, call, console_errors, phones, served

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not READY, reason="needs chromium, chromium-driver, selenium "
                                                   "and the web extra")]

__all__ = ["phones", "served"]  # the fixtures


def write_png(pixels: np.ndarray[Any, Any], path: Path) -> None:
    """``pixels`` (height, width, 3) as an 8-bit RGB PNG."""
    height, width, _ = pixels.shape
    raw = b"".join(b"\x00" + pixels[y].astype(np.uint8).tobytes() for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    path.write_bytes(b"\x89PNG\r\n\x1a\n"
                     + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def _shown_cards(driver: Any) -> list[str]:
    """The codes of the cards the page shows in its hand (``title="label (CODE)"``)."""
    return [e.get_attribute("title").rsplit("(", 1)[1].rstrip(")")
            for e in driver.find_elements("css selector", "#hand .pcard")
            if "(" in (e.get_attribute("title") or "")]


def test_two_phones_play_a_whole_deal_each_seeing_its_own_cards(
        served: str, phones: Callable[[], Any], tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from herzla.web.store import Kind, Store

    made = call(served, "POST", "/api/tables", {
        "game": "herzla", "contract": "normal", "people": [0, 2], "opponents": "heuristic",
        "seed": 21, "players": ["Anna", "Computer 1", "Berni <b>", "Computer 2"]})
    tid = made["id"]
    store = Store(tmp_path / "browser.db")
    links = {s["seat"]: s["url"] for s in made["seats"]}
    drivers = {seat: phones() for seat in links}
    for seat, driver in drivers.items():
        driver.get(links[seat])
        assert "Berni <b>" in driver.find_element(By.ID, "play").text  # shown as typed
    shot = None
    steps = 0
    while True:
        table = table_of(store, tid)
        pos = position(table)
        for seat, driver in drivers.items():  # each page up to date, its own cards alone
            WebDriverWait(driver, 30).until(
                lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-revision")
                == str(store.revision(Kind.TABLE, tid)))
            source = driver.page_source
            for card in hidden_cards(table, seat):
                assert f"({card.code})" not in source and f'"{card.code}"' not in source
            if not pos.over:
                held = pos.hand.hands[seat]
                assert sorted(_shown_cards(driver)) == sorted(c.code for c in cards_of(held))
            scroll, width, _ = driver.execute_script(FITS)
            assert scroll <= width == PHONE[0]
        if pos.over:
            break
        seat = pos.to_move
        assert seat in drivers
        driver = drivers[seat]
        if steps == 5 and shot is None:  # mid-hand: the two phones side by side
            shot = [shoot(d, PHONE, tmp_path / f"people-{s}.png") for s, d in drivers.items()]
        buttons = driver.find_elements(By.CSS_SELECTOR, "[data-card]")
        assert buttons
        other = drivers[2 if seat == 0 else 0]
        assert other.find_elements(By.CSS_SELECTOR, "[data-card]") == []  # not its turn
        _click(driver, buttons[0])
        steps += 1
        assert steps < 40
    assert shot is not None
    height = max(s.shape[0] for s in shot)
    gap = np.full((height, 24, 3), 255, dtype=np.uint8)
    padded = [np.vstack([s[..., :3], np.full((height - s.shape[0], s.shape[1], 3), 255,
                                                   dtype=np.uint8)]) for s in shot]
    out = tmp_path / "web-people-phones.png"
    write_png(np.hstack([padded[0], gap, padded[1]]), out)
    keep = os.environ.get("HERZLA_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        (Path(keep) / out.name).write_bytes(out.read_bytes())
    # the hand over: the whole record, replaying to the scores each page and the pad show
    done = call(served, "GET", f"/api/tables/{tid}?key={made['seats'][0]['key']}")
    res = replay(read_record(done["record"]))
    assert list(res.scores or ()) == done["scores"]
    for driver in drivers.values():  # each asks for the next deal, on a page up to date
        WebDriverWait(driver, 30).until(
            lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-revision")
            == str(store.revision(Kind.TABLE, tid)))
        _click(driver, driver.find_element(By.ID, "next-deal"))
    pad = call(served, "GET", f"/api/tables/{tid}/evening")
    assert pad["deals"][0]["scores"] == done["scores"] == pad["totals"]
    for driver in drivers.values():
        WebDriverWait(driver, 30).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, 'tr[data-deal="1"]'))
        assert console_errors(driver, allowed=("409",)) == []
