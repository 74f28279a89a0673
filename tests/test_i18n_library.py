"""The library's messages to people in German: errors of every part (records, the evening,
limits, policies, the simulator, the advice, the cluster, the engines' "why illegal"), the
pad's text, the settlement, the CSV export, the advice and the hints; English unchanged."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable

import pytest

import herzla
from herzla.evening import Evening, EveningError
from herzla.evening.export import deals_csv
from herzla.evening.text import report
from herzla.kinds.tricks import TrickHand
from herzla.limits import LimitError, check_seed, check_stock
from herzla.players import PolicyError
from herzla.players.registry import policy_of
from herzla.records import RecordError, read_record, replay
from herzla.support.cluster import ClusterError, check_address

#: English words that never stand in a German sentence of herzla's (a message may quote a
#: code, a key or a name a person typed, which this test takes out first)
STOP = {"the", "is", "not", "must", "of", "and", "or", "to", "with", "has", "by", "be",
        "no", "are", "give", "seat", "deal", "cannot", "which", "a"}

HANDS = [["CQ", "CJ", "CT", "C7", "SQ", "S9", "DQ", "D9"],
         ["CA", "CK", "SA", "SK", "HK", "H7", "DK", "D7"],
         ["C8", "ST", "S7", "HA", "HQ", "H9", "DA", "DT"],
         ["C9", "SJ", "S8", "HJ", "HT", "H8", "DJ", "D8"]]
RECORD = {"game": "herzla", "contract": "normal", "players": 4, "dealer": 3, "hands": HANDS,
          "plays": []}


def _words(text: str) -> set[str]:
    """The words of a message as a person reads them: quoted text, codes (``plays[3]``,
    ``herzla/all-hearts``, ``CQ``) and numbers left out."""
    text = re.sub(r'"[^"]*"|\'[^\']*\'|\S*[\[/=_:]\S*', " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", text)}


def german(call: Callable[[], object], kind: type[BaseException]) -> tuple[str, str]:
    """The message ``call`` raises in English and in German."""
    with pytest.raises(kind) as en:
        call()
    with herzla.language("de"), pytest.raises(kind) as de:
        call()
    return str(en.value), str(de.value)


def _bad_policy() -> object:
    return policy_of("heuristik")


def _bad_address() -> object:
    return check_address("http://")


CASES: list[tuple[str, Callable[[], object], type[BaseException], str]] = [
    ("records: a key", lambda: read_record({**RECORD, "colour": 1}), RecordError, "colour"),
    ("records: a seat", lambda: read_record({**RECORD, "dealer": 7}), RecordError, "7"),
    ("records: a card", lambda: read_record({**RECORD, "hands": [HANDS[0], *HANDS[:3]]}),
     RecordError, "CQ"),
    ("evening: names", lambda: Evening.new("herzla", ["Anna", "Anna", "Carla", "Done"]),
     EveningError, "Anna"),
    ("evening: a tally", lambda: Evening.new("herzla", ["A", "B", "C", "D"]).add(
        {"hearts": [1, 2, 3], "made": "yes"}), EveningError, "made"),
    ("evening: no deal", lambda: Evening.new("herzla", ["A", "B", "C", "D"]).drop(3),
     EveningError, "3"),
    ("limits: a seed", lambda: check_seed(-1), LimitError, "-1"),
    ("limits: the stock", lambda: check_stock(-5), LimitError, "-5"),
    ("players: a policy", _bad_policy, PolicyError, "heuristik"),
    ("cluster: an address", _bad_address, ClusterError, "http"),
]


@pytest.mark.parametrize(("what", "call", "kind", "named"), CASES, ids=[c[0] for c in CASES])
def test_errors_speak_german(what: str, call: Callable[[], object],
                             kind: type[BaseException], named: str) -> None:
    en, de = german(call, kind)
    assert de != en, what
    assert "\n" not in de and de.strip() == de
    assert named in de and named in en  # the same thing named
    assert not _words(de) & STOP, (de, _words(de) & STOP)


def test_the_engines_say_why_a_card_is_illegal_in_german() -> None:
    rec = {**RECORD, "plays": ["C7", "HK"]}  # seat 0 leads clubs, seat 1 holds clubs
    en = replay(rec).illegal
    with herzla.language("de"):
        de = replay(rec).illegal
        text = replay(rec).report()
        where = de.where() if de is not None else ""
    assert en is not None and de is not None
    assert en.message == "seat 1 must follow suit to C7 (Clubs) but played HK"
    assert de.message.startswith("Platz 1 muss Farbe bekennen zu C7")
    assert where == "Zug 2 (Stich 1, 2. Karte)" and en.where() == "play 2 (trick 1, 2nd card)"
    assert "Stich 1: Platz 0 spielt aus C7 (läuft noch)" in text and "trick" not in text


def _evening() -> Evening:
    return (Evening.new("herzla", ["Anna", "Berni", "Carla", "Done"])
            .add({"hearts": [2, 2, 2, 2]}).add({"hearts": [0, 4, 4, 0]}))


def test_the_pads_text_in_german() -> None:
    e = _evening()
    english = report(e)
    with herzla.language("de"):
        text = report(e)
    assert english.splitlines()[0] == "herzla evening, 4 players: Anna, Berni, Carla, Done"
    assert "Berni pays Anna 60c." in english
    lines = text.splitlines()
    assert lines[0] == "herzla-Abend, 4 Spieler: Anna, Berni, Carla, Done"
    assert lines[1].split()[:3] == ["#", "Geber", "Spiel"] and lines[1].split()[-1] == "Stock"
    assert "−20 ct" in lines[2] and "keiner herzfrei" in lines[2]
    assert "Als Nächstes: Spiel 3, Geber Berni." in lines
    assert "Berni zahlt Anna 60 ct." in lines
    assert any(line.startswith("  Anna: 1 von 2 Spielen gewonnen") for line in lines)
    for line in lines:
        assert not _words(line) & (STOP - {"a", "in"}), line


def test_the_csv_export_is_what_a_german_spreadsheet_reads() -> None:
    e = _evening()
    english = deals_csv(e)
    assert english == ("deal,partie,dealer,contract,declarer,Anna,Berni,Carla,Done,stock\r\n"
                       "1,,Done,normal,,-20,-20,-20,-20,80\r\n"
                       "2,,Anna,normal,,80,-40,-40,80,0\r\n"
                       "total,,,,,60,-60,-60,60,0\r\n")
    with herzla.language("de"):
        text = deals_csv(e)
    data = text.encode("utf-8")
    assert data.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=";"))
    assert rows[0] == ["Spiel", "Partie", "Geber", "Spielart", "Spieler", "Anna", "Berni",
                       "Carla", "Done", "Stock"]
    assert rows[1] == ["1", "", "Done", "normal", "", "-20", "-20", "-20", "-20", "80"]
    assert rows[-1][0] == "Summe" and rows[-1][5:] == ["60", "-60", "-60", "60", "0"]
    assert all(len(r) == 10 for r in rows)


def test_the_csv_keeps_a_decimal_comma_in_german() -> None:
    from herzla.evening.export import _number

    assert _number(1.5) == "1.5"
    with herzla.language("de"):
        assert _number(1.5) == "1,5" and _number(-40) == "-40"


def test_the_settlement_names_the_stock_in_german() -> None:
    from herzla.evening.names import STOCK
    from herzla.evening.settle import Payment

    with herzla.language("de"):
        assert str(Payment("Anna", STOCK, 20)) == "Anna zahlt 20 ct in den Stock"
        assert str(Payment(STOCK, "Anna", 80)) == "der Stock zahlt Anna 80 ct"
    assert str(Payment("Anna", STOCK, 20)) == "Anna pays the stock 20c"


def test_the_advice_in_german_and_in_a_players_words() -> None:
    from herzla.analysis.advise import advise

    res = advise("CT C7 SJ S8 H9 H7 D9 D7", samples=4, jobs=1, choices=["beddl"])
    english = res.report()
    with herzla.language("de"):
        text = res.report()
    assert "Only beddl was weighed" in english
    lines = text.splitlines()
    assert lines[0] == "herzla, Platz 0 hat CT C7 SJ S8 H9 H7 D9 D7; Geber Platz 3, Stock 0 ct"
    assert lines[3].split()[:2] == ["Wahl", "Spielweise"]
    assert lines[5].startswith("beddl   offene Karten") and "%" in lines[5]
    assert re.search(r"\d+,\d%\.\.\d+,\d%", lines[5])  # decimal commas, the range intact
    assert "Nur beddl wurde abgewogen" in text and "double dummy" not in text
    assert "Mit starken Spielern an jedem Platz" in text
    assert "Das sind seine Grenzen: ein echter Tisch sieht weniger" in text


def test_hints_give_a_reason_in_german() -> None:
    from herzla.players.policy import hint
    from herzla.players.views import as_view

    contract = herzla.contract_class("herzla", "normal")()
    state = contract.new_hand(HANDS, dealer=3)
    assert isinstance(state, TrickHand)
    heuristic = policy_of("heuristic")
    english = hint(heuristic, as_view(state))
    with herzla.language("de"):
        german_hint = hint(heuristic, as_view(state))
    assert english.move == german_hint.move
    assert english.reason is not None and german_hint.reason is not None
    assert english.reason.startswith("it ")
    assert german_hint.reason != english.reason
    assert not _words(german_hint.reason) & STOP


def test_a_levels_name_is_in_the_catalog() -> None:
    from herzla.i18n import _

    assert policy_of("heuristic").level == "club player"
    with herzla.language("de"):
        assert _(policy_of("heuristic").level or "") == "Stammtischspieler"


def test_solve_speaks_of_open_cards_in_german() -> None:
    from herzla.analysis.solve import solve

    plays = ["C7", "CA", "C8", "C9", "SA", "S7", "S8", "S9", "SK", "ST", "SJ", "SQ"]
    res = solve({**RECORD, "plays": plays}, seat=0)
    assert "Double dummy" in res.report()
    with herzla.language("de"):
        text = res.report()
    assert "Mit offenen Karten, alle anderen Plätze gegen Platz 0" in text
    assert "Stich 4: Platz 1 CK" in text and "Platz 1 macht den Stich" in text


def test_the_evening_names_the_seats_a_german_sentence_counts() -> None:
    from herzla.evening.deal import named

    assert named("Platz 0 zahlt; Seat 1 pays", ["Anna", "Berni"]) == "Anna zahlt; Berni pays"


def test_the_simulators_report_in_german() -> None:
    from herzla.sim.api import simulate

    res = simulate("herzla", "normal", hands=40, seed=1, jobs=1)
    english = res.report()
    with herzla.language("de"):
        text = res.report()
    assert english.splitlines()[0] == "herzla normal, 4 players, dealer seat 3, forehand seat 0"
    lines = text.splitlines()
    assert lines[0] == "herzla normal, 4 Spieler, Geber Platz 3, Vorhand Platz 0"
    assert lines[3] == "Ergebnis pro Spiel und Platz, in Cent:"
    assert lines[4].split()[:2] == ["Platz", "Mittel"]
    assert re.search(r"[−+]\d+,\d{3}", lines[5])  # a decimal comma and the minus of text
    assert lines[-1].startswith("40 Spiele in ") and lines[-1].endswith("1 Prozess).")
