"""How a deal is played is an enum (DealKind) on every contract of the games, and the JSON
answers give its word."""

from __future__ import annotations

import json

import pytest

from herzla.contracts import (
    DealKind,
    LayoutContract,
    TrickContract,
    contract_classes,
    games,
)
from herzla.rulebook import game_json


@pytest.mark.parametrize("game", games())
def test_every_contract_declares_its_kind(game: str) -> None:
    for cls in contract_classes(game):
        assert isinstance(cls.kind, DealKind)
        assert (cls.kind is DealKind.LAYOUT) == issubclass(cls, LayoutContract)
        assert (cls.kind is DealKind.TRICKS) == issubclass(cls, TrickContract)


@pytest.mark.parametrize("game", games())
def test_game_json_gives_the_kind_as_its_word(game: str) -> None:
    text = json.dumps(game_json(game))
    kinds = {c["id"]: c["kind"] for c in json.loads(text)["contracts"]}
    assert kinds == {cls.id: str(cls.kind) for cls in contract_classes(game)}
    assert set(kinds.values()) <= {"tricks", "layout"}
