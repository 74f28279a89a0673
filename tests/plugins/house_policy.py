"""An example third-party policy, written against herzla's public API only (docs/policies.md):
the "house" player ducks under the trick's winning card where it can, else plays its lowest
card, and never announces.  The tests name it ``house_policy:POLICY`` (this directory on
``sys.path``)."""

from __future__ import annotations

import attrs

from herzla import Move
from herzla.cards import cards_of
from herzla.players import BidView, LayoutView, Policy, TrickView


@attrs.frozen
class HousePolicy(Policy):
    """Duck under the winning card if possible, else the lowest card; ``spare`` in brackets
    (``house_policy:POLICY[spare=true]``) plays the highest card when it cannot duck."""

    name = "house_policy:POLICY"
    spare: bool = False

    def announce(self, view: BidView) -> str:
        return "pass"

    def move(self, view: TrickView | LayoutView) -> Move:
        if not isinstance(view, TrickView):  # a layout deal: its first legal move
            return view.legal_moves()[0]
        order = view.contract.rank_order().strength
        legal = sorted(cards_of(view.legal), key=lambda c: (order[c.rank], c.suit))
        if view.trick and view.winner is not None and view.follows():
            top = view.trick[(view.winner - view.leader) % view.players]
            below = [c for c in legal if order[c.rank] < order[top.rank]]
            if below:
                return Move(below[-1])
        return Move(legal[-1] if self.spare else legal[0])


POLICY = HousePolicy()
