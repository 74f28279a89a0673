"""What a German table met walking the app in a browser (``pytest -m web``), each guarded here:
the tables on the start page named in German ("Du", not "You"), the pad's chart in German, the
dealer's seat said as one who deals ("gibt", not "Spiele"), a hint refused in German, the
Austrian games' leaf suit called Laub on the page, a layout deal's rounds naming each move's
player, and every page of these without an English word."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from tests.test_web_german import de, english_in, visible
from tests.web_calls import call, ok

pytestmark = pytest.mark.web

__all__ = ["de"]  # the fixture, shared with tests/test_web_german.py


def _page(client: FlaskClient, path: str, status: int = 200) -> str:
    answer = client.get(path)
    assert answer.status_code == status, answer.get_data(as_text=True)[:400]
    html: str = answer.get_data(as_text=True)
    assert '<html lang="de">' in html
    app_text, lib_text = visible(html)
    assert english_in(app_text) == [] and english_in(lib_text) == [], path
    return html


def _played(client: FlaskClient, body: dict[str, Any], moves: int | None = None) -> Any:
    table = ok(call(client, "POST", "/api/tables", body), 201)
    k = 0
    while not table["over"] and (moves is None or k < moves):
        table = ok(call(client, "POST", f"/api/tables/{table['id']}/play",
                        {"card": table["legal"][0]}))
        k += 1
    return table


def test_the_start_page_names_a_tables_players_in_german(de: FlaskClient) -> None:
    _played(de, {"game": "herzla", "contract": "normal", "seed": 7, "opponents": "heuristic"},
            moves=3)
    html = _page(de, "/")
    assert re.search(r"Du, Computer 1, Computer 2, Computer 3", html)
    assert "You," not in html
    english = de.get("/?lang=en").get_data(as_text=True)
    assert "You, Computer 1, Computer 2, Computer 3" in english


def test_a_seven_deal_evenings_pad_and_chart_in_german(de: FlaskClient) -> None:
    names = ["Anna-Katharina Beddlmaier", "Schorsch", "Bernhard von Oberhollabrunn", "Vroni"]
    evening = ok(call(de, "POST", "/api/evenings", {"game": "herzla", "players": names}), 201)
    for body in ({"hearts": [2, 2, 2, 2]}, {"hearts": [0, 3, 5, 0]},
                 {"contract": "beddl", "declarer": "Schorsch", "made": False},
                 {"hearts": [8, 0, 0, 0], "tricks": [2, 2, 2, 2]},
                 {"contract": "mord", "declarer": "Vroni", "made": True},
                 {"hearts": [1, 2, 5, 0]}, {"hearts": [0, 0, 4, 4]}):
        ok(call(de, "POST", f"/api/evenings/{evening['id']}/deals", body))
    html = _page(de, f"/evenings/{evening['id']}")
    assert "herzla-Abend: laufende Stände" in html and "running totals" not in html
    assert ">Spiel</text>" in html and ">deal</text>" not in html
    assert "+500 ct" in html and "−350 ct" in html
    english = de.get(f"/evenings/{evening['id']}?lang=en").get_data(as_text=True)
    assert "herzla evening: running totals" in english and ">deal</text>" in english


def test_the_dealer_is_said_as_the_one_who_deals(de: FlaskClient) -> None:
    table = _played(de, {"game": "herzla", "contract": "normal", "seed": 7,
                         "opponents": "heuristic"}, moves=1)
    html = _page(de, f"/tables/{table['id']}")
    notes = re.findall(r'<span class="note">([^<]*)</span>', html)
    assert any(n.startswith("gibt · ") for n in notes), notes
    assert not any("Spiele ·" in n for n in notes), notes
    english = de.get(f"/tables/{table['id']}?lang=en").get_data(as_text=True)
    assert any(n.startswith("deals · ") for n in re.findall(r'<span class="note">([^<]*)</span>',
                                                            english))


def test_a_hint_refused_in_german(de: FlaskClient) -> None:
    table = _played(de, {"game": "herzla", "contract": "normal", "seed": 8,
                         "opponents": "random"})
    html = _page(de, f"/tables/{table['id']}?hint=1", status=409)
    assert "kein Tipp: das Spiel ist aus" in html
    assert "no hint:" in de.get(f"/tables/{table['id']}?hint=1&lang=en").get_data(as_text=True)


@pytest.mark.parametrize(("game", "contract", "leaf"), [
    ("herzla", "normal", "Gras"), ("herzeln", "no-hearts", "Laub"),
    ("herzerln", "tricks", "Laub")])
def test_the_leaf_suit_is_each_games_own(de: FlaskClient, game: str, contract: str,
                                         leaf: str) -> None:
    table = _played(de, {"game": game, "contract": contract, "seed": 3,
                         "opponents": "heuristic"})
    html = _page(de, f"/tables/{table['id']}")
    other = "Laub" if leaf == "Gras" else "Gras"
    assert f"{leaf}-" in html and f"{other}-" not in html
    assert "Schelln-" in html


def test_a_layout_deals_rounds_name_each_moves_player(de: FlaskClient) -> None:
    table = _played(de, {"game": "herzerln", "contract": "auflegen", "seed": 3,
                         "opponents": "heuristic"})
    html = _page(de, f"/tables/{table['id']}")
    rounds = re.search(r'<table class="rounds">.*?</table>', html, re.S)
    assert rounds is not None
    assert 'data-who="Runde"' in rounds.group(0)
    assert 'data-who="die Reihen nach der Runde"' in rounds.group(0)
    assert 'data-who="Computer 1"' in rounds.group(0)
