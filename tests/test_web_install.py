"""The app installs on a phone (``pytest -m browser``): in headless Chromium at a phone's width
the pages link a manifest (name, short name, start address, standalone, icons of 192 and 512
pixels) and register the service worker; while the server answers, a page is always the
evening as it is now; once the server is gone, the last view of an evening opened on this
phone is shown, saying so, and a table's page (a seat's cards) is never kept."""

from __future__ import annotations

import json
import signal
import struct
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import stop
from tests.test_serve import serving
from tests.test_web_browser import PHONE, READY, browser, screen  # noqa: F401

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not READY, reason="needs chromium, chromium-driver, selenium "
                                                   "and the web extra")]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    proc, base = serving(tmp_path, "install.db")
    try:
        yield proc, base
    finally:
        stop(proc)


def _post(url: str, body: Any) -> Any:
    ask = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(ask, timeout=60) as answer:
        return json.loads(answer.read())


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_app_installs_and_keeps_the_last_view_of_an_evening(
        server: tuple[subprocess.Popen[bytes], str], browser: Any) -> None:  # noqa: F811
    proc, base = server
    evening = _post(base + "api/evenings", {"game": "herzla",
                                            "players": ["Anna", "Berni", "Cilli", "Done"]})
    table = _post(base + "api/tables", {"game": "herzla", "contract": "normal",
                                        "people": [0, 1], "opponents": "random", "seed": 3})
    pad = f"{base}evenings/{evening['id']}"
    screen(browser, PHONE)
    browser.get(pad)
    link = browser.execute_script(
        "return document.querySelector('link[rel=manifest]').href")
    with urllib.request.urlopen(link, timeout=60) as answer:
        assert answer.headers.get_content_type() == "application/manifest+json"
        manifest = json.loads(answer.read())
    assert manifest["name"] and manifest["short_name"] and manifest["start_url"] == "/"
    assert manifest["display"] == "standalone"
    sizes = {}
    for icon in manifest["icons"]:
        with urllib.request.urlopen(base + icon["src"].lstrip("/"), timeout=60) as answer:
            sizes[icon["sizes"]] = _png_size(answer.read())
    assert sizes == {"192x192": (192, 192), "512x512": (512, 512)}
    active = browser.execute_async_script(
        "var done = arguments[0]; navigator.serviceWorker.ready.then("
        "function (r) { done(!!r.active); }, function () { done(false); });")
    assert active
    deadline = time.monotonic() + 30
    while not browser.execute_script("return !!navigator.serviceWorker.controller"):
        assert time.monotonic() < deadline
        browser.get(pad)
    # online: the page is the evening as it is now (a deal entered meanwhile shows at once)
    _post(base + f"api/evenings/{evening['id']}/deals", {"contract": "normal",
                                                         "hearts": [0, 3, 5, 0]})
    browser.get(pad)
    assert browser.find_elements("css selector", '[data-deal="1"]')
    assert not browser.find_element("id", "offline").is_displayed()
    browser.get(f"{base}tables/{table['id']}?key={table['seats'][0]['key']}")
    assert browser.find_elements("css selector", "[data-card]")  # the seat's cards, online
    time.sleep(1)  # the copy of the pad is written to the cache
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    # the server gone: the pad's last view, marked as such; the seat's page is not kept
    browser.get(pad)
    assert browser.find_element("id", "offline").is_displayed()
    assert browser.find_elements("css selector", '[data-deal="1"]')
    assert "Anna" in browser.page_source
    browser.get(f"{base}tables/{table['id']}?key={table['seats'][0]['key']}")
    assert not browser.find_elements("css selector", "[data-card]")
    assert not browser.find_elements("id", "offline")
