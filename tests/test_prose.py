"""Prose from the declarations: a game with a contract more, and every text that names its partie
or its totals follows (the rule book, ``Game.about``, ``herzla --help``, ``simulate --help``, the
simulate report), while a new contract inherits no source tag."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import pytest
from click.testing import CliRunner

from herzla import contracts as registry
from herzla.cards import Card, Rank, Suit
from herzla.contracts import BUILTIN_MODULES, CardValue, Contract, contract_classes, get_game
from herzla.contracts.game import signed
from herzla.contracts.herzeln import Domino, Herzeln, NoQueens
from herzla.rulebook import entries, get_rule

KINGS = sum(Card(s, Rank.KING).bit for s in Suit)


class Kings(NoQueens):
    """A new deal written on an old one: -10 per King."""

    id: ClassVar[str] = "kings"
    title: ClassVar[str] = "No kings"
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(KINGS, -10, "King"),)
    topics: ClassVar[str] = "kings"
    example: ClassVar[str] = ""


class NineDeals(Herzeln):
    """Herzeln with the Kings deal before the domino: a partie of 9."""

    contracts: ClassVar[tuple[type[Contract], ...]] = (
        *(c for c in Herzeln.contracts if c is not Domino), Kings, Domino)
    partie: ClassVar[int] = 9


@pytest.fixture
def nine(builtin_registry: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[NineDeals]:
    game = NineDeals()
    table = dict(registry._load())
    table["herzeln"] = game
    monkeypatch.setattr(registry, "_registry", table)
    yield game


def cli(*args: str) -> str:
    from herzla.cli import main

    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return " ".join(result.stdout.split())


def test_the_partie_rule_follows(nine: NineDeals) -> None:
    text = get_rule("herzeln/partie").text
    order = ", ".join(c.id for c in nine.contract_classes())
    assert f"A partie is 9 deals in this fixed order: {order}." in text
    assert "no-last-trick, kings, domino" in cli("rules", "herzeln", "partie")


@pytest.mark.parametrize("players", [4, 3])
def test_the_invariants_follow(nine: NineDeals, players: int) -> None:
    totals = [c(players).score_total() for c in nine.contract_classes()]
    assert Kings(players).score_total() == -40
    line = ", ".join(signed(t) for t in totals if t is not None)
    expected = f"{players} players: {line} (partie {signed(sum(t or 0 for t in totals))})"
    assert expected in get_rule("herzeln/invariants").text
    assert expected in cli("rules", "herzeln/invariants")


def test_about_and_help_follow(nine: NineDeals) -> None:
    assert nine.summary() == "Austrian Herzeln: a partie of 9 deals ending in the Domino"
    assert "herzeln (9 deals ending in the Domino)" in cli("--help")
    assert "herzeln: 9 deals" in cli("simulate", "--help")
    listing = cli("rules")
    assert "a partie of 9 deals" in listing and "8 deals" not in listing
    for text in (cli("--help"), cli("simulate", "--help")):
        assert "herzeln: 8" not in text and "herzeln (8" not in text


def test_a_new_contract_inherits_no_source_tag(nine: NineDeals) -> None:
    assert Kings.tags == ("Herzeln",)  # inherited as an attribute, but not as its source
    assert Kings.source_tags() == ("plug-in",)
    assert get_rule("herzeln/kings").sources == ("plug-in",)
    text = cli("rules", "herzeln", "kings")
    assert "[plug-in]" in text and "[Herzeln]" not in text.split("(rule herzeln/kings)")[0]
    assert get_rule("herzeln/no-queens").sources == ("Herzeln",)


def test_every_builtin_contract_declares_its_source() -> None:
    for game in ("herzla", "herzla-kids", "herzeln", "herzerln"):
        for cls in contract_classes(game):
            if cls.__module__ in BUILTIN_MODULES:
                assert "tags" in vars(cls), cls
                assert "plug-in" not in cls.source_tags()


def test_the_report_names_no_hearts_for_a_contract_about_kings(nine: NineDeals) -> None:
    kings = cli("simulate", "herzeln", "--contract", "kings", "--hands", "300", "--seed", "1",
                "--jobs", "1", "--no-progress")
    assert "Hearts captured" not in kings
    hearts = cli("simulate", "herzeln", "--contract", "no-hearts", "--hands", "300", "--seed",
                 "1", "--jobs", "1", "--no-progress")
    assert "Hearts captured per hand and seat" in hearts


def test_the_partie_report_has_every_deal(nine: NineDeals) -> None:
    out = cli("simulate", "herzeln", "--partie", "--hands", "50", "--seed", "1", "--jobs", "1",
              "--no-progress")
    assert "herzeln partie of 9 deals" in out
    assert " 8 kings " in out and " 9 domino " in out


def test_no_stale_numbers_in_the_builtin_texts(builtin_registry: None) -> None:
    # every game's texts are written in from its facts; no placeholder is left
    for game in ("herzla", "herzla-kids", "herzeln", "herzerln"):
        g = get_game(game)
        for text in (g.summary(), g.short(), *(r.text for r in entries(game, common=False))):
            assert "{" not in text, text
    assert get_game("herzeln").summary() == (
        "Austrian Herzeln: a partie of 8 deals ending in the Domino")
