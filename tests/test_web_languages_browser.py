"""Every kind of page in both languages in headless Chromium (``pytest -m browser``), at a
phone's width (375 px) and a laptop's: nothing scrolls sideways (the page, or a box of its
own), no word is broken mid-word (a word wraps whole, or at a hyphen: its soft hyphens), and,
where axe-core is at hand, axe (WCAG 2.1 A and AA, and best practice) finds nothing.

axe-core is a test tool fetched from npm by ``.ci/run`` (``npm install --prefix DIR
axe-core``; ``HERZLA_AXE`` names its ``axe.min.js``); without it that test is skipped.
``HERZLA_SCREENSHOTS=DIR`` keeps the screenshots (docs/de/ holds some of them)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.test_web_browser import LAPTOP, PHONE, READY, browser, screen, served, shoot
from tests.test_web_phones import call

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(not READY, reason="needs chromium, chromium-driver, selenium "
                                                   "and the web extra")]

__all__ = ["browser", "served"]  # the fixtures, shared with tests/test_web_browser.py

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Anna-Katharina Beddlmaier", "Bernhard von Oberhollabrunn", "Schorsch",
         "Dorothea Herzerlkönigin"]
AXE = os.environ.get("HERZLA_AXE") or next(
    (str(p) for p in (ROOT / "node_modules" / "axe-core" / "axe.min.js",) if p.is_file()), None)

#: what a page's script measures: the sideways scroll of the page and of any box, and each
#: word broken across lines other than at one of its soft hyphens (or after a hyphen; the
#: hyphen a soft hyphen shows at the end of a line, a few pixels, belongs to no piece)
MEASURE = r"""
const out = {page: document.documentElement.scrollWidth - window.innerWidth,
             inner: window.innerWidth, boxes: [], broken: []};
for (const el of document.querySelectorAll('main *')) {
  const style = getComputedStyle(el);
  if (el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(style.overflowX)
      && el.clientWidth > 0) {
    out.boxes.push(el.tagName + '.' + el.className + '#' + el.id);
  }
}
const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
const range = document.createRange();
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (!parent || parent.closest('code, svg, textarea, .link, .url, .vh, select, option')) continue;
  if (!parent.getClientRects().length) continue;
  const text = node.data;
  const re = /[^\s\u00ad\-\/]+/g;  // a piece of a word between its breaking points
  let m;
  while ((m = re.exec(text)) !== null) {
    if (m[0].length < 2) continue;
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const least = parseFloat(getComputedStyle(parent).fontSize) * 0.6;
    const tops = new Set(Array.from(range.getClientRects()).filter(r => r.width > least)
                             .map(r => Math.round(r.top)));
    if (tops.size > 1) out.broken.push(m[0]);
  }
}
return out;
"""


def _pages(base: str) -> Iterator[tuple[str, str]]:
    """Every kind of page (name, path): the start page, a pad of long names, the desk and a
    ruling drawn, a table in play, its hint and its end, a layout deal's end, a table of
    people."""
    evening = call(base, "POST", "/api/evenings", {"game": "herzla", "players": NAMES})
    for body in ({"hearts": [2, 2, 2, 2]}, {"hearts": [0, 3, 5, 0]},
                 {"contract": "beddl", "declarer": 2, "made": False}, {"hearts": [1, 2, 5, 0]}):
        call(base, "POST", f"/api/evenings/{evening['id']}/deals", body)
    table = call(base, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                "seed": 7, "opponents": "heuristic",
                                                "players": NAMES})
    for _ in range(5):
        table = call(base, "POST", f"/api/tables/{table['id']}/play",
                      {"card": table["legal"][0]})
    over = call(base, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                               "seed": 8, "opponents": "random"})
    while not over["over"]:
        over = call(base, "POST", f"/api/tables/{over['id']}/play", {"card": over["legal"][0]})
    layout = call(base, "POST", "/api/tables", {"game": "herzerln", "contract": "auflegen",
                                                 "seed": 3, "opponents": "heuristic"})
    while not layout["over"]:  # a layout deal's rounds, its settlement: they fit a phone
        layout = call(base, "POST", f"/api/tables/{layout['id']}/play",
                      {"card": layout["legal"][0]})
    people = call(base, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                 "seed": 9, "people": [0, 1],
                                                 "opponents": "heuristic"})
    seat = people["seats"][1]["url"].split("/", 3)[3]
    yield "start", ""
    yield "pad", f"evenings/{evening['id']}"
    yield "desk", "desk?contract=herzla/normal&name-0=Anna&name-1=Berni&name-2=Schorsch"
    yield "table", f"tables/{table['id']}"
    yield "table-hint", f"tables/{table['id']}?hint=1"
    yield "table-over", f"tables/{over['id']}"
    yield "layout-over", f"tables/{layout['id']}"
    yield "people-creator", f"tables/{people['id']}"
    yield "people-seat", seat


def _open(driver: Any, base: str, path: str, lang: str) -> None:
    sep = "&" if "?" in path else "?"
    driver.get(f"{base}{path}{sep}lang={lang}")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_page_fits_a_phone_and_a_laptop_without_a_word_broken(
        served: str, browser: Any, tmp_path: Path, lang: str) -> None:
    problems = []
    for name, path in list(_pages(served)):
        for size in (PHONE, LAPTOP):
            screen(browser, size)
            _open(browser, served, path, lang)
            assert browser.execute_script("return document.documentElement.lang") == lang
            got = browser.execute_script(MEASURE)
            # a phone's browser zooms a page out that is wider than the phone: the window
            # then reports more than 375 px
            if got["inner"] != size[0] or got["page"] > 0 or got["boxes"] or got["broken"]:
                problems.append((name, size[0], got))
            shoot(browser, size, tmp_path / f"{lang}-{name}-{size[0]}.png")
    assert not problems, json.dumps(problems, ensure_ascii=False)


@pytest.mark.skipif(AXE is None, reason="axe-core is fetched by .ci/run (HERZLA_AXE)")
@pytest.mark.parametrize("lang", ["de", "en"])
def test_axe_finds_nothing_on_any_page(served: str, browser: Any, lang: str) -> None:
    assert AXE is not None
    source = Path(AXE).read_text(encoding="utf-8")
    found = []
    for name, path in list(_pages(served)):
        for size in (PHONE, LAPTOP):
            screen(browser, size)
            _open(browser, served, path, lang)
            browser.execute_script(source)
            browser.set_script_timeout(120)
            result = browser.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', "
                "'wcag21a', 'wcag21aa', 'best-practice']}}).then(r => done(r.violations.map("
                "v => [v.id, v.nodes.length, v.nodes.slice(0, 3).map(n => n.target.join(' '))]"
                ")));")
            found += [(name, size[0], v) for v in result]
    assert not found, json.dumps(found, ensure_ascii=False)
