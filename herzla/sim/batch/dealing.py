"""Dealing a chunk of hands for the batch engine: each seat's cards (strength layout) and the
move uniforms, from the block's seeded words (:mod:`herzla.support.streams`)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from herzla.sim.batch.bits import Bits, U
from herzla.support.streams import deal_keys, draw_words, move_uniforms

__all__ = ["DEAL_CHUNK", "deal", "deal_chunk"]

#: hands dealt at a time within a chunk (the random words of so many hands fit the L2 cache)
DEAL_CHUNK = 2048


def deal(bits: Bits, words: npt.NDArray[np.uint64], players: int, size: int) -> list[U]:
    """Each seat's cards (strength layout) for a chunk of hands, from the block's words."""
    keys = deal_keys(words, bits.labels())[:, :players * size]  # a contiguous copy sorts faster
    keys &= np.uint64(63)
    np.left_shift(np.uint64(1), keys, out=keys)
    one = np.array(keys.T, dtype=bits.dtype, order="C")  # one row per dealt position
    hands = []
    for s in range(players):
        acc = one[s * size] | one[s * size + 1]
        for i in range(2, size):
            acc |= one[s * size + i]
        hands.append(bits.to_strength(acc))
    return hands


def deal_chunk(gen: np.random.Generator, bits: Bits, n: int, players: int, size: int,
                random: bool, layout: bool
                ) -> tuple[list[U], npt.NDArray[np.float64] | None]:
    """Draw and deal ``n`` hands, :data:`DEAL_CHUNK` at a time (the words stay in the cache).

    Returns each seat's cards and, for the random policy, the move uniforms as fractions (exact
    in float64 when multiplied by a move count): (moves, n), or (n, moves) for layout deals.
    """
    pack = len(bits.pack)
    moves = players * size
    hands = [np.empty(n, dtype=bits.dtype) for _ in range(players)]
    uniforms = None
    if random:
        uniforms = np.empty((n, moves) if layout else (moves, n), dtype=np.float64)
    for d0 in range(0, n, DEAL_CHUNK):
        d1 = min(n, d0 + DEAL_CHUNK)
        words = draw_words(gen, d1 - d0, pack, moves)
        if uniforms is not None:
            u = move_uniforms(words, pack, moves, copy=False)
            if layout:
                np.multiply(u, 2.0 ** -32, out=uniforms[d0:d1])
            else:
                np.multiply(u.T, 2.0 ** -32, out=uniforms[:, d0:d1])
        for s, h in enumerate(deal(bits, words, players, size)):
            hands[s][d0:d1] = h
    return hands, uniforms
