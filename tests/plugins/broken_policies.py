"""Policies that answer what is not a move, or raise (tests/test_plugin_checks.py names them
``broken_policies:NAME`` with this directory on ``sys.path``): every engine that asks a policy
must refuse each with one line naming it and what it answered."""

from __future__ import annotations

from typing import Any

import attrs

from herzla.cards import Card, cards_of
from herzla.layout import Lay
from herzla.players import BidView, LayoutView, Policy, TrickView


class Three(Policy):
    """card() answers the number 3."""

    def card(self, view: TrickView) -> Any:
        return 3


class Nothing(Policy):
    """card() answers None."""

    def card(self, view: TrickView) -> Any:
        return None


class Raises(Policy):
    """card() raises a KeyError."""

    def card(self, view: TrickView) -> Card:
        raise KeyError("no card today")


class LaysACard(Policy):
    """lay() answers a Card, not a Lay."""

    def card(self, view: TrickView) -> Card:
        return view.legal_plays[0]

    def lay(self, view: LayoutView) -> Any:
        moves = view.legal_moves()
        return moves[0].card if moves else None


class LaysAnywhere(Policy):
    """lay() answers a Lay of a card that fits nowhere."""

    def card(self, view: TrickView) -> Card:
        return view.legal_plays[0]

    def lay(self, view: LayoutView) -> Lay | None:
        fits = {m.card for m in view.legal_moves()}
        stuck = [c for c in cards_of(view.hand) if c not in fits]
        if stuck and fits:
            return Lay(stuck[0], "+")
        moves = view.legal_moves()
        return moves[0] if moves else None


class Shouts(Policy):
    """announce() answers a word the bidding does not know."""

    def announce(self, view: BidView) -> str:
        return "slam"

    def card(self, view: TrickView) -> Card:
        return view.legal_plays[0]


@attrs.frozen
class Deep(Policy):
    """A parameter whose default is None, typed by its annotation."""

    depth: int | None = None
    ratio: float = 0.5

    def card(self, view: TrickView) -> Card:
        legal = view.legal_plays
        return legal[-1] if self.depth else legal[0]


@attrs.frozen
class Untyped(Policy):
    """A parameter whose default is None and whose annotation says nothing: attrs.field with no
    type."""

    depth = attrs.field(default=None)  # type: ignore[var-annotated]

    def card(self, view: TrickView) -> Card:
        return view.legal_plays[0]
