"""The table app in a real browser: ``herzla serve`` runs, headless Chromium (Debian's
``chromium`` and ``chromium-driver``) opens its pages, driven by Selenium, at a phone's width
(375 px) and a laptop's, and screenshots are saved (``HERZLA_SCREENSHOTS=DIR`` keeps them).
Skipped where Chromium, its driver, Selenium or the web extra is missing (``pytest -m
browser``)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.helpers import stop
from tests.test_browser import read_png
from tests.test_serve import serving

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
READY = CHROMIUM is not None and DRIVER is not None and all(
    find_spec(n) for n in ("selenium", "flask", "waitress"))

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not READY, reason="needs chromium, chromium-driver, selenium "
                                                   "and the web extra")]

PHONE = (375, 812)
LAPTOP = (1280, 900)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """The URL of a ``herzla serve`` on a free port and a store of its own."""
    proc, url = serving(tmp_path, "browser.db")
    try:
        yield url
    finally:
        stop(proc)


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium through Debian's chromedriver (Selenium fetches no driver), with a
    fresh profile and nothing of its own on the network."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    assert CHROMIUM is not None and DRIVER is not None
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(120)
    try:
        yield driver
    finally:
        driver.quit()


def screen(driver: Any, size: tuple[int, int]) -> None:
    """Show the page as a screen of ``size`` CSS pixels shows it (a phone's: as a mobile
    browser does; headless Chromium's windows are never narrower than 500 px)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1,
        "mobile": size[0] < 600})


def shoot(driver: Any, size: tuple[int, int], path: Path) -> np.ndarray[Any, Any]:
    """A screenshot of the whole page at ``size``'s width, saved to ``path`` (and to
    ``$HERZLA_SCREENSHOTS``), as pixels."""
    screen(driver, size)
    height = int(driver.execute_script("return document.documentElement.scrollHeight"))
    screen(driver, (size[0], min(max(height, size[1]), 6000)))
    driver.save_screenshot(str(path))
    keep = os.environ.get("HERZLA_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)
    return read_png(path.read_bytes())


def test_the_desk_rules_on_a_pasted_record_at_phone_width(served: str, browser: Any,
                                                          tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    case = json.loads((ROOT / "tests" / "cases" / "01-herzla-two-void.json").read_text())
    screen(browser, PHONE)
    browser.get(served)
    assert browser.find_element(By.TAG_NAME, "h1").text == "The table"
    browser.find_element(By.LINK_TEXT, "Paste a hand record").click()
    WebDriverWait(browser, 60).until(ec.presence_of_element_located((By.ID, "record")))
    assert int(browser.execute_script("return window.innerWidth")) == PHONE[0]
    browser.find_element(By.ID, "record").send_keys(json.dumps(case["record"]))
    review = browser.find_element(By.ID, "review")
    assert review.is_selected()  # a complete hand is reviewed unless asked not to
    browser.find_element(By.ID, "rule-record").click()
    ruling = WebDriverWait(browser, 120).until(
        ec.presence_of_element_located((By.ID, "ruling")))
    text = ruling.text
    scores = [int(v.text.replace("\u2212", "-"))
              for v in ruling.find_elements(By.CSS_SELECTOR, "table.scores td.num")]
    assert scores == case["expect"]["scores"]
    assert browser.find_element(By.ID, "stock").text == "Stock after the hand: 0c"
    assert "herzla/two-void" in text and "Review: what each mistake cost" in text
    assert ruling.find_elements(By.CSS_SELECTOR, ".pcard svg.sign"), "the cards are drawn"
    # nothing is wider than the phone (a mobile browser would zoom the page out): the drawing
    # scrolls inside its own boxes
    assert int(browser.execute_script("return window.innerWidth")) == PHONE[0]
    assert int(browser.execute_script(
        "return document.documentElement.scrollWidth")) <= PHONE[0]
    phone = shoot(browser, PHONE, tmp_path / "desk-phone.png")
    laptop = shoot(browser, LAPTOP, tmp_path / "desk-laptop.png")
    for pixels, width in ((phone, PHONE[0]), (laptop, LAPTOP[0])):
        assert pixels.shape[1] == width
        ink = (pixels < 200).any(axis=2)
        assert ink.mean() > 0.02  # cards, tables and text are drawn, not a blank page
        r, g, b = (pixels[:, :, k].astype(int) for k in range(3))
        assert ((r > 150) & (g < 80) & (b < 90)).sum() > 200  # the red suits


def _click(driver: Any, element: Any) -> None:
    """Click ``element`` and wait for the page it leads to (a form posts, the page comes
    back)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    def gone(_: Any) -> bool:
        # the old page's element is gone: stale, or (Chromium, mid-navigation) a node that
        # "does not belong to the document"; what the new page holds the test checks next
        try:
            element.is_enabled()
        except WebDriverException:
            return True
        return False

    element.click()
    WebDriverWait(driver, 120).until(gone)


def _fits(driver: Any, width: int) -> None:
    """Nothing is wider than the screen (a mobile browser would zoom the page out)."""
    assert int(driver.execute_script("return window.innerWidth")) == width
    assert int(driver.execute_script("return document.documentElement.scrollWidth")) <= width


def test_a_hand_played_by_clicking_its_cards(served: str, browser: Any, tmp_path: Path
                                             ) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    screen(browser, PHONE)
    browser.get(served)
    Select(browser.find_element(By.ID, "play")).select_by_value("herzla/normal")
    Select(browser.find_element(By.ID, "seat")).select_by_value("1")
    Select(browser.find_element(By.ID, "opponents")).select_by_value("heuristic")
    browser.find_element(By.ID, "seed").send_keys("7")
    _click(browser, browser.find_element(By.ID, "sit-down"))
    table = browser.current_url.split("#")[0]
    doc = table.rsplit("/", 1)[1]
    clicks = 0
    shot = None
    while not browser.find_elements(By.ID, "result"):
        cards = browser.find_elements(By.CSS_SELECTOR, "[data-card]")
        answer = json.loads(urllib_get(served + f"api/tables/{doc}"))
        assert sorted(c.get_attribute("data-card") for c in cards) == sorted(answer["legal"])
        _fits(browser, PHONE[0])
        if clicks == 3 and shot is None:  # a table in play, with the hint asked for
            _click(browser, browser.find_element(By.ID, "hint-link"))
            assert browser.find_element(By.ID, "hint").text
            shot = shoot(browser, PHONE, tmp_path / "table-phone.png")
            shoot(browser, LAPTOP, tmp_path / "table-laptop.png")
            screen(browser, PHONE)
            continue
        _click(browser, cards[-1])
        clicks += 1
    assert clicks == 8  # a card each trick
    answer = json.loads(urllib_get(served + f"api/tables/{doc}"))
    assert answer["over"] and len(answer["record"]["plays"]) == 32
    from herzla.records import replay

    assert list(replay(answer["record"]).scores or ()) == answer["scores"]
    text = browser.find_element(By.ID, "result").text
    assert "Review: what each mistake cost" in text
    _fits(browser, PHONE[0])
    shoot(browser, PHONE, tmp_path / "table-over-phone.png")
    assert shot is not None and shot.shape[1] == PHONE[0]


def urllib_get(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=60) as answer:
        return str(answer.read().decode())


def test_the_pad_at_phone_width(served: str, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    screen(browser, PHONE)
    browser.get(served)
    for i, name in enumerate(["Anna", "Berni", "Carla", "Done"]):
        browser.find_element(By.ID, f"player-{i}").send_keys(name)
    _click(browser, browser.find_element(By.ID, "start-evening"))
    doc = browser.current_url.split("#")[0].rsplit("/", 1)[1]

    def tap(name: str, value: str) -> None:
        box = browser.find_element(By.CSS_SELECTOR, f'input[name="{name}"][value="{value}"]')
        box.find_element(By.XPATH, "..").click()
        assert box.is_selected()

    # deal 1: nobody void; deal 2: Berni 3, Carla 5 (two void); deal 3: Beddl by Carla, lost
    for hearts in ({"hearts-0": "2", "hearts-1": "2", "hearts-2": "2", "hearts-3": "2"},
                   {"hearts-1": "3", "hearts-2": "5"}):
        for name, value in hearts.items():
            tap(name, value)
        _click(browser, browser.find_element(By.ID, "enter"))
    _click(browser, browser.find_element(By.LINK_TEXT, "Beddl"))
    tap("declarer", "2")
    _click(browser, browser.find_element(By.ID, "lost"))
    rows = browser.find_elements(By.CSS_SELECTOR, "tr[data-deal]")
    assert [r.get_attribute("data-deal") for r in rows] == ["1", "2", "3"]
    assert browser.find_element(By.ID, "stock").text == "0c"
    _fits(browser, PHONE[0])
    # deal 1 corrected: two void as well; the stock it made is gone, and deal 2 is recomputed
    _click(browser, rows[0].find_element(By.CSS_SELECTOR, "a.k"))
    assert "Correct deal 1" in browser.find_element(By.ID, "entry").text
    for name, value in {"hearts-0": "0", "hearts-1": "3", "hearts-2": "5", "hearts-3": "0"
                        }.items():
        tap(name, value)
    _click(browser, browser.find_element(By.ID, "enter"))
    answer = json.loads(urllib_get(served + f"api/evenings/{doc}"))
    assert [d["scores"] for d in answer["deals"]] == [[40, -30, -50, 40], [40, -30, -50, 40],
                                                      [80, 80, -240, 80]]
    first = browser.find_element(By.CSS_SELECTOR, 'tr[data-deal="1"]').text
    assert "+40" in first and "\u221250" in first
    _fits(browser, PHONE[0])
    pixels = shoot(browser, PHONE, tmp_path / "pad-phone.png")
    shoot(browser, LAPTOP, tmp_path / "pad-laptop.png")
    assert pixels.shape[1] == PHONE[0] and (pixels < 200).any(axis=2).mean() > 0.02
