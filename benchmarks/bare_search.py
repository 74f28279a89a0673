"""The yardstick: a bare bit-set alpha-beta double-dummy search of Herzla deals.

No tricks beyond equivalent cards and a transposition table: plain fail-hard alpha-beta over the
declarer's score, cards tried in index order.  It knows the Herzla rules it needs itself (follow
suit, hearts not led to the first two tricks, Beddl and Mord end early), so it imports nothing
from herzla: it is what a first attempt would look like.

    python benchmarks/bare_search.py DEALS.jsonl     # one line per record: made or lost
"""

from __future__ import annotations

import json
import sys
import time

SUITS = "CSHD"
RANKS = "6789TJQKA"
HEARTS = 0x1FF << 18
SUIT = [0x1FF << (9 * (i // 9)) for i in range(36)]
BELOW = [((1 << i) - 1) & ~((1 << (i // 9 * 9)) - 1) for i in range(36)]


def card_bit(code: str) -> int:
    return 1 << (SUITS.index(code[0]) * 9 + RANKS.index(code[1]))


def solve_beddl_mord(hands: list[int], leader: int, declarer: int, beddl: bool) -> int:
    """+1 when the declarer makes Beddl (``beddl``) or Mord, else -1: alpha-beta from the
    first card."""
    tt: dict[int, tuple[int, int]] = {}
    out_all = hands[0] | hands[1] | hands[2] | hands[3]

    def legal(seat: int, led: int, trick: int) -> int:
        h = hands[seat]
        if led:
            return h & led or h
        if trick < 2 and h & ~HEARTS:
            return h & ~HEARTS
        return h

    def moves(seat: int, mask: int, out: int) -> list[int]:
        got = []
        h = hands[seat]
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            below = out & BELOW[c]
            if below and h >> (below.bit_length() - 1) & 1:
                continue  # the next lower card out is ours: equivalent
            got.append(c)
        return got

    def trick_start(leader: int, trick: int, out: int, alpha: int, beta: int) -> int:
        if trick == 8:
            return 1
        key = leader
        for h in hands:
            key = (key << 36) | h
        hit = tt.get(key)
        if hit is not None:
            flag, v = hit
            if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
                return v
        a0 = alpha
        v = play(leader, 0, leader, trick, out, 0, -1, -1, 0, alpha, beta)
        tt[key] = (-1 if v <= a0 else 1 if v >= beta else 0, v)
        return v

    def play(seat: int, k: int, leader: int, trick: int, out: int, led: int, best: int,
             bseat: int, tmask: int, alpha: int, beta: int) -> int:
        maxing = seat == declarer
        for c in moves(seat, legal(seat, led, trick), out):
            bit = 1 << c
            hands[seat] ^= bit
            nled = led or SUIT[c]
            nbest, nbseat = (c, seat) if bit & nled and c > best else (best, bseat)
            if k == 3:
                if (nbseat == declarer) == beddl:
                    v = -1
                else:
                    v = trick_start(nbseat, trick + 1, out & ~(tmask | bit), alpha, beta)
            else:
                v = play((seat + 1) % 4, k + 1, leader, trick, out, nled, nbest, nbseat,
                         tmask | bit, alpha, beta)
            hands[seat] ^= bit
            if maxing and v > alpha:
                alpha = v
            elif not maxing and v < beta:
                beta = v
            if alpha >= beta:
                break
        return alpha if maxing else beta

    return trick_start(leader, 0, out_all, -1, 1)


def main(path: str) -> None:
    start = time.perf_counter()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            hands = [sum(card_bit(c) for c in h) for h in rec["hands"]]
            leader = (rec.get("dealer", 3) + 1) % 4
            v = solve_beddl_mord(hands, leader, rec["declarer"], rec["contract"] == "beddl")
            print("made" if v > 0 else "lost")
    print(f"{time.perf_counter() - start:.3f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
