"""Tables against the computer through Flask's test client (``pytest -m web``): whole hands of
every game played, undone and hinted by the JSON API, the finished table's record replaying to
its scores, the next deal, a restart losing nothing, a stale move refused, and the table's page:
its ``data-card`` buttons exactly the legal cards, a hand played by its forms."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.records import replay
from herzla.web.app import create_app
from herzla.web.config import WebConfig
from herzla.web.store import Kind, Store
from tests.web_calls import call, error, ok

pytestmark = pytest.mark.web

MARKUP = ["<script>alert(1)</script>", "Berni & Co", '"><img src=x onerror=alert(1)>', "Done"]

#: a table of every game: trick and layout deals, the bidding, a partie's deals
EVERY = [{"game": "herzla"}, {"game": "herzla", "contract": "mord", "declarer": 2},
         {"game": "herzla-kids", "players": 3}, {"game": "herzeln", "players": 4},
         {"game": "herzeln", "contract": "domino", "players": 3},
         {"game": "herzerln", "players": 3}, {"game": "herzerln", "contract": "auflegen",
                                              "players": 4}]


def play_out(client: FlaskClient, table: dict[str, Any]) -> dict[str, Any]:
    """The person's seat played to the end by the hints; every answer checked."""
    doc = table["id"]
    while not table["over"]:
        assert table["to_move"] == table["seat"]
        if table["phase"] == "bidding":
            assert table["legal"] == [] and table["bidding"]["legal"][0] == "pass"
            table = ok(call(client, "POST", f"/api/tables/{doc}/play", {"bid": "pass"}))
            continue
        advice = ok(client.get(f"/api/tables/{doc}/hint"))
        assert advice["card"] in table["legal"] and advice["policy"] == table["opponents"]
        assert set(advice) == {"policy", "card", "bid", "values", "measure", "reason"}
        before = table["revision"]
        table = ok(call(client, "POST", f"/api/tables/{doc}/play", {"card": advice["card"]}))
        assert table["revision"] == before + 1
    return table


@pytest.mark.parametrize("body", EVERY, ids=[json.dumps(b) for b in EVERY])
def test_a_whole_hand_at_a_table_of_every_game(client: FlaskClient, body: dict[str, Any]
                                               ) -> None:
    table = ok(call(client, "POST", "/api/tables", {**body, "seat": 1, "seed": 3}), 201)
    for key in ("id", "game", "contract", "players", "seat", "to_move", "hand", "legal",
                "over", "record"):
        assert key in table
    assert table["seat"] == 1 and table["to_move"] == 1 and not table["over"]
    page = client.get(f"/tables/{table['id']}")
    assert page.status_code == 200
    assert sorted(re.findall(r'data-card="([^"]+)"', page.get_data(as_text=True))) == sorted(
        m.rstrip("+") for m in table["legal"] if not m.endswith("-"))
    done = play_out(client, table)
    page = client.get(f"/tables/{table['id']}")
    assert page.status_code == 200 and 'id="result"' in page.get_data(as_text=True)
    assert done["phase"] == "over" and done["legal"] == [] and done["to_move"] is None
    again = replay(done["record"])
    assert again.complete and list(again.scores or ()) == done["scores"]
    assert done["review"] is not None and set(done["review"]["seats"]) == {"1"}
    assert "the hand is over" in error(call(client, "POST", f"/api/tables/{done['id']}/play",
                                            {"card": "pass"}), 409)
    assert "hand is over" in error(client.get(f"/api/tables/{done['id']}/hint"), 409)
    # undo: back to before the person's last card, and play on again
    back = ok(call(client, "POST", f"/api/tables/{done['id']}/undo"))
    assert not back["over"] and back["to_move"] == 1 and back["legal"]
    assert len(back["record"]["plays"]) < len(done["record"]["plays"])
    assert play_out(client, back)["over"]


def test_the_next_deal_carries_the_evening(client: FlaskClient) -> None:
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                    "seed": 12, "opponents": "Heuristic"}),
               201)
    assert table["opponents"] == "heuristic"
    assert "not over yet" in error(call(client, "POST", f"/api/tables/{table['id']}/next"), 409)
    done = play_out(client, table)
    assert done["evening"]["deals"] == 1 and done["evening"]["totals"] == done["scores"]
    nxt = ok(call(client, "POST", f"/api/tables/{table['id']}/next"))
    assert nxt["deal"] == 2 and nxt["stock"] == done["stock_after"]
    assert nxt["dealer"] == (done["dealer"] + 1) % 4 and nxt["record"]["plays"] != \
        done["record"]["plays"]
    assert nxt["evening"]["totals"] == done["scores"]
    after = play_out(client, nxt)
    assert after["evening"]["totals"] == [a + b for a, b in zip(done["scores"],
                                                                after["scores"], strict=True)]


def test_a_restart_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "kept.db"
    first = create_app(Store(path)).test_client()
    table = ok(call(first, "POST", "/api/tables", {"game": "herzeln", "seat": 2, "seed": 9}),
               201)
    for _ in range(3):
        table = ok(call(first, "POST", f"/api/tables/{table['id']}/play",
                        {"card": table["legal"][-1]}))
    second = create_app(Store(path)).test_client()
    assert ok(second.get(f"/api/tables/{table['id']}")) == table


def test_a_restarted_table_plays_on_as_before(tmp_path: Path) -> None:
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    moves: list[str] = []
    answers: list[Any] = []
    for path in (one, two):
        client = create_app(Store(path)).test_client()
        table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                        "seed": 21}), 201)
        for i in range(4):
            if path == two:  # the second store's app is made again before every move
                client = create_app(Store(path)).test_client()
            move = table["legal"][0] if path == one else moves[i]
            moves.append(move)
            table = ok(call(client, "POST", f"/api/tables/{table['id']}/play",
                            {"card": move}))
        answers.append(table["record"])
    assert answers[0] == answers[1]


def test_a_stale_move_is_refused(client: FlaskClient, store: Store) -> None:
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                    "seed": 2}), 201)
    doc = table["id"]
    moved = ok(call(client, "POST", f"/api/tables/{doc}/play", {"card": table["legal"][0]},
                    **{"If-Match": f'"{table["revision"]}"'}))
    assert "changed meanwhile" in error(call(client, "POST", f"/api/tables/{doc}/play",
                                             {"card": moved["legal"][0]},
                                             **{"If-Match": f'"{table["revision"]}"'}), 409)
    assert ok(client.get(f"/api/tables/{doc}")) == moved


def test_what_a_table_refuses(client: FlaskClient, store: Store) -> None:
    def refused(body: Any, status: int = 422) -> str:
        return error(call(client, "POST", "/api/tables", body), status)

    assert "unknown game" in refused({"game": "herzl"})
    assert "needs its game" in refused({"seat": 0})
    # schemathesis found these: a null or a number where the game goes was a 500
    for odd in (None, 7, ["herzla"]):
        assert 'needs its game, as a text: "game": "herzla"' in refused({"game": odd})
    assert "unknown field" in refused({"game": "herzla", "colour": 1})
    assert "name a policy" in refused({"game": "herzla", "opponents": "os:system"})
    assert "name a policy" in refused({"game": "herzla", "opponents": "pimc[samples=10000]"})
    assert "(did you mean pimc or ipimc?)" in refused({"game": "herzla", "opponents": "PIMCC"})
    assert "not a seat" in refused({"game": "herzla", "seat": 7})
    assert "4 players" in refused({"game": "herzla", "players": 3})
    assert "seed" in refused({"game": "herzla", "seed": -1})
    assert "at most 16 seats" in refused({"game": "herzla-kids", "players": [
        f"P{i}" for i in range(17)]})
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                    "seat": 0, "seed": 1}), 201)
    doc = table["id"]
    theirs = table["record"]["hands"][1][0]
    assert "you may play" in error(call(client, "POST", f"/api/tables/{doc}/play",
                                        {"card": theirs}), 422)
    assert "not a move" in error(call(client, "POST", f"/api/tables/{doc}/play",
                                      {"card": "nonsense"}), 422)
    assert 'send {"card"' in error(call(client, "POST", f"/api/tables/{doc}/play",
                                        {"card": "HA", "bid": "pass"}), 422)
    assert "bidding is over" in error(call(client, "POST", f"/api/tables/{doc}/play",
                                           {"bid": "pass"}), 409)
    assert "nothing to take back" in error(call(client, "POST", f"/api/tables/{doc}/undo"),
                                           409)
    assert "no table has the id" in error(client.get("/api/tables/nosuchid"), 404)
    assert "name a policy" in error(client.get(f"/api/tables/{doc}/hint?policy=x:y"), 422)
    assert ok(client.get(f"/api/tables/{doc}/hint?policy=random"))["policy"] == "random"


def test_the_most_tables(store: Store) -> None:
    client = create_app(store, WebConfig(max_tables=1)).test_client()
    doc = ok(call(client, "POST", "/api/tables", {"game": "herzla"}), 201)["id"]
    assert "at most 1 tables" in error(call(client, "POST", "/api/tables", {"game": "herzla"}),
                                       409)
    ok(call(client, "DELETE", f"/api/tables/{doc}"))
    ok(call(client, "POST", "/api/tables", {"game": "herzla"}), 201)
    assert store.count(Kind.TABLE) == 1
    listed = ok(client.get("/api/tables"))["tables"]
    assert len(listed) == 1 and listed[0]["game"] == "herzla"


# -- the pages --------------------------------------------------------------------------------

def form_values(text: str) -> dict[str, str]:
    csrf = re.search(r'name="csrf" value="([^"]+)"', text)
    revision = re.search(r'name="revision" value="(\d+)"', text)
    assert csrf is not None
    return {"csrf": csrf.group(1), **({"revision": revision.group(1)} if revision else {})}


def test_a_hand_played_by_the_tables_page(client: FlaskClient, store: Store) -> None:
    start = client.get("/").get_data(as_text=True)
    answer = client.post("/tables", data={**form_values(start), "play": "herzla/normal",
                                          "seat": "2", "opponents": "heuristic", "seed": "4"})
    assert answer.status_code == 303
    where = answer.headers["Location"].split("#")[0]
    doc = where.rsplit("/", 1)[1]
    for _ in range(40):
        text = client.get(where).get_data(as_text=True)
        table = ok(client.get(f"/api/tables/{doc}"))
        cards = re.findall(r'data-card="([^"]+)"', text)
        assert sorted(cards) == sorted(table["legal"])  # exactly the legal cards
        if table["over"]:
            break
        assert text.count("data-card=") == len(table["legal"])
        assert client.post(f"{where}/play", data={**form_values(text),
                                                  "card": cards[0]}).status_code == 303
    assert table["over"] and 'id="result"' in text and "<svg" in text
    assert "Review: what each mistake cost" in text and 'id="next-deal"' in text
    assert replay(table["record"]).scores is not None
    text = client.get(f"{where}").get_data(as_text=True)
    assert client.post(f"{where}/next", data=form_values(text)).status_code == 303
    assert ok(client.get(f"/api/tables/{doc}"))["deal"] == 2


def test_the_hint_and_undo_on_the_page(client: FlaskClient) -> None:
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                    "players": MARKUP, "seed": 5,
                                                    "opponents": "heuristic"}), 201)
    where = f"/tables/{table['id']}"
    text = client.get(f"{where}?hint=1").get_data(as_text=True)
    assert 'id="hint"' in text and "<strong>Hint:</strong> play" in text and "heuristic" not in text
    for name in (MARKUP[0], MARKUP[2]):
        assert name not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "Berni &amp; Co" in text
    assert text.count("<script") == 1 and "http://" not in text
    client.post(f"{where}/play", data={**form_values(text), "card": table["legal"][0]})
    text = client.get(where).get_data(as_text=True)
    client.post(f"{where}/undo", data=form_values(text))
    assert ok(client.get(f"/api/tables/{table['id']}"))["record"] == table["record"]
    # a stale page's card is refused, the table as it is now shown
    stale = client.post(f"{where}/play", data={**form_values(text), "card": table["legal"][0]})
    assert stale.status_code == 409 and "changed meanwhile" in stale.get_data(as_text=True)


def test_the_bidding_and_a_pass_on_the_page(client: FlaskClient) -> None:
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "seat": 0, "seed": 8}),
               201)
    where = f"/tables/{table['id']}"
    text = client.get(where).get_data(as_text=True)
    assert 'data-bid="pass"' in text and 'data-bid="beddl"' in text
    assert "data-card" not in text  # no card may be played during the bidding
    client.post(f"{where}/play", data={**form_values(text), "bid": "pass"})
    assert ok(client.get(f"/api/tables/{table['id']}"))["phase"] in ("play", "over")
    layout = ok(call(client, "POST", "/api/tables", {"game": "herzerln", "contract":
                                                     "auflegen", "players": 3, "seed": 0}),
                201)
    where = f"/tables/{layout['id']}"
    while layout["legal"] != ["pass"]:
        layout = ok(call(client, "POST", f"/api/tables/{layout['id']}/play",
                         {"card": layout["legal"][0]}))
    text = client.get(where).get_data(as_text=True)
    assert re.findall(r'data-card="([^"]+)"', text) == ["pass"]


def test_a_childrens_match_played_to_its_end(client: FlaskClient) -> None:
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla-kids", "players": 3,
                                                    "seed": 1}), 201)
    deals = 0
    while True:
        while not table["over"]:
            table = ok(call(client, "POST", f"/api/tables/{table['id']}/play",
                            {"card": table["legal"][0]}))
        deals += 1
        assert table["evening"]["deals"] == deals
        if table["evening"]["next"] is None:
            break
        table = ok(call(client, "POST", f"/api/tables/{table['id']}/next"))
    assert table["evening"]["finished"] and table["evening"]["winners"]
    page = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert 'id="match-over"' in page and 'id="next-deal"' not in page
    assert "match is over" in error(call(client, "POST", f"/api/tables/{table['id']}/next"),
                                    409)


def test_a_table_of_the_largest_seed_reads_back(client: FlaskClient) -> None:
    """The largest seed a new table takes (2**63 - 1) is one its kept JSON reads back with."""
    table = ok(call(client, "POST", "/api/tables", {"game": "herzeln", "seat": 0,
                                                    "seed": 2**63 - 1}), 201)
    assert ok(client.get(f"/api/tables/{table['id']}")) == table
    assert "seed" in error(call(client, "POST", "/api/tables", {"game": "herzeln",
                                                                "seed": 2**63}), 422)


def test_net_is_an_opponent(client: FlaskClient) -> None:
    start = client.get("/")  # the API takes any policy; the start form offers levels alone
    assert start.status_code == 200 and b'<option value="net"' not in start.data
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                    "seed": 5, "opponents": "net"}), 201)
    assert table["opponents"] == "net"
    done = play_out(client, table)
    again = replay(done["record"])
    assert again.complete and list(again.scores or ()) == done["scores"]


def test_the_computer_plays_expert_unless_asked_and_the_levels_are_named_for_players(
        client: FlaskClient) -> None:
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                    "seed": 12}), 201)
    assert table["opponents"] == "expert"
    page = client.get("/").get_data(as_text=True)
    for policy, label in (("random", "a beginner"), ("heuristic", "a club player"),
                          ("pimc", "a strong player"), ("expert", "an expert")):
        assert re.search(f'<option value="{policy}"[^>]*>{label}</option>', page), label
    assert page.index(">a beginner</option>") < page.index(">an expert</option>")
    for name in ("ipimc", "net", "heuristic)", "(expert)"):
        assert f">{name}" not in page and f"{name}<" not in page
    assert '<option value="expert" selected>' in page
