"""The built-in policies ``random`` and ``heuristic``: their rules are written once, on a seat's
view, in :mod:`herzla.players.heuristic`; their batch forms (the same rules in bit operations, for
the numpy engine) live with the batch engine, which finds them by the policy's class
(:func:`herzla.sim.batch_forms.batch_form_of`).  Both announce
with the bidding heuristic.  The strong players ``pimc`` and ``ipimc`` are
:mod:`herzla.analysis.pimc` and :mod:`herzla.analysis.ipimc`.
"""

from __future__ import annotations

import attrs

from herzla.cards import Card
from herzla.layout import Lay
from herzla.players.heuristic import heuristic_card, heuristic_lay, random_card, random_lay
from herzla.players.policy import Policy
from herzla.players.views import LayoutView, TrickView

__all__ = ["HeuristicPolicy", "RandomPolicy"]


@attrs.frozen(slots=True)
class RandomPolicy(Policy):
    """The ``floor(u * m)``-th of the ``m`` legal moves in card index order (layout deals: ``+``
    before ``-`` for one card), ``u`` the move's uniform of the seeded stream."""

    name = "random"

    def card(self, view: TrickView) -> Card:
        return random_card(view)

    def lay(self, view: LayoutView) -> Lay | None:
        return random_lay(view)



@attrs.frozen(slots=True)
class HeuristicPolicy(Policy):
    """A simple deterministic player (:mod:`herzla.players.heuristic` describes its rules)."""

    name = "heuristic"

    def card(self, view: TrickView) -> Card:
        return heuristic_card(view)

    def lay(self, view: LayoutView) -> Lay | None:
        return heuristic_lay(view)

