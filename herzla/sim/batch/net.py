"""The ``net`` policy's batch form: the model of :mod:`herzla.players.netmodel` on many hands
at once.

At each position of a trick it turns what the seats have seen
(:class:`~herzla.sim.batch.form.TrickSeen`, strength layout, absolute seats) into the model's
:class:`~herzla.players.netmodel.Seen` (slots, seats counted from the seat to play) and plays the
card :func:`~herzla.players.netmodel.choose_slots` chooses, which is exactly the card the
reference engine's ``net`` chooses.  Hands of a contract the model was not trained on are played
by the heuristic's form; layout deals are laid as the heuristic lays them; it announces with the
bidding heuristic.
"""

from __future__ import annotations

import functools

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract
from herzla.players.netmodel import Model, Seen, choose_slots, load_model, read_contract
from herzla.sim.batch.bits import Bits, U
from herzla.sim.batch.builtin import HEURISTIC, heuristic_wants
from herzla.sim.batch.form import BatchForm, KindForm, LayMove, TrickMove, TrickSeen, lays_of

__all__ = ["NetBatch", "net_form"]

U64 = npt.NDArray[np.uint64]


def _slots(bits: Bits, x: U) -> U64:
    """Card sets of the strength layout in the model's slots."""
    x = x.astype(np.uint64)
    out = np.zeros(len(x), dtype=np.uint64)
    field = np.uint64(bits.low_field)
    for s in range(4):
        out |= ((x >> np.uint64(s * bits.stride)) & field) << np.uint64(9 * s + bits.offset)
    return out


def _strength(bits: Bits, slot: npt.NDArray[np.int64]) -> U:
    """The strength-layout bit of each slot."""
    pos = (slot // 9) * bits.stride + slot % 9 - bits.offset
    return np.left_shift(np.ones(len(slot), dtype=bits.dtype), pos.astype(bits.dtype))


def _seen(bits: Bits, move: TrickMove, seen: TrickSeen, declarer: npt.NDArray[np.int64],
          players: int) -> Seen:
    P = players
    C = len(seen.hand)
    ar = np.arange(C)
    me = seen.seat.astype(np.int64)
    rel = [(me + r) % P for r in range(P)]
    top = np.zeros(C, dtype=np.uint64) if move.top is None else _slots(bits, move.top)
    return Seen(
        _slots(bits, seen.hand), _slots(bits, move.legal), _slots(bits, seen.played),
        _slots(bits, seen.trick), top, np.full(C, move.position, dtype=np.int64),
        np.full(C, seen.trick_index, dtype=np.int64),
        [_slots(bits, seen.won[a, ar]) for a in rel],
        [seen.tricks[a, ar] for a in rel], [seen.voids[a, ar] for a in rel],
        np.where(seen.winner < 0, -1, (seen.winner - me) % P),
        np.where(declarer < 0, -1, (declarer - me) % P))


@attrs.frozen(slots=True, eq=False)
class NetBatch(KindForm):
    """The net's batch form for one model."""

    model: Model
    uniforms = False
    profiles = True  # for the hands of a contract it was not trained on
    views = True

    def tricks(self, move: TrickMove) -> U:
        seen = move.seen
        assert seen is not None
        bits = move.bits
        C = len(move.legal)
        groups: list[tuple[Contract, npt.NDArray[np.intp] | None]]
        if seen.code is None:
            groups = [(seen.contracts[0], None)]
        else:
            groups = [(c, np.flatnonzero(seen.code == k)) for k, c in enumerate(seen.contracts)]
        out = np.zeros(C, dtype=bits.dtype)
        for contract, idx in groups:
            if idx is not None and not len(idx):
                continue
            sub = move if idx is None else move.subset(idx)
            read = read_contract(contract)
            if not self.model.knows(read):
                card = HEURISTIC.moves(sub)[0]
            else:
                s = sub.seen
                assert s is not None
                n = len(sub.legal)
                if not contract.needs_declarer:
                    decl = np.full(n, -1, dtype=np.int64)
                elif s.declarer is not None:
                    decl = s.declarer.astype(np.int64)
                else:
                    decl = np.full(n, -1 if contract.declarer is None else contract.declarer,
                                   dtype=np.int64)
                slot = choose_slots(self.model, _seen(bits, sub, s, decl, contract.players),
                                    read)
                card = _strength(bits, slot)
            if idx is None:
                return card
            out[idx] = card
        return out

    def rows(self, move: LayMove) -> tuple[U, npt.NDArray[np.bool_]]:
        return lays_of(HEURISTIC.moves(move))

    def wants(self, bits: Bits, base: Contract, hand: U, first: bool,
              tables: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int8]:
        return heuristic_wants(bits, base, hand, first, tables)


@functools.cache
def net_form(weights: str = "") -> BatchForm:
    """The batch form of the model at ``weights`` (empty: the one shipped)."""
    return NetBatch(load_model(weights or None))
