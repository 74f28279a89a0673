"""The disputes desk's phase 2 (``pytest -m web``): a hand tapped in card by card, a renege
entered as it happened and ruled on, and the rulings of the renege cases for pasted records."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.records import replay
from herzla.web.app import create_app
from herzla.web.desk import rule_record
from herzla.web.store import Store
from tests.conftest import CASES

pytestmark = pytest.mark.web

RENEGES = ["59-herzla-renege-established", "60-herzla-beddl-defender-reneges",
           "61-herzla-beddl-declarer-reneges", "62-herzeln-renege-corrected",
           "63-herzeln-renege-established", "64-herzerln-auflegen-pass-while-able"]


def case(name: str) -> dict[str, Any]:
    obj: dict[str, Any] = json.loads((CASES / f"{name}.json").read_text())
    return obj


@pytest.mark.parametrize("name", RENEGES)
def test_a_renege_is_ruled_on(name: str) -> None:
    c = case(name)
    ruled = c["expect"]["ruling"]
    r = rule_record(json.dumps(c["record"]), with_review=False)
    assert r.illegal is not None and "renege" in r.illegal
    if ruled["established"]:
        assert list(r.scores or ()) == ruled["scores"] and "established" in r.illegal
        if ruled["stock"] is not None:
            assert r.stock == ruled["stock"]
    else:
        assert r.scores is None and "corrected" in r.illegal
        for card in ruled["legal"]:
            assert card in r.explanation  # what the seat could have played instead
    assert "(rule <code>renege</code>)" in r.explanation


@pytest.fixture
def client(tmp_path: Any) -> FlaskClient:
    return create_app(Store(tmp_path / "desk.db")).test_client()


def _state(text: str) -> tuple[str, list[str], str]:
    csrf = re.search(r'name="csrf" value="([^"]+)"', text)
    record = re.search(r'name="record" value="([^"]*)"', text)
    assert csrf is not None and record is not None
    return csrf.group(1), re.findall(r'data-tap="([^"]+)"', text), html.unescape(
        record.group(1))


def test_a_hand_tapped_in_trick_by_trick(client: FlaskClient) -> None:
    page = client.get("/desk?mode=hand")
    assert page.status_code == 200 and 'id="hand-setup"' in page.get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
    assert csrf is not None
    c = case("01-herzla-two-void")["record"]
    answer = client.post("/desk", data={"csrf": csrf.group(1), "mode": "hand-start",
                                        "contract": "herzla/normal",
                                        "hands": "\n".join(" ".join(h) for h in c["hands"])})
    assert answer.status_code == 200
    for card in c["plays"]:
        csrf_value, taps, record = _state(answer.get_data(as_text=True))
        assert card in taps  # every card the seat holds is offered
        answer = client.post("/desk", data={"csrf": csrf_value, "mode": "hand-play",
                                            "record": record, "tap": card})
        assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    _, taps, record = _state(text)
    assert taps == [] and "The hand is over" in text and 'id="ruling"' in text
    assert json.loads(record)["plays"] == c["plays"]
    assert replay(json.loads(record)).scores == tuple(case("01-herzla-two-void")["expect"]
                                                      ["scores"])
    ruled = client.post("/desk", data={"csrf": csrf_value, "mode": "hand-play",
                                       "record": record, "action": "rule"})
    assert "Review: what each mistake cost" in ruled.get_data(as_text=True)
    back = client.post("/desk", data={"csrf": csrf_value, "mode": "hand-play",
                                      "record": record, "action": "back"})
    _, taps, shorter = _state(back.get_data(as_text=True))
    assert json.loads(shorter)["plays"] == c["plays"][:-1] and taps == [c["plays"][-1]]


def test_a_renege_tapped_in_as_it_happened(client: FlaskClient) -> None:
    c = case("59-herzla-renege-established")["record"]
    page = client.get("/desk?mode=hand").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    answer = client.post("/desk", data={"csrf": csrf.group(1), "mode": "hand-start",
                                        "contract": f"{c['game']}/{c['contract']}",
                                        "stock": str(c.get("stock", 0)),
                                        "dealer": str(c.get("dealer", 3) + 1),
                                        "hands": "\n".join(" ".join(h) for h in c["hands"])})
    # seat 2 discards DT on a spade lead (play 6), and the trick is played out past it
    for i, card in enumerate(c["plays"][:8]):
        csrf_value, taps, record = _state(answer.get_data(as_text=True))
        assert card in taps
        if i == 5:
            text = answer.get_data(as_text=True)
            assert re.search(r'value="DT" data-tap="DT"\s+class="pcard s3 german play illegal"',
                             text)
        answer = client.post("/desk", data={"csrf": csrf_value, "mode": "hand-play",
                                            "record": record, "tap": card})
        if i == 5:
            assert "corrected without penalty" in answer.get_data(as_text=True)
    text = answer.get_data(as_text=True)
    assert "a renege, established" in text and "\u221280" in text
    # the renege ended the hand: no card is offered, the drawing says the ruling scores it
    csrf_value, taps, record = _state(text)
    assert taps == [] and "The renege is established" in text
    assert "No scores: the hand is not complete" not in text
    assert "established (option renege=" in text
    more = client.post("/desk", data={"csrf": csrf_value, "mode": "hand-play",
                                      "record": record, "tap": c["plays"][8]})
    assert more.status_code == 422 and "the hand is over" in more.get_data(as_text=True)


def test_what_the_tapping_refuses(client: FlaskClient) -> None:
    page = client.get("/desk?mode=hand").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf is not None
    bad = client.post("/desk", data={"csrf": csrf.group(1), "mode": "hand-start",
                                     "contract": "herzla/normal", "hands": "HA HA"})
    assert bad.status_code == 422 and 'id="error"' in bad.get_data(as_text=True)
    start = client.post("/desk", data={"csrf": csrf.group(1), "mode": "hand-start",
                                       "contract": "herzla/normal", "seed": "4"})
    _, taps, record = _state(start.get_data(as_text=True))
    other = json.loads(record)["hands"][1][0]
    refused = client.post("/desk", data={"csrf": csrf.group(1), "mode": "hand-play",
                                         "record": record, "tap": other})
    assert refused.status_code == 422 and "holds now" in refused.get_data(as_text=True)
    # people count from 1: forehand of a deal dealt by the fourth seat is the first
    assert json.loads(record)["dealer"] == 3 and "seat 1 holds now" in refused.get_data(
        as_text=True)
    forged = client.post("/desk", data={"csrf": csrf.group(1), "mode": "hand-play",
                                        "record": "<b>", "tap": taps[0]})
    assert forged.status_code == 422 and "<b>" not in forged.get_data(as_text=True)


def test_the_desk_calls_the_seats_by_the_names_given(client: FlaskClient) -> None:
    csrf = re.search(r'name="csrf" value="([^"]+)"', client.get("/desk").get_data(as_text=True))
    assert csrf is not None
    sent = {"csrf": csrf.group(1), "mode": "tally", "contract": "herzla/normal",
            "hearts": "0,3,5,0", "names": "Anna, <Berni>, Carla, Done"}
    text = client.post("/desk", data=sent).get_data(as_text=True)
    ruling = text[text.index('id="ruling"'):]
    assert "<th>Anna</th><th>&lt;Berni&gt;</th>" in ruling
    assert "&lt;Berni&gt; 3, Carla 5; Anna and Done void" in ruling
    assert "seat 1" not in ruling and "<Berni>" not in text
    wrong = client.post("/desk", data={**sent, "names": "Anna, Berni"}).get_data(as_text=True)
    assert "2 given for 4 seats" in wrong and "<th>Seat 1</th>" in wrong
    record = json.dumps(case("59-herzla-renege-established")["record"])
    ruled = client.post("/desk", data={"csrf": csrf.group(1), "mode": "record", "record": record,
                                       "names": "Anna, Berni, Carla, Done"}).get_data(
        as_text=True)
    assert "by Carla, is illegal" in ruled and "A renege by Carla, established" in ruled
