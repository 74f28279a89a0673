"""Random streams shared by both engines: one generator per fixed block of hands.

Everything random about a hand is drawn up front, per hand, from its block's generator: the
shuffle keys (the deal) and one uniform number per move (the random policy's choices).  Any
engine, any chunking of a block and any number of worker processes therefore see the same hands
and make the same random choices.

The deal: the pack's cards in index order, permuted by ``argsort`` of the shuffle keys; seat ``s``
gets positions ``s*h .. s*h+h-1`` of the permutation (``h`` the hand size); the rest lie aside.
A random choice at move ``k``: the ``floor(u[k] * m)``-th of the ``m`` legal moves, in ascending
card index order (for layout moves, ``+`` before ``-`` for one card).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["BLOCK", "block_generator", "draw_block", "deal_masks", "pick"]

#: hands per random block; fixed, so results do not depend on jobs or batch sizes
BLOCK = 1 << 14


def block_generator(seed: int, key: tuple[int, ...]) -> np.random.Generator:
    """The generator of one block: ``key`` is (stream, block index), e.g. (deal number, block)."""
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=key)))


def draw_block(gen: np.random.Generator, n: int, pack_size: int, moves: int
               ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float64]]:
    """(deal permutations (n, pack_size), move uniforms (n, moves)) for ``n`` hands."""
    keys = gen.random((n, pack_size))
    perm = np.argsort(keys, axis=1, kind="stable").astype(np.int8)
    uniforms = gen.random((n, moves))
    return perm, uniforms


def deal_masks(perm_row: npt.NDArray[np.int8], pack_cards: list[int], players: int,
               hand_size: int) -> list[int]:
    """Each seat's bit set for one hand, from its permutation row (reference engine)."""
    hands = []
    for s in range(players):
        m = 0
        for p in perm_row[s * hand_size:(s + 1) * hand_size]:
            m |= 1 << pack_cards[int(p)]
        hands.append(m)
    return hands


def pick(u: float, m: int) -> int:
    """Which of ``m`` legal moves a uniform ``u`` picks."""
    return min(int(u * m), m - 1)
