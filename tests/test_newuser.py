"""What a new user tripped on (issue 14): each case fails without its fix."""

from __future__ import annotations

import pydoc
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from click.testing import CliRunner

import herzla
from herzla.cards import Card, CardError, mask_of, parse_cards
from herzla.cli import main
from herzla.contracts import contract_class, contract_classes, games


# -- the package namespace --------------------------------------------------------------------
def test_dir_lists_the_lazy_names() -> None:
    names = dir(herzla)
    for name in ("simulate", "solve", "advise", "SimResult", "SolveResult", "AdviceResult"):
        assert name in names
    assert "Any" not in names and "TYPE_CHECKING" not in names
    assert not hasattr(herzla, "Any") and not hasattr(herzla, "TYPE_CHECKING")


def test_help_shows_the_lazy_functions() -> None:
    text = pydoc.render_doc(herzla, renderer=pydoc.plaintext)
    for name in ("simulate", "solve", "advise"):
        assert f"{name}(" in text


# -- simulate --jobs: the note and the summary agree -------------------------------------------
@pytest.mark.parametrize("hands", ["1000", "300000"])
def test_jobs_note_agrees_with_summary(hands: str) -> None:
    from herzla.sim.api import default_jobs

    res = CliRunner().invoke(main, ["simulate", "herzla", "--hands", hands, "--seed", "1",
                                    "--jobs", "1000", "--no-progress"])
    assert res.exit_code == 0, res.output
    note = re.search(r"playing on (\d+)", res.stderr)
    summary = re.search(r"(\d+) process(?:es)?\)", res.stdout)
    assert note is not None and summary is not None
    assert note.group(1) == summary.group(1)
    assert 1 <= int(summary.group(1)) <= default_jobs()


# -- herzla score: what is missing ------------------------------------------------------------
def test_score_without_tallies_names_hearts() -> None:
    res = CliRunner().invoke(main, ["score", "herzla", "normal"])
    assert res.exit_code == 2
    assert "hearts each seat captured" in res.stderr and "--hearts" in res.stderr
    ok = CliRunner().invoke(main, ["score", "herzla", "normal", "--hearts", "0,3,5,0"])
    assert ok.exit_code == 0 and "+40c" in ok.stdout


@pytest.mark.parametrize("key", [c.key() for g in games() for c in contract_classes(g)])
def test_score_without_tallies_names_an_option(key: str) -> None:
    game, _, cid = key.partition("/")
    args = ["score", game, cid]
    if contract_class(game, cid).needs_declarer:
        args += ["--declarer", "0"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    line = res.stderr.strip()
    assert f"{game} {cid} needs" in line and ": give --" in line, line


# -- one card reader for every list -----------------------------------------------------------
@pytest.mark.parametrize("text", ["Herz Sau, Herz König", "Herz Sau Herz König",
                                  "Ace of Hearts, King of Hearts", "HA HK", "ha,hk",
                                  "Ace of Hearts Herz König"])
def test_card_lists_take_names(text: str) -> None:
    assert [str(c) for c in parse_cards(text)] == ["HA", "HK"]


def test_card_lists_name_the_bad_text() -> None:
    with pytest.raises(CardError, match='"Herz Xyz"'):
        parse_cards("HA Herz Xyz")
    with pytest.raises(CardError, match='"XX"'):
        parse_cards("HA XX")


def test_captured_takes_card_names() -> None:
    by_name = CliRunner().invoke(main, [
        "score", "herzeln", "no-hearts", "--captured", "Herz Sau, Herz 7",
        "--captured", "Herz 10", "--captured", "Herz König Herz Ober Herz Unter",
        "--captured", "H9 H8"])
    by_code = CliRunner().invoke(main, [
        "score", "herzeln", "no-hearts", "--captured", "HA H7", "--captured", "HT",
        "--captured", "HK HQ HJ", "--captured", "H9 H8"])
    assert by_name.exit_code == 0, by_name.output
    assert by_name.stdout == by_code.stdout


def test_hand_takes_card_names() -> None:
    from herzla.analysis.advise import parse_hand

    table = contract_class("herzla", "normal")()
    names = "Eichel 10, Eichel 7, Gras Unter, Gras 8, Herz 9, Herz 7, Schellen 9, Schellen 7"
    assert parse_hand(names, table) == mask_of(parse_cards("CT C7 SJ S8 H9 H7 D9 D7"))


@given(st.lists(st.sampled_from(Card.ALL), max_size=12),
       st.sampled_from(["german", "french"]), st.sampled_from([" ", ", ", ","]))
def test_named_lists_round_trip(cards: list[Card], faces: str, sep: str) -> None:
    text = sep.join(c.name(faces) for c in cards)
    assert parse_cards(text) == cards
    mixed = sep.join(c.name(faces) if i % 2 else str(c) for i, c in enumerate(cards))
    assert parse_cards(mixed) == cards
