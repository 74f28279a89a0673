"""Away and back at a table of people (``pytest -m web``): a person's page not seen for a
while is away (the others see it, with the countdown of the table's chosen time); once the
countdown is over the computer plays that seat, its cards marked, until the person's page is
seen again, and the person plays on from the table as it stands.  Short times (a table of one
second, a grace of a fifth of one) keep it quick."""

from __future__ import annotations

import html
import re
import time
from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.records import read_record, replay
from herzla.table import position
from herzla.table.model import AWAY
from herzla.web import away, table_docs
from herzla.web.choices import AWAY_MINUTES
from herzla.web.store import Store
from tests.people_check import table_of
from tests.test_web import csrf_of
from tests.web_calls import call, error, ok

pytestmark = pytest.mark.web


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(away, "GRACE", 0.2)
    monkeypatch.setattr(away, "TOUCH_EVERY", 0.0)


def _get(client: FlaskClient, tid: str, key: str | None = None) -> Any:
    return ok(client.get(f"/api/tables/{tid}" + (f"?key={key}" if key else "")))


def _two_people(client: FlaskClient, after: int) -> tuple[str, dict[int, str], Any]:
    """A table of two people (seats 0 and 1) who may be away ``after`` seconds: its id, each
    seat's key, and the answer that made it."""
    made = ok(call(client, "POST", "/api/tables", {
        "game": "herzla", "contract": "normal", "people": [0, 1], "seed": 5,
        "opponents": "heuristic", "away": after}), 201)
    return made["id"], {s["seat"]: s["key"] for s in made["seats"]}, made


def test_the_computer_plays_for_an_away_seat_until_its_person_is_back(
        client: FlaskClient, store: Store) -> None:
    tid, keys, made = _two_people(client, 1)
    assert made["away_after"] == 1
    table = _get(client, tid, keys[1])
    while table["to_move"] != 1:  # both pages seen; play on to seat 1's turn
        seat = table["to_move"]
        legal = _get(client, tid, keys[seat])["legal"]
        table = ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[seat]}",
                        {"card": legal[0]}))
        table = _get(client, tid, keys[1])
    moves = len(table["moves"])
    time.sleep(0.4)  # seat 1's phone sleeps: past the grace, not yet past the second
    poll = ok(client.get(f"/api/tables/{tid}/revision?key={keys[0]}"))
    assert poll["tag"] == f"{poll['revision']}-away-1"
    seen = _get(client, tid, keys[0])
    assert [(p["seat"], p["away"]) for p in seen["people"]] == [(0, False), (1, True)]
    assert seen["people"][1]["plays_in"] in (0, 1) and len(seen["moves"]) == moves
    page = html.unescape(client.get(f"/tables/{tid}?key={keys[0]}").get_data(as_text=True))
    assert 'id="away-1"' in page and ("data-countdown" in page or "until they are back" in page)
    time.sleep(1.2)  # the countdown is over: the next poll has the computer play for seat 1
    poll = ok(client.get(f"/api/tables/{tid}/revision?key={keys[0]}"))
    after = table_of(store, tid)
    assert poll["revision"] > table["revision"] and len(after.deal.moves) > moves
    assert moves in after.deal.stood_in  # seat 1's card, marked
    seen = _get(client, tid, keys[0])
    assert seen["stood_in"] == list(after.deal.stood_in)
    page = html.unescape(client.get(f"/tables/{tid}?key={keys[0]}").get_data(as_text=True))
    assert 'id="stood-in"' in page and "The computer played for Player 2 while away" in page
    # seat 1 is back: seen again, it finds the table as it stands and plays its own turn
    back = _get(client, tid, keys[1])
    assert back["people"][1]["away"] is False and back["moves"] == list(after.deal.moves)
    assert back["hand"] and all(c not in back["moves"] for c in back["hand"])
    while not back["over"] and back["to_move"] != 1:
        seat = back["to_move"]
        legal = _get(client, tid, keys[seat])["legal"]
        ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[seat]}", {"card": legal[0]}))
        back = _get(client, tid, keys[1])
    marked = set(table_of(store, tid).deal.stood_in)
    while not back["over"]:  # both play on to the end; their own cards are not marked
        seat = back["to_move"]
        legal = _get(client, tid, keys[seat])["legal"]
        back = ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[seat]}",
                       {"card": legal[0]}))
    assert set(table_of(store, tid).deal.stood_in) == marked
    # the record names the cards the computer played for Player 2, and replays
    stood = [after.deal.moves[i] for i in sorted(marked)]
    assert back["record"]["tags"] == {"computer": "Player 2: " + " ".join(stood)}
    assert list(replay(read_record(back["record"])).scores or ()) == back["scores"]
    # the evening's pad on the table's page marks the deal, and keeps the record's tag
    for seat in (0, 1):
        ok(call(client, "POST", f"/api/tables/{tid}/next?key={keys[seat]}"))
    page = html.unescape(client.get(f"/tables/{tid}?key={keys[0]}").get_data(as_text=True))
    assert f"the computer played for Player 2: {' '.join(stood)}" in page
    evening = ok(client.get(f"/api/tables/{tid}/evening?key={keys[0]}"))
    assert evening["deals"][0]["entry"]["record"]["tags"]["computer"].startswith("Player 2: ")


def test_away_is_chosen_by_the_creator_and_never_plays_when_zero(client: FlaskClient,
                                                                  store: Store) -> None:
    for bad in (-1, "2", True, 86401):
        assert "away: the seconds a person may be away" in error(call(
            client, "POST", "/api/tables", {"game": "herzla", "people": [0, 1], "away": bad}),
            422)
    tid, keys, _made = _two_people(client, 0)
    table = _get(client, tid, keys[0])
    _get(client, tid, keys[1])
    time.sleep(0.4)
    to_move = table["to_move"]
    other = keys[1 - to_move] if to_move in (0, 1) else keys[0]
    poll = ok(client.get(f"/api/tables/{tid}/revision?key={other}"))
    seen = _get(client, tid, other)
    assert "-away-" in poll["tag"] and all(p["plays_in"] is None for p in seen["people"])
    assert seen["moves"] == table["moves"] and seen["stood_in"] == []


def test_the_creator_chooses_the_away_time_on_the_start_page(client: FlaskClient,
                                                             store: Store) -> None:
    start = html.unescape(client.get("/").get_data(as_text=True))
    chosen = re.search(r'<select name="away" id="away">(.*?)</select>', start, re.S)
    assert chosen is not None  # the choices, two minutes (the model's AWAY) chosen
    assert re.findall(r'<option value="(\d+)"', chosen.group(1)) == [
        str(60 * m) for m in AWAY_MINUTES] + ["0"]
    assert f'<option value="{AWAY}" selected>after 2 minutes</option>' in chosen.group(1)
    german = html.unescape(client.get("/?lang=de").get_data(as_text=True))
    assert "nach 2 Minuten</option>" in german and "nie: auf sie warten" in german
    csrf = csrf_of(client, "/")
    for away_after, said in (("300", "away for 5 minutes, the computer plays for them"),
                             ("0", "it never plays for them"), (None, "for 2 minutes")):
        form = {"play": "herzla/normal", "people": "2", "opponents": "heuristic",
                "seed": "4", "csrf": csrf, **({"away": away_after} if away_after else {})}
        answer = client.post("/tables", data=form)
        assert answer.status_code == 303, answer.get_data(as_text=True)
        tid = answer.headers["Location"].split("/tables/")[1].split("#")[0]
        expected = AWAY if away_after is None else int(away_after)
        assert table_of(store, tid).away == expected
        page = html.unescape(client.get(f"/tables/{tid}").get_data(as_text=True))
        assert said in re.search(r'id="away-after">([^<]*)<', page).group(1)  # type: ignore[union-attr]
        assert ok(client.get(f"/api/tables/{tid}"))["away_after"] == expected
        # a person's page (not the creator's) shows the table, not the choice
        key = table_of(store, tid).people[1].key
        assert 'id="away-after"' not in client.get(f"/tables/{tid}?key={key}").get_data(
            as_text=True)
    page = html.unescape(client.get(f"/tables/{tid}?lang=de").get_data(as_text=True))
    assert "Ist das Handy einer Person 2 Minuten lang weg" in page
    # a table of one person has nobody away: the field is left out; a bad one is one line
    one = client.post("/tables", data={"play": "herzla/normal", "away": "300", "csrf": csrf})
    assert one.status_code == 303
    bad = client.post("/tables", data={"play": "herzla/normal", "people": "2", "away": "soon",
                                       "csrf": csrf})
    assert bad.status_code == 422 and "away" in bad.get_data(as_text=True)


def test_a_poll_answers_304_reading_no_table_and_replays_once_a_revision(
        client: FlaskClient, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # timed loosely (a loaded machine): nobody away until the grace is shortened below, and
    # three seconds of the countdown for the polls of seat 1 away, not yet played for
    monkeypatch.setattr(away, "GRACE", 60.0)
    tid, keys, _made = _two_people(client, 3)
    table = _get(client, tid, keys[1])
    table = _get(client, tid, keys[0])
    if table["to_move"] == 1:  # seat 0 to move: the away seat 1 is not the one waited for
        ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[1]}",
                {"card": _get(client, tid, keys[1])["legal"][0]}))
        table = _get(client, tid, keys[0])
    assert table["to_move"] == 0
    counted = {"get": 0, "read": 0, "position": 0}

    def poll(tag: str | None) -> Any:
        headers = {"If-None-Match": f'"{tag}"'} if tag else {}
        return client.get(f"/api/tables/{tid}/revision?key={keys[0]}", headers=headers)

    tag = ok(poll(None))["tag"]  # the first poll learns the seat of its key (once a process)

    def counting(name: str, real: Any) -> Any:
        def call_it(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return real(*args, **kwargs)
        return call_it

    monkeypatch.setattr(store, "get", counting("get", store.get))
    monkeypatch.setattr(table_docs, "read", counting("read", table_docs.read))
    monkeypatch.setattr("herzla.web.away.position", counting("position", position))
    for _ in range(3):  # nothing changed: 304, no body, no table read, no hand replayed
        answer = poll(tag)
        assert answer.status_code == 304 and answer.get_data() == b""
    assert counted == {"get": 0, "read": 0, "position": 0}
    monkeypatch.setattr(away, "GRACE", 0.2)
    time.sleep(0.4)  # seat 1 away (not yet played for): read once, then the tag alone
    tag = ok(poll(tag))["tag"]
    assert tag.endswith("-away-1")
    first = dict(counted)
    for _ in range(3):
        assert poll(tag).status_code == 304
    assert counted == first and first["position"] == 0
    time.sleep(3.0)  # seat 1's time is over, but seat 0 is to move: one replay a revision
    for _ in range(4):
        assert poll(tag).status_code == 304
    assert counted["position"] == 1 and table_of(store, tid).deal.stood_in == ()
    # seat 0 plays: now seat 1 is waited for, and the next poll has the computer play for it
    ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[0]}",
            {"card": _get(client, tid, keys[0])["legal"][0]}))
    assert ok(poll(tag))["revision"] > table["revision"] + 1
    assert table_of(store, tid).deal.stood_in
