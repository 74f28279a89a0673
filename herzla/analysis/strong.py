"""Sampled deals played out with a strong player at every seat: what ``herzla advise`` rests its
recommendation on.

A player with a batch form (``net``, the default: the learned model, strong at microseconds a
decision) plays every deal at once on the batch engine (:func:`played_batch`); any other
(``expert``, the search player it learned from) plays deal by deal on the reference engine
(:func:`played_one`), each move handed the deal's own uniforms.  Both give, per deal, the seat's
score as the contract settles it and, for a contract made or lost (Beddl, Mord), whether it was
made.

>>> from herzla.cards import parse_cards, mask_of
>>> from herzla.contracts import contract_class
>>> from herzla.players.registry import policy_of
>>> from herzla.sim.batch.named import batch_form_of
>>> normal = contract_class("herzla", "normal")()
>>> deal = [mask_of(parse_cards(h)) for h in ("CQ CJ CT C7 SQ S9 DQ D9",
...         "CA CK SA SK HK H7 DK D7", "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")]
>>> form = batch_form_of(policy_of("net"))
>>> played_batch(normal, 3, 0, [deal], 0, form) == played_one(normal, 3, 0, deal, 0,
...                                                           policy_of("net"), [0] * 32)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from herzla.analysis.search.scoring import BooleanScore, trick_score
from herzla.contracts import TrickContract
from herzla.players.policy import Policy
from herzla.sim.batch.form import BatchForm
from herzla.sim.batch.playouts import play_outs
from herzla.sim.reference import play_hand

__all__ = ["BLOCK", "Played", "made_or_lost", "played_batch", "played_one"]

#: deals played out at once on the batch engine (a bound on its memory, not on the answer)
BLOCK = 4096

#: per deal, the seat's score, and whether the contract was made (None: no made/lost contract)
Played = tuple[list[int], list[bool] | None]


def made_or_lost(contract: TrickContract, stock: int, deal: Sequence[int]) -> BooleanScore | None:
    """The scores of each seat when the contract is made and lost, or None for a contract that
    is not made or lost (the normal game)."""
    sc = trick_score(contract, stock, list(deal))
    return sc if isinstance(sc, BooleanScore) else None


def played_batch(contract: TrickContract, dealer: int, stock: int,
                 deals: Sequence[Sequence[int]], seat: int, form: BatchForm,
                 uniforms: npt.NDArray[np.float64] | None = None) -> Played:
    """Every deal of ``deals`` played to the end with ``form`` at every seat, on the batch engine
    (``uniforms`` (moves, deals) for a form that reads them)."""
    cents: list[int] = []
    for a in range(0, len(deals), BLOCK):
        block = deals[a:a + BLOCK]
        u = None if uniforms is None else uniforms[:, a:a + BLOCK]
        scores = play_outs(contract, dealer, stock, block, [], None, form, u)
        cents.extend(int(x) for x in scores[:, seat])
    if not deals:
        return cents, None
    sc = made_or_lost(contract, stock, deals[0])
    if sc is None:
        return cents, None
    assert sc.made[seat] != sc.lost[seat]  # a made and a lost contract score apart
    return cents, [c == sc.made[seat] for c in cents]


def played_one(contract: TrickContract, dealer: int, stock: int, deal: Sequence[int], seat: int,
               policy: Policy, uniforms: Sequence[int]) -> Played:
    """One deal played to the end with ``policy`` at every seat, on the reference engine."""
    state, _ = play_hand(contract, list(deal), dealer, uniforms, policy, stock)
    score = contract.score(state.outcome(), stock)
    made = None
    if made_or_lost(contract, stock, deal) is not None:
        made = ["contract-made" in score.events]
    return [score.scores[seat]], made
