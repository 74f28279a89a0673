"""Random streams shared by both engines: one generator per fixed block of hands.

Everything random about a hand is drawn up front, per hand, from its block's generator (SFC64):
one row of 64-bit words per hand, ``pack_size`` shuffle keys followed by the move uniforms.  The
rows are drawn in order (in one go or in pieces, which gives the same words), so hand ``i`` of a
block is the same whatever ``n`` (a block of ``n`` hands is a prefix of a longer one), and any
engine, any chunking of a block and any number of worker processes see the same hands and make
the same random choices.

The deal: each card of the pack gets the key ``(word & ~63) | card_index`` (58 random bits, ties
broken by the card index, so the keys are distinct); sorting the keys orders the cards, and seat
``s`` gets positions ``s*h .. s*h+h-1`` (``h`` the hand size); the rest lie aside.

A random choice at move ``k``: the move words after the keys are read as 32-bit uniforms ``r``
(the halves in memory order, ``u = r / 2**32``); with ``m`` legal moves the choice is the
``floor(u * m) = (r * m) >> 32``-th of them, in ascending card index order (for layout moves, ``+``
before ``-`` for one card).  Move ``k`` of a trick deal is the ``k``-th card played; in a layout
deal it is the ``k``-th card laid (passes draw nothing).

>>> gen = block_generator(7, (0, 0))
>>> cards, uniforms = draw_block(gen, 3, list(range(1, 9)), 8)
>>> cards.shape, uniforms.shape, sorted(cards[0].tolist()) == list(range(1, 9))
((3, 8), (3, 8), True)
>>> pick(0, 5), pick(2**32 - 1, 5)
(0, 4)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.random  # now, not lazily in the middle of a run (where a signal could be lost)
import numpy.typing as npt

from herzla.i18n import _

if TYPE_CHECKING:
    from herzla.cards import Pack

__all__ = [
    "BLOCK",
    "block_generator",
    "deal_keys",
    "deal_masks",
    "draw_block",
    "draw_words",
    "move_uniforms",
    "pick",
    "seeded_deal",
]

#: hands per random block; fixed, so results do not depend on jobs or batch sizes
BLOCK = 1 << 14

_HIGH = np.uint64(~63 & 0xFFFF_FFFF_FFFF_FFFF)


def block_generator(seed: int, key: tuple[int, ...]) -> np.random.Generator:
    """The generator of one block: ``key`` is (stream, block index), e.g. (deal number, block)."""
    return np.random.Generator(np.random.SFC64(np.random.SeedSequence(seed, spawn_key=key)))


def words_per_hand(pack_size: int, moves: int) -> int:
    return pack_size + (moves + 1) // 2


def draw_words(gen: np.random.Generator, n: int, pack_size: int, moves: int
               ) -> npt.NDArray[np.uint64]:
    """The raw words of ``n`` hands: (n, pack_size + ceil(moves / 2)) uint64."""
    width = words_per_hand(pack_size, moves)
    return gen.integers(0, 0xFFFF_FFFF_FFFF_FFFF, size=(n, width), dtype=np.uint64,
                        endpoint=True)


def deal_keys(words: npt.NDArray[np.uint64], labels: npt.NDArray[np.uint64],
              in_place: bool = False) -> npt.NDArray[np.uint64]:
    """The sorted deal keys of each hand; their low 6 bits are the cards' labels in deal order.

    ``labels`` (one per card of the pack, in card index order, each below 64) must increase with
    the card index: the card indices themselves, or any relabelling that keeps their order (the
    batch engine uses its bit positions), give the same deal.  ``in_place`` overwrites the key
    words of ``words`` (the move uniforms after them are left alone) and returns a view.
    """
    size = len(labels)
    if in_place:
        keys = words[:, :size]
        keys &= _HIGH
    else:
        keys = words[:, :size] & _HIGH
    keys |= labels
    keys.sort(axis=1)
    return keys


def move_uniforms(words: npt.NDArray[np.uint64], pack_size: int, moves: int,
                  copy: bool = True) -> npt.NDArray[np.uint32]:
    """The 32-bit move uniforms of each hand: (n, moves) uint32 (a view of ``words`` when not
    ``copy``)."""
    tail = words[:, pack_size:]
    if copy:
        tail = np.ascontiguousarray(tail)
    return tail.view(np.uint32)[:, :moves]


def draw_block(gen: np.random.Generator, n: int, pack_cards: Sequence[int], moves: int
               ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.uint32]]:
    """(card indices in deal order (n, pack_size), move uniforms (n, moves)) for ``n`` hands."""
    size = len(pack_cards)
    words = draw_words(gen, n, size, moves)
    keys = deal_keys(words, np.asarray(pack_cards, dtype=np.uint64))
    cards = (keys & np.uint64(63)).astype(np.int8)
    return cards, move_uniforms(words, size, moves)


def deal_masks(cards_row: Sequence[int] | npt.NDArray[np.int8], players: int,
               hand_size: int) -> list[int]:
    """Each seat's bit set for one hand, from its row of card indices in deal order."""
    hands = []
    for s in range(players):
        m = 0
        for c in cards_row[s * hand_size:(s + 1) * hand_size]:
            m |= 1 << int(c)
        hands.append(m)
    return hands


def pick(r: int, m: int) -> int:
    """Which of ``m`` legal moves a 32-bit uniform ``r`` picks: ``floor(r / 2**32 * m)``."""
    return (int(r) * m) >> 32


def seeded_deal(pack: Pack, players: int, hand_size: int, seed: int,
                key: tuple[int, ...] = (0, 0)) -> list[int]:
    """Each seat's cards (bit sets) of the first hand of stream ``key`` of ``seed``: the deal of
    ``herzla deal``, and the first hand ``herzla simulate`` plays with the same seed."""
    if seed < 0:
        raise ValueError(_("a seed is a whole number of 0 or more, not {seed}").format(seed=seed))
    cards, _rest = draw_block(block_generator(seed, key), 1, [c.index for c in pack.cards],
                          players * hand_size)
    return deal_masks(cards[0], players, hand_size)
