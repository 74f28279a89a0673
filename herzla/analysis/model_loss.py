"""What a play lost against the other seats as ``expert`` models them: the review's
``loss_model`` (:mod:`herzla.analysis.review`).

The double-dummy ``loss`` prices a play with every other seat playing against the seat that made
it.  In a deal where every seat plays for itself nobody does; ``loss_model`` prices it against
the model ``expert`` plays against instead (:mod:`herzla.analysis.expert`): from the position
before the play, as that seat saw it (its own hand, the cards played, the announcements: not the
other hands), each of its legal moves is valued by ``expert``'s mean score over the likely deals
of the unseen cards, every seat then playing for itself, and ``loss_model`` is the best move's
mean minus the played move's (lowest first where lower is better): 0 for the best move, never
negative, in the game's unit rounded to a tenth.  A seat with one legal move loses nothing.
Beddl and Mord, where the three defenders are one side, have no ``loss_model``: there the
double-dummy ``loss`` is the right price.

Each position's worlds are drawn from a generator seeded by the play's place in the hand, so a
review gives the same answer every time.
"""

from __future__ import annotations

from collections.abc import Sequence

from herzla.analysis.expert import Expert, Valuation, coalition
from herzla.analysis.steps import Step
from herzla.contracts import game_of
from herzla.hand import Hand, as_move
from herzla.players.views import view_of
from herzla.records import Play, Record

__all__ = ["MODEL", "model_losses", "model_loss_of"]

#: the expert the review prices plays with
MODEL = Expert()


def model_loss_of(val: Valuation, play: str, lower_is_better: bool) -> float:
    """``play``'s loss in a valuation: the best mean minus its mean, from the seat's side (a
    play written without its end mark matches the lay of that card)."""
    if not val.means:
        return 0.0
    sign = -1 if lower_is_better else 1
    best = max(sign * v for v in val.means.values())
    move = as_move(play)
    value = val.means.get(str(move))
    if value is None:
        value = next(v for k, v in val.means.items() if as_move(k).card == move.card)
    return round(max(0.0, best - sign * value), 1)


def model_losses(rec: Record, plays: Sequence[Play], steps: Sequence[Step],
                 model: Expert = MODEL) -> dict[int, float]:
    """Each step's ``loss_model`` by its index (every step of ``steps`` of the hand ``rec``
    whose plays, passes written in, are ``plays``); empty in Beddl and Mord."""
    if coalition(rec.contract) or not steps:
        return {}
    lower = game_of(rec.contract).lowest_wins
    wanted = {s.index: s for s in steps}
    state: Hand = rec.start()
    out: dict[int, float] = {}
    for index, play in enumerate(plays[:max(wanted) + 1]):
        step = wanted.get(index)
        if step is not None:
            view = view_of(state, uniform=index, stock=rec.stock)
            val = model.valuation(view)
            out[index] = model_loss_of(val, step.play, lower)
        state._play(play)
    return out
