"""Policies that answer what is not a move, or raise (tests/test_plugin_checks.py names them
``broken_policies:NAME`` with this directory on ``sys.path``): every engine that asks a policy
must refuse each with one line naming it and what it answered."""

from __future__ import annotations

from typing import Any

import attrs

from herzla.cards import cards_of
from herzla.hand import Move
from herzla.players import BidView, LayoutView, Policy, TrickView


class Three(Policy):
    """move() answers the number 3."""

    def move(self, view: TrickView | LayoutView) -> Any:
        return 3


class Nothing(Policy):
    """move() answers None."""

    def move(self, view: TrickView | LayoutView) -> Any:
        return None


class Raises(Policy):
    """move() raises a KeyError."""

    def move(self, view: TrickView | LayoutView) -> Move:
        raise KeyError("no move today")


class LaysACard(Policy):
    """move() answers a Card, not a Move, in a layout deal."""

    def move(self, view: TrickView | LayoutView) -> Any:
        moves = view.legal_moves()
        return moves[0].card if isinstance(view, LayoutView) and moves[0].card else moves[0]


class LaysAnywhere(Policy):
    """move() answers a lay of a card that fits nowhere."""

    def move(self, view: TrickView | LayoutView) -> Move:
        moves = view.legal_moves()
        fits = {m.card for m in moves}
        stuck = [c for c in cards_of(view.hand) if c not in fits]
        if isinstance(view, LayoutView) and stuck and not moves[0].is_pass:
            return Move(stuck[0], "+")
        return moves[0]


class Shouts(Policy):
    """announce() answers a word the bidding does not know."""

    def announce(self, view: BidView) -> str:
        return "slam"

    def move(self, view: TrickView | LayoutView) -> Move:
        return view.legal_moves()[0]


@attrs.frozen
class Deep(Policy):
    """A parameter whose default is None, typed by its annotation."""

    depth: int | None = None
    ratio: float = 0.5

    def move(self, view: TrickView | LayoutView) -> Move:
        legal = view.legal_moves()
        return legal[-1] if self.depth else legal[0]


@attrs.frozen
class Untyped(Policy):
    """A parameter whose default is None and whose annotation says nothing: attrs.field with no
    type."""

    depth = attrs.field(default=None)  # type: ignore[var-annotated]

    def move(self, view: TrickView | LayoutView) -> Move:
        return view.legal_moves()[0]
