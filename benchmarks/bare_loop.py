"""The yardstick of ``compare_bare.py``: a bare numpy lockstep loop that plays random Herzla hands
and counts the hearts each seat takes, and nothing else (no rules beyond following suit, no
scoring, no statistics, no records, one process).

Card sets are 32-bit masks (suit ``s`` in bits ``8s .. 8s+7``, higher bit = higher card, hearts
suit 2), all the hands of a chunk move together: deal by sorting random keys (in pieces that fit
the cache), play a uniformly random legal card at each of the 4 positions of each of the 8
tricks (a uniform per card played, drawn as the play needs them: one row per move), the winner
leads next (hands kept in position order, rotated by conditional swaps), and the hearts of each
trick go to its winner (in 8-bit lanes of one word per hand).

    python benchmarks/bare_loop.py --hands 1e7 [--json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
import numpy.typing as npt

HIGH = np.uint64(~63 & 0xFFFF_FFFF_FFFF_FFFF)
LABELS = np.arange(32, dtype=np.uint64)
SUITS = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.uint32)
HEARTS = np.uint32(0xFF << 16)


def deal(rng: np.random.Generator, n: int, piece: int = 2048
         ) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.float64]]:
    """Each seat's cards (4, n) and a uniform per card played (32, n)."""
    hands = np.empty((4, n), dtype=np.uint32)
    for a in range(0, n, piece):
        b = min(n, a + piece)
        keys = rng.integers(0, 2**64 - 1, size=(b - a, 32), dtype=np.uint64, endpoint=True)
        keys &= HIGH
        keys |= LABELS
        keys.sort(axis=1)  # the low 6 bits: the pack in a random order
        one = np.left_shift(np.uint32(1), (keys & np.uint64(63)).astype(np.uint32))
        hands[:, a:b] = np.bitwise_or.reduce(one.reshape(b - a, 4, 8), axis=2).T
    return hands, rng.random((32, n))


def play_chunk(rng: np.random.Generator, n: int) -> npt.NDArray[np.int64]:
    """Deal and play ``n`` random hands; the hearts each seat took, (4, n)."""
    pos, u = deal(rng, n)  # pos[p]: the cards of the seat at position p (seat 0 leads first)
    leader = np.zeros(n, dtype=np.uint8)
    hearts = np.zeros(n, dtype=np.uint32)
    for t in range(8):
        trick = np.zeros(n, dtype=np.uint32)
        suit = top = trick
        played = []
        for p in range(4):
            h = pos[p]
            if p:
                follow = h & suit
                h = np.where(follow != 0, follow, h)  # follow suit if able
            k = (u[4 * t + p] * np.bitwise_count(h)).astype(np.uint8)
            for i in range(int(k.max())):  # clear the k lowest cards: the k-th legal one
                h = h & (h - (k > i))
            card = h & -h
            pos[p] ^= card
            trick |= card
            played.append(card)
            if not p:
                suit = SUITS.take((card > 0xFF).view(np.uint8) + (card > 0xFFFF).view(np.uint8)
                                  + (card > 0xFFFFFF).view(np.uint8))
                top = card.copy()
            else:
                np.maximum(top, card & suit, out=top)
        wpos = sum((played[p] == top).view(np.uint8) * np.uint8(p) for p in range(1, 4))
        seat = (leader + wpos) & 3
        taken = np.bitwise_count(trick & HEARTS).astype(np.uint32)
        hearts += taken << (seat.astype(np.uint32) * np.uint32(8))
        for bit in (1, 2):  # pos[j] = pos[(j + wpos) % 4]: the winner leads
            sel = -((wpos & bit) != 0).astype(np.uint32)
            pos = np.stack([pos[j] ^ ((pos[j] ^ pos[(j + bit) & 3]) & sel) for j in range(4)])
        leader = seat
    return np.stack([(hearts >> np.uint32(8 * s)) & 255 for s in range(4)]).astype(np.int64)


def run(hands: int, seed: int = 1, chunk: int = 1 << 14) -> tuple[float, npt.NDArray[np.int64]]:
    """Play ``hands`` hands; (seconds, hearts taken per seat in all)."""
    rng = np.random.Generator(np.random.SFC64(seed))
    total = np.zeros(4, dtype=np.int64)
    start = time.perf_counter()
    for c0 in range(0, hands, chunk):
        total += play_chunk(rng, min(chunk, hands - c0)).sum(axis=1)
    return time.perf_counter() - start, total


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=float, default=1e6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="answer in JSON")
    args = ap.parse_args()
    n = int(args.hands)
    secs, hearts = run(n, args.seed)
    if args.json:
        print(json.dumps({"hands": n, "elapsed_s": secs, "hands_per_s": n / secs,
                          "hearts": (hearts / n).tolist()}))
    else:
        print(f"{n:,} hands in {secs:.2f} s: {n / secs:,.0f} hands/s; hearts per seat "
              f"{(hearts / n).round(3).tolist()} ({hearts.sum() / n:g} a hand)")
