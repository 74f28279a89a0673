"""The table app in a real browser: ``herzla serve`` runs, headless Chromium (Debian's
``chromium`` and ``chromium-driver``) opens its pages, driven by Selenium, at a phone's width
(375 px) and a laptop's, and screenshots are saved (``HERZLA_SCREENSHOTS=DIR`` keeps them).
Skipped where Chromium, its driver, Selenium or the web extra is missing (``pytest -m
browser``)."""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.test_browser import read_png

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
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "herzla", "serve", "--port", "0", "--db",
                             str(tmp_path / "browser.db")], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    try:
        assert proc.stdout is not None
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        assert ready, "herzla serve printed nothing"
        line = proc.stdout.readline().decode()
        m = re.fullmatch(r"herzla: serving on (http://127\.0\.0\.1:\d+/)\n", line)
        assert m is not None, line
        yield m.group(1)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()


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
    scores = [int(v.text) for v in ruling.find_elements(By.CSS_SELECTOR, "table.scores td.num")]
    assert scores == case["expect"]["scores"]
    assert browser.find_element(By.ID, "stock").text == "Stock after the hand: 0c"
    assert "herzla/two-void" in text and "Review: what each mistake cost" in text
    assert ruling.find_elements(By.TAG_NAME, "svg"), "the hand is drawn"
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
