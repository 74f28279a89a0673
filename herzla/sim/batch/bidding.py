"""The bidding in the batch engine: each seat's announcement for a chunk of hands (its batch
form's, default the bidding heuristic) settled by the game's ``resolve_bids``."""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from herzla.cards import Suit
from herzla.contracts import Contract, contract_class, game_of
from herzla.players.announcing import sure_winners
from herzla.sim.batch.bits import Bits, U
from herzla.sim.batch.builtin import heuristic_wants
from herzla.sim.batch.form import BatchForm

__all__ = ["bid_hands", "bidding_contracts", "sure_tables"]


@functools.lru_cache(maxsize=16)
def bidding_contracts(base: Contract) -> tuple[Contract, ...]:
    """With bidding: a contract per code of the game's ``bidding`` (declared by seat 0)."""
    game = game_of(base)
    out = []
    for contract_id in game.bidding:
        cls = contract_class(game.id, contract_id)
        out.append(cls(base.players, base.opts, 0 if cls.needs_declarer else None))
    return tuple(out)


@functools.lru_cache(maxsize=16)
def sure_tables(bits: Bits, contract: Contract) -> list[npt.NDArray[np.int64]]:
    """Per suit, the sure winners (:func:`sure_winners`) of each holding, by its bit field."""
    out = []
    for suit in Suit:
        base = suit * bits.stride
        table = np.zeros(bits.low_field + 1, dtype=np.int64)
        for v in range(bits.low_field + 1):
            table[v] = sure_winners(bits.index_mask_of((v << base) & bits.pack_mask), contract)
        out.append(table)
    return out


def bid_hands(bits: Bits, base: Contract, hands: list[U], forehand: int,
              forms: Sequence[BatchForm] | None = None
              ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """Each seat's announcement (its policy's batch form; default the bidding heuristic,
    :func:`herzla.players.announcing.announce`), settled by the game's ``resolve_bids``:
    contract codes and the declarer seat (-1 for none)."""
    P = len(hands)
    game = game_of(base)
    tables = sure_tables(bits, base)
    wants = []
    for i in range(P):
        seat = (forehand + i) % P
        h = hands[seat]
        if forms is None:
            wants.append(heuristic_wants(bits, base, h, i == 0, tables))
        else:
            wants.append(forms[seat].wants(bits, base, h, i == 0, tables))
    code, turn = game.resolve_bids(wants, base.opts)
    decl = np.where(turn >= 0, (forehand + turn) % P, -1)
    return code, decl
