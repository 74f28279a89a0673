"""The hostile round's findings at a table of people (``pytest -m web``): a seat's key stops
reading the seat once its person has left (the seat's new person gets a new link, in this deal
and the later ones), and a seat with two pages open plays one card a turn (a page drawn before
the seat's card was played sends nothing)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.web.store import Store
from tests.people_check import table_of
from tests.web_calls import call, error, ok

pytestmark = pytest.mark.web


def _new(client: FlaskClient, people: list[int], seed: int = 5) -> tuple[str, dict[int, str]]:
    made = ok(call(client, "POST", "/api/tables", {
        "game": "herzla", "contract": "normal", "people": people, "seed": seed,
        "opponents": "heuristic"}), 201)
    return made["id"], {s["seat"]: s["key"] for s in made["seats"]}


def _play_out(client: FlaskClient, tid: str, keys: dict[int, str]) -> Any:
    """Every person plays their first legal card until the hand is over."""
    table = ok(client.get(f"/api/tables/{tid}"))
    while not table["over"]:
        seat = table["to_move"]
        legal = ok(client.get(f"/api/tables/{tid}?key={keys[seat]}"))["legal"]
        table = ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[seat]}",
                        {"card": legal[0]}))
    return table


def test_a_key_stops_reading_its_seat_once_its_person_has_left(client: FlaskClient,
                                                                store: Store) -> None:
    tid, keys = _new(client, [0, 1])
    old = keys[1]
    assert ok(client.get(f"/api/tables/{tid}?key={old}"))["hand"]
    ok(call(client, "POST", f"/api/tables/{tid}/leave", {"seat": 1}))
    gone = "this link no longer opens Player 2's seat"
    for answer in (client.get(f"/api/tables/{tid}?key={old}"),
                   client.get(f"/api/tables/{tid}/hint?key={old}"),
                   client.get(f"/api/tables/{tid}/review?key={old}"),
                   client.get(f"/api/tables/{tid}/evening?key={old}"),
                   client.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {old}"}),
                   call(client, "POST", f"/api/tables/{tid}/play?key={old}", {"card": "HA"})):
        assert gone in error(answer, 403)
    page = client.get(f"/tables/{tid}?key={old}")
    text = html.unescape(page.get_data(as_text=True))
    assert page.status_code == 403 and gone in text and "data-card" not in text
    # the creator's page offers the seat to a person again (no dead link shown)
    creator = client.get(f"/tables/{tid}").get_data(as_text=True)
    assert 'id="seat-again-1"' in creator and old not in creator
    # the deal and the next one: the old key reads nothing of them
    _play_out(client, tid, {0: keys[0]})
    ok(call(client, "POST", f"/api/tables/{tid}/next?key={keys[0]}"))
    assert ok(client.get(f"/api/tables/{tid}?key={keys[0]}"))["deal"] == 2
    assert gone in error(client.get(f"/api/tables/{tid}?key={old}"), 403)
    # a person sits down again: a new key, which plays; the old one still opens nothing
    error(call(client, "POST", f"/api/tables/{tid}/seat?key={keys[0]}", {"seat": 1}), 403)
    assert "plays Player 1's seat already" in error(
        call(client, "POST", f"/api/tables/{tid}/seat", {"seat": 0}), 409)
    again = ok(call(client, "POST", f"/api/tables/{tid}/seat", {"seat": 1}))
    new = next(s["key"] for s in again["seats"] if s["seat"] == 1)
    assert new != old and table_of(store, tid).humans == {0, 1}
    assert ok(client.get(f"/api/tables/{tid}?key={new}"))["seat"] == 1
    assert "not one of this table's" in error(client.get(f"/api/tables/{tid}?key={old}"), 403)
    done = _play_out(client, tid, {0: keys[0], 1: new})
    assert done["over"] and len(done["moves"]) == 32


def _hand_form(client: FlaskClient, tid: str, key: str) -> dict[str, str]:
    text = client.get(f"/tables/{tid}?key={key}").get_data(as_text=True)
    form = text[text.index('id="hand-form"'):]
    form = form[:form.index("</form>")]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))


def test_two_pages_of_one_seat_play_one_card_a_turn(client: FlaskClient, store: Store) -> None:
    # the hostile round's deal: seed 5, people in seats 0 and 1
    tid, keys = _new(client, [0, 1], seed=5)
    table = table_of(store, tid)
    assert 0 in table.humans
    seat0 = ok(client.get(f"/api/tables/{tid}?key={keys[0]}"))
    while seat0["to_move"] != 0:  # play on to seat 0's turn
        seat = seat0["to_move"]
        legal = ok(client.get(f"/api/tables/{tid}?key={keys[seat]}"))["legal"]
        ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[seat]}", {"card": legal[0]}))
        seat0 = ok(client.get(f"/api/tables/{tid}?key={keys[0]}"))
    one, two = _hand_form(client, tid, keys[0]), _hand_form(client, tid, keys[0])
    assert set(one) == {"csrf", "turn"} and one == two
    first, second = seat0["legal"][0], seat0["legal"][-1]
    moves = len(table_of(store, tid).deal.moves)
    sent = client.post(f"/tables/{tid}/play?key={keys[0]}", data={**one, "card": first})
    assert sent.status_code == 303
    after = table_of(store, tid).deal.moves
    stale = client.post(f"/tables/{tid}/play?key={keys[0]}", data={**two, "card": second})
    text = stale.get_data(as_text=True)
    assert stale.status_code == 409 and "your move was made already" in text
    assert table_of(store, tid).deal.moves == after and after[moves] == first
    assert second not in after[moves:]
    # a page drawn now plays on
    fresh = _hand_form(client, tid, keys[0])
    assert fresh["turn"] != one["turn"]
