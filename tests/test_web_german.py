"""Every kind of page of the app in German (``pytest -m web``): the start page, the pad, the
desk (its tally, a ruling, a tapped hand, a hand record), a table against the computer (in
play, with a hint, at its end), a table of people (a seat before and after its name, the
creator's page), the errors and the join page: the visible text (and what a screen reader or
a tooltip says) holds no English word of a list of words a German page never uses, and no
text that is a message of the catalog left in English; ``<html lang="de">``.

The prose the library composes (explanations of amounts, the rules, the settlement, the
evening's lines, the review, errors it names) is marked ``class="lib"`` in the pages and is
the library's to speak: :func:`test_the_librarys_prose_on_a_german_page` holds it to the same
words (expected to fail until the library speaks German everywhere)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.i18n.catalog import parse_po
from herzla.web.app import create_app
from herzla.web.config import WebConfig
from herzla.web.store import Store
from tests.test_web import csrf_of
from tests.web_calls import call, ok

pytestmark = pytest.mark.web

ROOT = Path(__file__).resolve().parents[1]

#: English words a German page never shows (none of them a German word as well)
_WORDS = (
    "the and of with you your deal deals dealt trick tricks player players seat seats hand hands "
    "score scores hearts heart play plays played won led none not this that for from what who "
    "which card cards evening evenings rule rules declarer dealer by or is are be has have each "
    "every their they it its lost made back take next game start enter delete undo hint why how "
    "after before when where there here yet only one two three four")
ENGLISH = frozenset(_WORDS.split())

#: what a page may show that is no word of either language: the players' names, the games'
#: own names, card codes, rule ids
NAMES = ("Anna", "Berni", "Schorsch", "Dorothea", "herzla", "Herzla", "Beddl", "Mord",
         "Schleichermord", "Herzeln", "Herzerln")


class _Text(HTMLParser):
    """The text a person reads on a page (and hears or hovers: ``title``, ``aria-label``,
    ``alt``, ``placeholder``), apart from code (``<code>``, ``<script>``, ``<style>``,
    ``<svg>``) and, unless ``lib``, from the library's prose (``class="lib"``)."""

    SKIP = frozenset({"code", "script", "style", "svg", "textarea"})
    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "use", "source", "wbr"})

    def __init__(self, lib: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.lib = lib
        self.stack: list[tuple[str, bool]] = []
        self.parts: list[str] = []
        self.lib_parts: list[str] = []

    def _hidden(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def _in_lib(self) -> bool:
        return any(tag == "lib" for tag, _skip in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = dict(attrs)
        classes = (at.get("class") or "").split()
        if not self._hidden():
            for name in ("title", "aria-label", "alt", "placeholder"):
                if at.get(name):
                    (self.lib_parts if self._in_lib() else self.parts).append(str(at[name]))
        if tag in self.VOID:
            return
        skip = tag in self.SKIP or (tag == "textarea" and "lib" not in classes)
        self.stack.append(("lib" if "lib" in classes else tag, skip))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID:
            return
        if self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not data.strip() or any(skip for _t, skip in self.stack):
            return
        (self.lib_parts if self._in_lib() else self.parts).append(data.strip())


def visible(html: str) -> tuple[list[str], list[str]]:
    """The texts of a page a person reads: (the app's, the library's prose)."""
    parser = _Text(lib=False)
    parser.feed(html)
    return parser.parts, parser.lib_parts


def _untranslated() -> set[str]:
    """The catalog's messages whose German differs from the English: shown as they are on a
    German page, each is an English text left untranslated."""
    path = ROOT / "herzla" / "locale" / "de" / "LC_MESSAGES" / "herzla.po"
    out = set()
    for e in parse_po(path.read_text(encoding="utf-8")):
        if e.msgid and e.msgstr and e.msgstr[0] and e.msgstr[0] != e.msgid \
                and "%" not in e.msgid and "{" not in e.msgid and len(e.msgid) > 3:
            out.add(e.msgid)
    return out


def english_in(texts: list[str]) -> list[str]:
    """The English words and untranslated messages in ``texts``."""
    left = _untranslated()
    found = []
    for text in texts:
        if text.startswith(("{", "http")):  # a hand record's JSON (its keys never change), a
            continue                          # link (its random key may hold "Of")
        if text in left:
            found.append(text)
            continue
        # rule ids (herzla/two-void, heart-lead-ban) are codes, the same in every language
        text = re.sub(r"\b[a-z]+(?:[/-][a-z0-9]+)+\b", " ", text)
        for word in re.findall(r"[A-Za-z][a-z']+", text):
            if word.lower() in ENGLISH and word not in NAMES:
                found.append(f"{word!r} in {text[:80]!r}")
    return found


@pytest.fixture
def de(tmp_path: Path) -> FlaskClient:
    """A client of an app whose browser asks for German."""
    app = create_app(Store(str(tmp_path / "de.db")))
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de-AT,de;q=0.9,en;q=0.5"
    return client


def _pages(client: FlaskClient) -> Iterator[tuple[str, Any]]:
    """Every kind of page, as the app answers it (name, response)."""
    names = ["Anna", "Berni", "Schorsch", "Dorothea"]
    evening = ok(call(client, "POST", "/api/evenings", {"game": "herzla", "players": names}),
                 201)
    for body in ({"hearts": [2, 2, 2, 2]}, {"hearts": [0, 3, 5, 0]},
                 {"contract": "beddl", "declarer": "Schorsch", "made": False}):
        ok(call(client, "POST", f"/api/evenings/{evening['id']}/deals", body))
    yield "start", client.get("/")
    yield "pad", client.get(f"/evenings/{evening['id']}")
    csrf = csrf_of(client, f"/evenings/{evening['id']}")
    page = client.get(f"/evenings/{evening['id']}").get_data(as_text=True)
    key = re.search(r'name="key" value="([^"]+)"', page)
    assert key is not None
    yield "pad, every heart to one", client.post(
        f"/evenings/{evening['id']}/deals", data={
            "csrf": csrf, "key": key.group(1), "contract": "normal", "shown": "3",
            "hearts-0": "8", "hearts-1": "0", "hearts-2": "0", "hearts-3": "0"})
    yield "desk", client.get("/desk")
    yield "desk, names", client.get("/desk?contract=herzla/beddl&name-0=Anna&name-1=Berni")
    yield "desk, ruling", client.post("/desk", data={
        "csrf": csrf, "mode": "tally", "contract": "herzla/normal", "hearts-0": "0",
        "hearts-1": "3", "hearts-2": "5", "hearts-3": "0", "name-0": "Anna"})
    yield "desk, tap a hand", client.post("/desk", data={
        "csrf": csrf, "mode": "hand-start", "contract": "herzla/normal", "seed": "3",
        "names": "Anna, Berni, Schorsch, Dorothea"})
    record = json.loads((ROOT / "docs" / "examples" / "herzla-two-void.json").read_text())
    yield "desk, record", client.post("/desk", data={
        "csrf": csrf, "mode": "record", "record": json.dumps(record), "review": "",
        "names": "Anna, Berni, Schorsch, Dorothea"})
    yield "desk, record form", client.get("/desk?mode=record")
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "seed": 7,
                                                    "opponents": "heuristic"}), 201)
    yield "table, bidding", client.get(f"/tables/{table['id']}")
    yield "table, bidding hint", client.get(f"/tables/{table['id']}?hint=1")
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                    "seed": 7, "opponents": "heuristic"}), 201)
    for _ in range(3):
        table = ok(call(client, "POST", f"/api/tables/{table['id']}/play",
                        {"card": table["legal"][0]}))
    yield "table", client.get(f"/tables/{table['id']}")
    yield "table, hint", client.get(f"/tables/{table['id']}?hint=1")
    yield "table, expert's hint", client.get(f"/tables/{table['id']}?hint=1&policy=expert")
    while not table["over"]:
        table = ok(call(client, "POST", f"/api/tables/{table['id']}/play",
                        {"card": table["legal"][0]}))
    yield "table, over", client.get(f"/tables/{table['id']}")
    people = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                     "seed": 9, "people": [0, 1],
                                                     "opponents": "heuristic"}), 201)
    keys = [s["key"] for s in people["seats"]]
    yield "people, a seat not named", client.get(f"/tables/{people['id']}?key={keys[1]}")
    yield "people, the creator", client.get(f"/tables/{people['id']}")
    ok(call(client, "POST", f"/api/tables/{people['id']}/name?key={keys[0]}", {"name": "Anna"}))
    yield "people, named", client.get(f"/tables/{people['id']}?key={keys[0]}")
    yield "people, the creator with a name", client.get(f"/tables/{people['id']}")
    yield "error 404", client.get("/evenings/nope")
    yield "error 405", client.put("/desk")


def test_every_kind_of_page_speaks_german(de: FlaskClient) -> None:
    seen = 0
    for name, answer in _pages(de):
        html = answer.get_data(as_text=True)
        assert '<html lang="de">' in html, name
        app_text, _lib = visible(html)
        assert app_text, name
        assert english_in(app_text) == [], name
        seen += 1
    assert seen == 21


def test_the_join_page_speaks_german(tmp_path: Path) -> None:
    app = create_app(Store(str(tmp_path / "t.db")), WebConfig(token="a-long-token-1"))
    answer = app.test_client().get("/", headers={"Accept-Language": "de"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 401 and '<html lang="de">' in html
    assert english_in(visible(html)[0]) == []


def test_the_api_errors_follow_the_language(de: FlaskClient) -> None:
    answer = de.get("/api/evenings/nope/revision?lang=de")
    assert answer.status_code == 404
    assert "error" in answer.get_json()
    english = de.get("/api/nothing?lang=en").get_json()["error"]
    german = de.get("/api/nothing?lang=de").get_json()["error"]
    assert english.startswith("there is no page") and german.startswith("es gibt keine Seite")


def test_the_english_pages_stay_english(tmp_path: Path) -> None:
    app = create_app(Store(str(tmp_path / "en.db")))
    client = app.test_client()
    for lang in ("en-GB,en", "fr", ""):
        html = client.get("/", headers={"Accept-Language": lang}).get_data(as_text=True)
        assert '<html lang="en">' in html and "Evenings" in html and "Abende" not in html


def test_the_switch_is_remembered_and_lang_is_for_one_call(de: FlaskClient) -> None:
    switched = de.get("/desk?language=en&contract=herzla/beddl")
    assert switched.status_code == 303
    assert switched.headers["Location"] == "/desk?contract=herzla%2Fbeddl"
    assert "herzla_lang=en" in switched.headers["Set-Cookie"]
    assert '<html lang="en">' in de.get("/desk").get_data(as_text=True)
    assert '<html lang="de">' in de.get("/desk?lang=de").get_data(as_text=True)
    assert '<html lang="en">' in de.get("/desk").get_data(as_text=True)  # for that call
    page = de.get("/desk").get_data(as_text=True)
    assert 'href="/desk?language=de" lang="de" hreflang="de"' in page


def test_the_librarys_prose_on_a_german_page(de: FlaskClient) -> None:
    found = []
    for name, answer in _pages(de):
        _app, lib = visible(answer.get_data(as_text=True))
        found += [f"{name}: {x}" for x in english_in(lib)]
    assert found == []


def test_the_csv_in_german_opens_in_a_german_spreadsheet(de: FlaskClient) -> None:
    evening = ok(call(de, "POST", "/api/evenings", {"game": "herzla",
                                                    "players": ["Anna", "=Berni", "C", "D"]}),
                 201)
    ok(call(de, "POST", f"/api/evenings/{evening['id']}/deals", {"hearts": [0, 3, 5, 0]}))
    german = de.get(f"/api/evenings/{evening['id']}/deals.csv").get_data(as_text=True)
    assert german.startswith("\ufeffSpiel;Partie;Geber;Spielart;Spieler;Anna;'=Berni;C;D;Stock")
    assert german.splitlines()[1:] == ["1;;D;normal;;40;-30;-50;40;0",
                                       "Summe;;;;;40;-30;-50;40;0"]
    english = de.get(f"/api/evenings/{evening['id']}/deals.csv?lang=en").get_data(as_text=True)
    assert english.startswith("deal,partie,dealer,contract,declarer,Anna,'=Berni,C,D,stock")
