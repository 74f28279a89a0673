"""The built-in policies ``random`` and ``heuristic``: their rules are written once, on a seat's
view, in :mod:`herzla.players.heuristic`; their batch forms (the same rules in bit operations, for
the numpy engine) live with the batch engine (:mod:`herzla.sim.batch.builtin`), and each policy's
:meth:`~herzla.players.Policy.batch_form` names its form by a descriptor (:class:`RandomForm`,
:class:`HeuristicForm`).  Both announce with the bidding heuristic.  The strong players ``pimc``
and ``ipimc`` are :mod:`herzla.analysis.pimc` and :mod:`herzla.analysis.ipimc`.
"""

from __future__ import annotations

import attrs

from herzla.hand import Move
from herzla.i18n import N_, _
from herzla.players.heuristic import WHY, heuristic_move, heuristic_moving, random_move
from herzla.players.policy import BuiltinForm, Hint, Policy
from herzla.players.views import LayoutView, TrickView

__all__ = ["HeuristicForm", "HeuristicPolicy", "RandomForm", "RandomPolicy", "explain_heuristic"]


@attrs.frozen(slots=True)
class RandomForm(BuiltinForm):
    """Names the random policy's batch form (:data:`herzla.sim.batch.RANDOM`)."""


@attrs.frozen(slots=True)
class HeuristicForm(BuiltinForm):
    """Names the heuristic's batch form (:data:`herzla.sim.batch.HEURISTIC`)."""


def _decides_as(policy: Policy, builtin: type[Policy]) -> bool:
    """Whether ``policy`` chooses every move as ``builtin`` does: it is one, or a subclass that
    overrides none of its choices (a subclass that does has no batch form of these rules)."""
    cls = type(policy)
    return all(getattr(cls, name) is getattr(builtin, name)
               for name in ("announce", "move"))


@attrs.frozen(slots=True)
class RandomPolicy(Policy):
    """The ``floor(u * m)``-th of the ``m`` legal moves in card index order (layout deals: ``+``
    before ``-`` for one card), ``u`` the move's uniform of the seeded stream."""

    name = "random"
    level = N_("beginner")

    def move(self, view: TrickView | LayoutView) -> Move:
        return random_move(view)

    def batch_form(self) -> RandomForm | None:
        return RandomForm() if _decides_as(self, RandomPolicy) else None


@attrs.frozen(slots=True)
class HeuristicPolicy(Policy):
    """A simple deterministic player (:mod:`herzla.players.heuristic` describes its rules)."""

    name = "heuristic"
    level = N_("club player")

    def move(self, view: TrickView | LayoutView) -> Move:
        return heuristic_move(view)

    def explain(self, view: TrickView | LayoutView) -> Hint:
        """The heuristic's move and the rule that chose it (it weighs no values)."""
        return explain_heuristic(view)

    def batch_form(self) -> HeuristicForm | None:
        return HeuristicForm() if _decides_as(self, HeuristicPolicy) else None


def explain_heuristic(view: TrickView | LayoutView) -> Hint:
    """The heuristic's move on ``view`` and, in words, the rule of its that chose it."""
    move, why = heuristic_moving(view)
    return Hint(move, reason=_(WHY[why]))
