"""A table of people through Flask's test client (``pytest -m web``): whole deals of every game
played by two or three people, each by the key of their own seat, against the computer; every
answer to every seat (the table, its page, the hint, the refusals, the revision, every header)
searched for another seat's unplayed cards; the hint the same whatever the others hold; plays
out of turn, with another seat's key or a wrong key refused; undo of one's own last card alone;
a seat given to the computer; the next deal once every person asks, into the evening whose
records replay to the totals it shows; the seat keys under the server's token."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import attrs
import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.cards import cards_of
from herzla.records import read_record, replay
from herzla.table import Table, hint, new_table, play, position
from herzla.table.model import TableError
from herzla.web.app import create_app
from herzla.web.config import WebConfig
from herzla.web.store import Store
from tests.people_check import hidden_cards, leaks, table_of
from tests.test_web import csrf_of
from tests.web_calls import call, error, ok

pytestmark = pytest.mark.web

#: a table of people of every game: trick and layout deals, the bidding, Mord's declarer, a
#: partie's deals, three and four seats
EVERY = [({"game": "herzla"}, [0, 2]), ({"game": "herzla", "contract": "mord", "declarer": 1},
                                        [1, 3]),
         ({"game": "herzla-kids", "players": 3}, [0, 1, 2]),
         ({"game": "herzeln", "players": 4}, [0, 1]),
         ({"game": "herzeln", "contract": "domino", "players": 3}, [0, 2]),
         ({"game": "herzerln", "players": 3}, [1, 2]),
         ({"game": "herzerln", "contract": "auflegen", "players": 4}, [0, 3])]


def _new(client: FlaskClient, body: dict[str, Any], people: list[int], seed: int = 5
         ) -> tuple[str, dict[int, str]]:
    made = ok(call(client, "POST", "/api/tables", {**body, "people": people, "seed": seed,
                                                   "opponents": "heuristic"}), 201)
    assert made["seat"] is None and made["hand"] == [] and made["record"] is None
    assert [s["seat"] for s in made["seats"]] == people
    for s in made["seats"]:
        assert s["url"].endswith(f"/tables/{made['id']}?key={s['key']}")
    return made["id"], {s["seat"]: s["key"] for s in made["seats"]}


def _check_all(client: FlaskClient, store: Store, tid: str, keys: dict[int, str]) -> None:
    """Every answer to every seat and to the creator holds nothing it may not."""
    table = table_of(store, tid)
    secrets = [tid, *keys.values()]
    pos = position(table)
    for seat in [None, *keys]:
        q = "" if seat is None else f"?key={keys[seat]}"
        hidden = hidden_cards(table, seat)
        answers = [client.get(f"/api/tables/{tid}{q}"), client.get(f"/tables/{tid}{q}"),
                   client.get(f"/api/tables/{tid}/revision{q}")]
        if seat is not None:
            answers.append(client.get(f"/api/tables/{tid}/hint{q}"))
            answers.append(client.get(f"/tables/{tid}{q}&hint=1"))
            answers.append(client.get(f"/api/tables/{tid}/review{q}"))
            if pos.to_move != seat:  # out of turn: refused, in one line
                refused = call(client, "POST", f"/api/tables/{tid}/play{q}", {"card": "HA"})
                assert refused.status_code == 409, refused.get_data(as_text=True)
                answers.append(refused)
        if seat is not None and pos.to_move == seat and hidden and not pos.bidding_on:
            # another seat's card named: refused, saying nothing of who holds it, or of more
            named = hidden[len(hidden) // 2]
            probe = call(client, "POST", f"/api/tables/{tid}/play{q}", {"card": named.code})
            assert probe.status_code == 422
            assert not leaks(probe, [c for c in hidden if c != named], secrets)
            assert "seat" not in error(probe, 422).replace(f"seat {seat} ", "")
        for answer in answers:
            assert answer.status_code < 500
            assert not leaks(answer, hidden, secrets), (seat, answer.request.path,
                                                        leaks(answer, hidden, secrets))
        got = answers[0].get_json()
        assert got["seat"] == seat
        if seat is not None:
            own = {str(c) for c in cards_of(pos.hand.hands[seat] if pos.round.hand is not None
                                            else pos.round.dealt[seat])}
            assert set(got["hand"]) == own
        if not got["over"]:
            assert got["record"] is None


def _move(client: FlaskClient, tid: str, keys: dict[int, str]) -> dict[str, Any]:
    """The person to move moves (their first legal card or announcement), by their key."""
    creator = ok(client.get(f"/api/tables/{tid}"))
    seat = creator["to_move"]
    q = f"?key={keys[seat]}"
    mine = ok(client.get(f"/api/tables/{tid}{q}"))
    body = {"bid": "pass"} if mine["phase"] == "bidding" else {"card": mine["legal"][0]}
    for other, key in keys.items():  # another seat's key does not play this seat
        if other != seat:
            error(call(client, "POST", f"/api/tables/{tid}/play?key={key}", body), 409)
    return ok(call(client, "POST", f"/api/tables/{tid}/play{q}", body))  # type: ignore[no-any-return]


@pytest.mark.parametrize(("body", "people"), EVERY, ids=[json.dumps(b) for b, _ in EVERY])
def test_each_seat_sees_its_own_cards_alone_through_a_whole_deal(
        client: FlaskClient, store: Store, body: dict[str, Any], people: list[int]) -> None:
    tid, keys = _new(client, body, people)
    steps = 0
    while True:
        _check_all(client, store, tid, keys)
        if ok(client.get(f"/api/tables/{tid}"))["over"]:
            break
        _move(client, tid, keys)
        steps += 1
        assert steps < 500
    done = ok(client.get(f"/api/tables/{tid}?key={keys[people[0]]}"))
    assert done["record"] is not None  # the whole record once the hand is over
    res = replay(read_record(done["record"]))
    assert list(res.scores or ()) == done["scores"]
    review = ok(client.get(f"/api/tables/{tid}/review?key={keys[people[0]]}"))
    assert "error" in review or set(review["seats"]) == {str(people[0])}


def _swapped(table: Table, seat: int, rng: random.Random) -> Table | None:
    """``table`` with two unplayed cards of one suit exchanged between two other seats (what
    ``seat`` cannot tell apart), or None where there are none to exchange."""
    pos = position(table)
    held = pos.hand.hands
    others = [s for s in range(len(held)) if s != seat]
    pairs = [(a, b, x, y) for a in others for b in others if a < b
             for x in cards_of(held[a]) for y in cards_of(held[b]) if x.suit == y.suit]
    rng.shuffle(pairs)
    for a, b, x, y in pairs[:5]:
        hands = [list(h) for h in table.deal.hands]
        hands[a][hands[a].index(str(x))] = str(y)
        hands[b][hands[b].index(str(y))] = str(x)
        other = table.with_deal(attrs.evolve(table.deal, hands=tuple(map(tuple, hands))))
        try:
            position(other)
        except TableError:  # a move before no longer fits: try another exchange
            continue
        return other
    return None


@pytest.mark.parametrize("game", [{"game": "herzla", "contract": "normal"},
                                  {"game": "herzeln", "players": 4}])
def test_a_persons_hint_is_the_same_whatever_the_others_hold(game: dict[str, Any]) -> None:
    rng = random.Random(8)
    table = new_table(**game, people=[0, 1], opponents="heuristic", seed=12)
    compared = 0
    while not position(table).over:
        pos = position(table)
        seat = pos.to_move
        assert seat in (0, 1)
        other = _swapped(table, seat, rng)
        for policy in ("pimc", "expert"):
            mine = hint(table, policy, seat)
            if other is not None:
                assert hint(other, policy, seat) == mine
                compared += 1
        table = play(table, pos.legal(seat)[-1], seat)
    assert compared >= 6


def test_what_only_the_seat_its_key_and_its_turn_may_do(client: FlaskClient,
                                                        store: Store) -> None:
    tid, keys = _new(client, {"game": "herzla", "contract": "normal"}, [0, 1, 2])
    first = ok(client.get(f"/api/tables/{tid}"))
    assert first["to_move"] == 0 and first["phase"] == "play"
    # a key that is no seat's, and another table's key, see nothing
    assert "not one of this table's" in error(client.get(f"/api/tables/{tid}?key=nope"), 403)
    _, other_keys = _new(client, {"game": "herzla", "contract": "normal"}, [0, 1])
    error(client.get(f"/api/tables/{tid}?key={other_keys[0]}"), 403)
    # the creator plays no seat, and a seat's key neither lists the tables nor removes one
    assert "own seat" in error(call(client, "POST", f"/api/tables/{tid}/play",
                                    {"card": first["hand"][0] if first["hand"] else "HA"}),
                               409)
    error(client.get(f"/api/tables?key={keys[0]}"), 403)
    error(call(client, "DELETE", f"/api/tables/{tid}?key={keys[0]}"), 403)
    # seat 0 plays; seat 1 may not take seat 0's card back, seat 0 may while the trick is open
    mine = ok(client.get(f"/api/tables/{tid}?key={keys[0]}"))
    card = mine["legal"][0]
    after = ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[0]}", {"card": card}))
    assert after["moves"] == [card] and after["to_move"] == 1
    assert "may be taken back, by the one" in error(
        call(client, "POST", f"/api/tables/{tid}/undo?key={keys[1]}"), 409)
    page = client.get(f"/tables/{tid}?key={keys[0]}").get_data(as_text=True)
    assert 'id="undo"' in page
    assert 'id="undo"' not in client.get(f"/tables/{tid}?key={keys[1]}").get_data(as_text=True)
    back = ok(call(client, "POST", f"/api/tables/{tid}/undo?key={keys[0]}"))
    assert back["moves"] == [] and card in back["hand"] and back["to_move"] == 0
    # the same card played twice at once: the second finds it is not that seat's turn now
    ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[0]}", {"card": card}))
    assert "turn, not yours" in error(
        call(client, "POST", f"/api/tables/{tid}/play?key={keys[0]}", {"card": card}), 409)
    # seat 1 and 2 play; seat 3 (the computer) closes the trick: seat 2's card stays
    for seat in (1, 2):
        legal = ok(client.get(f"/api/tables/{tid}?key={keys[seat]}"))["legal"]
        ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[seat]}", {"card": legal[0]}))
    now = ok(client.get(f"/api/tables/{tid}?key={keys[2]}"))
    assert len(now["moves"]) >= 4
    error(call(client, "POST", f"/api/tables/{tid}/undo?key={keys[2]}"), 409)
    # the Bearer form of the key, as the API takes it
    seen = ok(client.get(f"/api/tables/{tid}", headers={"Authorization": f"Bearer {keys[1]}"}))
    assert seen["seat"] == 1
    assert table_of(store, tid).deal.moves == tuple(now["moves"])


def test_a_seat_given_to_the_computer_and_the_next_deal_when_all_ask(
        client: FlaskClient, store: Store) -> None:
    tid, keys = _new(client, {"game": "herzla", "contract": "normal"}, [0, 1, 2])
    # only the creator gives a seat to the computer; then the computer plays it at once
    error(call(client, "POST", f"/api/tables/{tid}/leave?key={keys[1]}", {"seat": 2}), 403)
    ok(call(client, "POST", f"/api/tables/{tid}/leave", {"seat": 2}))
    assert "already" in error(call(client, "POST", f"/api/tables/{tid}/leave", {"seat": 2}), 409)
    assert "one of the people's seats" in error(
        call(client, "POST", f"/api/tables/{tid}/leave", {"seat": 3}), 422)
    table = ok(client.get(f"/api/tables/{tid}"))
    assert [p["left"] for p in table["people"]] == [False, False, True]
    assert "no longer opens Player 3's seat" in error(call(
        client, "POST", f"/api/tables/{tid}/play?key={keys[2]}", {"card": "HA"}), 403)
    while not table["over"]:
        table = _move(client, tid, {s: keys[s] for s in (0, 1)})
    assert table_of(store, tid).humans == {0, 1}
    # the next deal waits for every person
    waiting = ok(call(client, "POST", f"/api/tables/{tid}/next?key={keys[0]}"))
    assert waiting["deal"] == 1 and waiting["over"]
    assert [p["asked"] for p in waiting["people"]] == [True, False, False]
    page = client.get(f"/tables/{tid}?key={keys[0]}").get_data(as_text=True)
    assert 'id="next-wait"' in page and "Seat 2 asks" in page
    nxt = ok(call(client, "POST", f"/api/tables/{tid}/next?key={keys[1]}"))
    assert nxt["deal"] == 2 and not nxt["over"] and nxt["evening"]["deals"] == 1
    # the evening's deal replays to the scores and totals it shows
    pad = ok(client.get(f"/api/tables/{tid}/evening?key={keys[1]}"))
    assert len(pad["deals"]) == 1 and pad["totals"] == nxt["evening"]["totals"]
    rec = read_record(pad["deals"][0]["entry"]["record"])
    assert list(replay(rec).scores or ()) == pad["deals"][0]["scores"] == pad["totals"]
    page = client.get(f"/tables/{tid}?key={keys[1]}").get_data(as_text=True)
    assert 'id="evening-deals"' in page and 'data-deal="1"' in page


def test_a_seats_key_stands_in_for_the_token_on_its_own_table_alone(store: Store) -> None:
    app = create_app(store, WebConfig(token="s3cret-token-for-the-test"))
    with app.test_client() as client:
        auth = {"Authorization": "Bearer s3cret-token-for-the-test"}
        made = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                      "people": [0, 1], "seed": 2,
                                                      "opponents": "heuristic"}, **auth), 201)
        tid, key = made["id"], made["seats"][1]["key"]
        assert client.get(f"/api/tables/{tid}").status_code == 401
        assert ok(client.get(f"/api/tables/{tid}?key={key}"))["seat"] == 1
        page = client.get(f"/tables/{tid}?key={key}")
        assert page.status_code == 200 and 'href="/desk' not in page.get_data(as_text=True)
        assert client.get(f"/api/tables/{tid}/revision?key={key}").status_code == 200
        assert client.get(f"/api/evenings?key={key}").status_code == 401
        assert client.get(f"/?key={key}").status_code == 401
        other = ok(call(client, "POST", "/api/tables", {"game": "herzla", "people": [0]},
                        **auth), 201)
        assert client.get(f"/api/tables/{other['id']}?key={key}").status_code == 401


def test_the_creators_page_shares_the_links_and_a_persons_page_plays(
        client: FlaskClient, store: Store) -> None:
    csrf = csrf_of(client, "/")
    answer = client.post("/tables", data={"play": "herzla/normal", "people": "2",
                                          "opponents": "heuristic", "seed": "4", "csrf": csrf})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("#seats")
    tid = answer.headers["Location"].split("/tables/")[1].split("#")[0]
    page = client.get(f"/tables/{tid}").get_data(as_text=True)
    table = table_of(store, tid)
    assert page.count('class="qr"') == 2 and 'data-card="' not in page
    key = table.people[0].key
    mine = client.get(f"/tables/{tid}?key={key}").get_data(as_text=True)
    assert key in mine and 'id="seats"' not in mine and table.people[1].key not in mine
    legal = position(table).legal(0)
    assert sorted(set(re.findall(r'data-card="([^"]+)"', mine))) == sorted(
        {m.rstrip("+-") for m in legal})
    played = client.post(f"/tables/{tid}/play?key={key}", data={"card": legal[0], "csrf": csrf})
    assert played.status_code == 303 and f"key={key}" in played.headers["Location"]
    assert table_of(store, tid).deal.moves[0] == legal[0]


def test_each_person_gives_their_name_once_and_every_page_calls_them_by_it(
        client: FlaskClient, store: Store) -> None:
    tid, keys = _new(client, {"game": "herzla", "contract": "normal"}, [0, 1])
    mine = client.get(f"/tables/{tid}?key={keys[1]}").get_data(as_text=True)
    assert 'id="your-name"' in mine and "Seat 2" in mine and "Player" not in mine
    # the creator has no seat of their own: each person names themselves
    error(call(client, "POST", f"/api/tables/{tid}/name", {"name": "Anna"}), 403)
    assert "empty" in error(call(client, "POST", f"/api/tables/{tid}/name?key={keys[0]}",
                                 {"name": "  "}), 422)
    error(call(client, "POST", f"/api/tables/{tid}/name?key={keys[0]}", {"nam": "A"}), 422)
    named = ok(call(client, "POST", f"/api/tables/{tid}/name?key={keys[0]}",
                    {"name": " Anna  Maria "}))
    assert named["players"][0] == "Anna Maria"
    assert "plays at this table already" in error(call(
        client, "POST", f"/api/tables/{tid}/name?key={keys[1]}", {"name": "anna maria"}), 422)
    csrf = csrf_of(client, "/")
    sent = client.post(f"/tables/{tid}/name?key={keys[1]}", data={"name": "<Schorsch>",
                                                                   "csrf": csrf})
    assert sent.status_code == 303 and f"key={keys[1]}" in sent.headers["Location"]
    table = table_of(store, tid)
    assert table.players[:2] == ("Anna Maria", "<Schorsch>")
    assert all(p.named for p in table.people)
    assert table.evening is not None and table.evening.players[:2] == table.players[:2]
    for q in ("", f"?key={keys[0]}", f"?key={keys[1]}"):
        page = client.get(f"/tables/{tid}{q}").get_data(as_text=True)
        assert 'id="your-name"' not in page and "&lt;Schorsch&gt;" in page
        assert "<Schorsch>" not in page
        for word in ("Seat 1", "Seat 2", "seat 0", "seat 1", "Player 1", "Player 2"):
            assert word not in page, (q, word)
    creator = client.get(f"/tables/{tid}").get_data(as_text=True)
    # the computer takes over only a seat whose person joined, asked in plain words
    assert creator.count("Let the computer play for") == 2
    while not ok(client.get(f"/api/tables/{tid}"))["over"]:
        _move(client, tid, keys)
    over = client.get(f"/tables/{tid}?key={keys[0]}").get_data(as_text=True)
    assert "Anna Maria" in over and "seat 0" not in over and "Seat 1" not in over


def test_the_creator_is_offered_the_computer_only_for_a_seat_whose_person_joined(
        client: FlaskClient) -> None:
    tid, keys = _new(client, {"game": "herzla", "contract": "normal"}, [0, 1])
    creator = client.get(f"/tables/{tid}").get_data(as_text=True)
    assert "Let the computer play" not in creator and "has left" not in creator
    ok(call(client, "POST", f"/api/tables/{tid}/name?key={keys[1]}", {"name": "Berni"}))
    creator = client.get(f"/tables/{tid}").get_data(as_text=True)
    assert creator.count("Let the computer play for Berni") == 1
