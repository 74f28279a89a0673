"""The yardstick of ``herzla advise``: a bare bit-set alpha-beta doing one advise sample's work.

For each deal it finds what ``herzla advise`` finds with every hand open: the seat's score in the
normal game when the other three play against it (the seat's fewest cents lost, most won), and
whether the seat as declarer makes Beddl and makes Mord.  It is as bare as
``bare_search.py`` (whose Beddl/Mord search it calls): plain fail-hard alpha-beta over the seat's
score, cards tried in index order, equivalent cards (the next lower card out in the same hand)
and a transposition table keyed on the hands, the leader and the tally so far (each seat's hearts
and who may still win every trick).  It knows the normal game's settlement under the default
options with an empty stock itself: each heart costs 10 cents; with no void seat every taker pays;
one void seat collects all 80 cents, two collect 40 each; one seat taking every heart pays 80 to
the stock; a seat winning every trick (Schleichermord) gets 80 from each opponent.  It imports
nothing from herzla.

    python benchmarks/bare_normal.py SAMPLES.jsonl   # a line each: normal cents, Beddl, Mord

A line of SAMPLES.jsonl is ``{"hands": [[card codes] x 4], "seat": S, "dealer": D}``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bare_search import BELOW, HEARTS, SUIT, card_bit, solve_beddl_mord

UNIT, STAKE, ALL_HEARTS = 10, 80, 8
NO_SLAM, FIRST = 4, 5  # slam candidates: 0..3 a seat that won every trick so far


def settle(seat: int, hearts: list[int], slam: int) -> int:
    """The seat's cents at the end of a normal deal (default options, empty stock)."""
    if slam < NO_SLAM:
        return STAKE * 3 if slam == seat else -STAKE
    void = sum(1 for h in hearts if h == 0)
    if hearts[seat]:
        return -hearts[seat] * UNIT
    return {1: ALL_HEARTS * UNIT, 2: ALL_HEARTS * UNIT // 2}.get(void, 0)


def solve_normal(hands: list[int], leader: int, seat: int) -> int:
    """The seat's cents in the normal game with every hand open, the others against it."""
    tt: dict[int, tuple[int, int]] = {}
    hearts = [0, 0, 0, 0]

    def legal(s: int, led: int, trick: int) -> int:
        h = hands[s]
        if led:
            return h & led or h
        if trick < 2 and h & ~HEARTS:
            return h & ~HEARTS
        return h

    def moves(s: int, mask: int, out: int) -> list[int]:
        got = []
        h = hands[s]
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            mask ^= low
            below = out & BELOW[c]
            if below and h >> (below.bit_length() - 1) & 1:
                continue  # the next lower card out is ours: equivalent
            got.append(c)
        return got

    def trick_start(leader: int, trick: int, out: int, slam: int, alpha: int,
                    beta: int) -> int:
        if trick == 8:
            return settle(seat, hearts, slam)
        key = (leader << 3) | slam
        for h in hands:
            key = (key << 36) | h
        for h in hearts:
            key = (key << 4) | h
        hit = tt.get(key)
        if hit is not None:
            flag, v = hit
            if flag == 0 or (flag > 0 and v >= beta) or (flag < 0 and v <= alpha):
                return v
        a0 = alpha
        v = play(leader, 0, leader, trick, out, slam, 0, -1, -1, 0, alpha, beta)
        tt[key] = (-1 if v <= a0 else 1 if v >= beta else 0, v)
        return v

    def play(s: int, k: int, leader: int, trick: int, out: int, slam: int, led: int, best: int,
             bseat: int, tmask: int, alpha: int, beta: int) -> int:
        maxing = s == seat
        for c in moves(s, legal(s, led, trick), out):
            bit = 1 << c
            hands[s] ^= bit
            nled = led or SUIT[c]
            nbest, nbseat = (c, s) if bit & nled and c > best else (best, bseat)
            if k == 3:
                taken = ((tmask | bit) & HEARTS).bit_count()
                hearts[nbseat] += taken
                nslam = nbseat if slam in (FIRST, nbseat) else NO_SLAM
                v = trick_start(nbseat, trick + 1, out & ~(tmask | bit), nslam, alpha, beta)
                hearts[nbseat] -= taken
            else:
                v = play((s + 1) % 4, k + 1, leader, trick, out, slam, nled, nbest, nbseat,
                         tmask | bit, alpha, beta)
            hands[s] ^= bit
            if maxing and v > alpha:
                alpha = v
            elif not maxing and v < beta:
                beta = v
            if alpha >= beta:
                break
        return alpha if maxing else beta

    out_all = hands[0] | hands[1] | hands[2] | hands[3]
    return trick_start(leader, 0, out_all, FIRST, -10 * STAKE, 10 * STAKE)


def one_sample(hands: list[int], dealer: int, seat: int) -> tuple[int, bool, bool]:
    """One advise sample's double-dummy work: the normal game's cents for ``seat``, and whether
    ``seat`` makes Beddl and Mord as declarer."""
    leader = (dealer + 1) % 4
    normal = solve_normal(list(hands), leader, seat)
    beddl = solve_beddl_mord(list(hands), leader, seat, True) > 0
    mord = solve_beddl_mord(list(hands), leader, seat, False) > 0
    return normal, beddl, mord


def main(path: str) -> None:
    start = time.perf_counter()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            rec = json.loads(line)
            hands = [sum(card_bit(c) for c in h) for h in rec["hands"]]
            normal, beddl, mord = one_sample(hands, rec.get("dealer", 3), rec.get("seat", 0))
            print(normal, "made" if beddl else "lost", "made" if mord else "lost", flush=True)
    print(f"{time.perf_counter() - start:.3f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1])
