"""Play-outs from a position in progress, many at once, on the batch engine.

A player that values its cards by playing the hand out (``expert``) plays the same position in
many *lanes*: each lane a deal of the cards (a world: every seat's cards as dealt), the cards
played so far (the same in every lane) and then a card of its own (one lane per world and
legal card).  :func:`play_outs` plays every lane to the end in lockstep, each seat by a batch
form (the heuristic's, the net's), and settles each lane with the contract's scorer: the
results are those of the reference engine playing the same deal with the same cards and the
same policy (:func:`herzla.analysis.expert.play_out` for the heuristic; the tests compare them
lane by lane).

>>> from herzla.cards import parse_cards, mask_of
>>> from herzla.contracts import contract_class
>>> from herzla.sim.batch import HEURISTIC
>>> normal = contract_class("herzla", "normal")()
>>> deal = [mask_of(parse_cards(h)) for h in ("CQ CJ CT C7 SQ S9 DQ D9",
...         "CA CK SA SK HK H7 DK D7", "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")]
>>> scores = play_outs(normal, 3, 0, [deal, deal], parse_cards("C7"), parse_cards("CA CK"),
...                    HEURISTIC)
>>> scores.shape, [int(x) for x in scores.sum(axis=1)]
((2, 4), [0, 0])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from herzla.cards import Card
from herzla.contracts import Contract
from herzla.sim.batch.bits import Bits, U, bits_of
from herzla.sim.batch.form import BatchForm
from herzla.sim.batch.trick_deals import _profile_groups, _settle, _trick_setup
from herzla.sim.batch.tricks import ChunkPlay, play_tricks

__all__ = ["play_outs", "played_out"]


def play_outs(contract: Contract, dealer: int, stock: int, deals: Sequence[Sequence[int]],
              played: Sequence[Card], then: Sequence[Card] | None,
              form: BatchForm | Sequence[BatchForm],
              uniforms: npt.NDArray[np.float64] | None = None) -> npt.NDArray[np.int64]:
    """(lanes, players): each seat's score, as the contract settles it, of lane ``i``: the deal
    ``deals[i]`` (every seat's cards as dealt, card-index bit sets), the cards ``played`` (in
    every lane), then ``then[i]`` (None: nothing more), then every seat playing ``form`` to the
    end (``form`` a sequence: each seat's own).  ``uniforms`` (moves, lanes): the move
    uniforms, for a form that reads them.  The cards forced must be legal in their lanes
    (ValueError where a lane's cards are not its seats')."""
    play, bits = played_out(contract, dealer, deals, played, then, form, uniforms)
    scores, _, _ = _settle(contract, bits, play, stock, None, Counter(), {})
    out: npt.NDArray[np.int64] = np.ascontiguousarray(scores.T)
    return out


def played_out(contract: Contract, dealer: int, deals: Sequence[Sequence[int]],
               played: Sequence[Card], then: Sequence[Card] | None,
               form: BatchForm | Sequence[BatchForm],
               uniforms: npt.NDArray[np.float64] | None = None) -> tuple[ChunkPlay, Bits]:
    """The play of :func:`play_outs` before it is settled: each trick's cards and winner, lane
    by lane, and the strength layout they are written in."""
    lanes = len(deals)
    P = contract.players
    if then is not None and len(then) != lanes:
        raise ValueError(f"{lanes} deals but {len(then)} cards to play in them")
    forms = list(form) if isinstance(form, Sequence) else [form] * P
    if len(forms) != P:
        raise ValueError(f"{P} seats but {len(forms)} batch forms")
    if any(f.uniforms for f in forms) and uniforms is None:
        raise ValueError("this batch form reads the move uniforms: give them")
    bits = bits_of(contract.pack(), contract.rank_order())
    dt = bits.dtype
    hands = [bits.masks_of_indices(d[s] for d in deals) for s in range(P)]
    forced: list[U] = [np.full(lanes, bits.mask((c,)), dtype=dt) for c in played]
    if then is not None:
        one = {c: bits.mask((c,)) for c in set(then)}
        forced.append(np.array([one[c] for c in then], dtype=dt))
    held = np.zeros(lanes, dtype=dt)
    for h in hands:
        held |= h
    for f in forced:
        if np.any(f & held != f):
            raise ValueError("a card forced in a play-out is not in its deal")
    decl = None if contract.declarer is None else np.full(lanes, contract.declarer,
                                                          dtype=np.int64)
    setup = _trick_setup((contract,), bits, dealer, None)
    profiles = (_profile_groups(bits, (contract,), P, None, decl)
                if any(f.profiles for f in forms) else None)
    return play_tricks(setup, hands, uniforms, profiles, 0, forms, ((contract,), None, decl),
                       forced), bits
