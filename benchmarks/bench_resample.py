"""The OpenSpiel resampler (``resample_from_infostate``, IS-MCTS) against the rejection sampler
it replaced, position by position, in one run: each sampler's draw of an episode (the OpenSpiel
state built from it afterwards costs both the same, about as much again).

The rejection sampler dealt the unseen cards under the shown voids (trick deals) and the cards
that fitted a pass (layout deals) only, and drew again while some move was illegal with the deal
(a heart led or discarded under a ban by a seat that held other cards). After an escape that is
most draws: it is given ``--draws`` draws a resample here (the library gave it 100,000), and a
position where it finds none is reported as given up.

    python benchmarks/bench_resample.py            # about a minute on 2 cores
    python benchmarks/bench_resample.py --resamples 50 --draws 100000

Needs the ``openspiel`` extra.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

import herzla.openspiel  # noqa: F401  (registers the games)
from herzla.cards import SUIT_MASKS, cards_of, parse_cards
from herzla.hand import PASS, as_move
from herzla.kinds.layout import LayoutHand
from herzla.kinds.tricks import TrickHand
from herzla.openspiel.episode import HandState
from herzla.openspiel.resample import resample
from herzla.players.unseen import uniform_deal
from herzla.players.views import shown_voids


def build(spec: str, hands: list[str], plays: list[str]) -> Any:
    state = pyspiel.load_game(spec).new_initial_state()
    setup = state.get_game().setup
    left = [[c.index for c in reversed(parse_cards(h))] for h in hands]
    for k in range(setup.cards_dealt):
        state.apply_action(left[(setup.forehand + k) % setup.players].pop())
    for play in plays:
        state.apply_action(state.action_of(as_move(play)))
    return state


def randomly(spec: str, seed: int, actions: int) -> Any:
    rnd = random.Random(seed)
    state = pyspiel.load_game(spec).new_initial_state()
    while len(state.history()) < actions:
        if state.is_chance_node():
            state.apply_action(rnd.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    return state


POSITIONS: dict[str, Callable[[], Any]] = {
    "herzerln hearts, a forced heart discard to trick 1": lambda: build(
        "python_herzerln(contract=hearts)",
        ["CA CK CQ CJ SA SK SQ SJ", "HA HK HQ HJ HT H9 H8 H7", "CT C9 C8 C7 ST S9 S8 S7",
         "DA DK DQ DJ DT D9 D8 D7"], ["CA", "HA", "C7", "DA"]),
    "herzla normal, a heart led to trick 2 (escape)": lambda: build(
        "python_herzla(contract=normal)",
        ["C7 C8 SA SK SQ SJ ST S9", "CA HA HK HQ HJ HT H9 H8", "C9 CT S8 S7 H7 DA DK DQ",
         "CJ CQ CK DJ DT D9 D8 D7"], ["C7", "CA", "C9", "CJ", "HA"]),
    "herzla normal, after trick 1": lambda: randomly("python_herzla(contract=normal)", 1, 36),
    "herzla normal, mid-hand": lambda: randomly("python_herzla(contract=normal)", 2, 48),
    "herzla-kids 5 players, mid-hand": lambda: randomly("python_herzla_kids(players=5)", 3, 50),
    "herzeln domino 3 players, mid-deal": lambda: randomly(
        "python_herzeln(contract=domino,players=3)", 4, 40),
    "herzerln auflegen, mid-deal": lambda: randomly("python_herzerln(contract=auflegen)", 5, 50),
}


def _voids_and_passes(episode: HandState, player: int) -> list[int]:
    """What the rejection sampler ruled out: the suits not followed, the cards that fitted a
    pass."""
    n = episode.setup.players
    out = [0] * n
    hand = episode.engine
    if isinstance(hand, TrickHand):
        for s, suits in enumerate(shown_voids(hand.tricks, hand.trick, hand.leader, n)):
            for suit in suits:
                out[s] |= SUIT_MASKS[suit]
        return out
    assert isinstance(hand, LayoutHand)
    board = hand.contract.new_hand(episode.dealt, episode.setup.dealer)
    pack = cards_of(episode.setup.pack)
    for move in hand.moves:
        if move.card is None:
            assert isinstance(board, LayoutHand)
            for c in pack:
                if board.fits(c):
                    out[board.turn] |= c.bit
        board.play(move if move.card is not None else PASS)
    out[player] = 0
    return out


def rejection(episode: HandState, player: int, rng: random.Random, draws: int) -> HandState | None:
    """The rejection sampler: a consistent episode, or None after ``draws`` draws."""
    setup = episode.setup
    n = setup.players
    dealt = min(len(episode.actions), setup.cards_dealt)
    later = episode.actions[dealt:]
    seats = [(setup.forehand + k) % n for k in range(dealt)]
    now = episode.hands()
    played_by = [episode.dealt[s] & ~now[s] for s in range(n)]
    played = 0
    for m in played_by:
        played |= m
    unseen = cards_of(setup.pack & ~episode.dealt[player] & ~played)
    others = [s for s in range(n) if s != player]
    need = [now[s].bit_count() for s in others]
    absent = _voids_and_passes(episode, player)
    forbidden = [absent[s] for s in others]
    if len(unseen) > sum(need):
        need.append(len(unseen) - sum(need))
        forbidden.append(0)
    for _ in range(draws):
        got = uniform_deal(unseen, need, forbidden, rng)
        order = {}
        for i, s in enumerate(others):
            cards = [c.index for c in cards_of(got[i] | played_by[s])]
            rng.shuffle(cards)
            order[s] = cards
        candidate = HandState(setup)
        try:
            for k, s in enumerate(seats):
                candidate.apply(episode.actions[k] if s == player else order[s].pop())
            for action in later:
                candidate.apply(action)
        except ValueError:
            continue
        return candidate
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--resamples", type=int, default=20, help="resamples a seat (default 20)")
    ap.add_argument("--draws", type=int, default=20_000,
                    help="draws the rejection sampler is given a resample (default 20,000)")
    ap.add_argument("--budget", type=float, default=4.0,
                    help="seconds the rejection sampler is given a seat (default 4)")
    args = ap.parse_args()
    print("resample_from_infostate: ms per resample, the exact sampler against the rejection "
          f"sampler ({args.draws:,} draws a resample), one run")
    print(f"{'position, seat':56} {'exact':>8} {'rejection':>12} {'ratio':>8}")
    rng = np.random.default_rng(0)
    for name, make in POSITIONS.items():  # the first resample reads the moves, the rest reuse it
        state = make()
        episode = state.episode()
        for player in range(state.get_game().num_players()):
            t = time.perf_counter()
            for _ in range(args.resamples):
                resample(episode, player, rng.random)
            exact = (time.perf_counter() - t) / args.resamples * 1000
            t = time.perf_counter()
            done = 0
            gave_up = False
            r = random.Random(player)
            while done < args.resamples and time.perf_counter() - t < args.budget:
                if rejection(episode, player, r, args.draws) is None:
                    gave_up = True
                    done += 1
                    break
                done += 1
            old = (time.perf_counter() - t) / max(done, 1) * 1000
            shown = f"{old:.1f}" + ("+ (none)" if gave_up else "")
            ratio = f"{old / exact:,.{0 if old >= 10 * exact else 1}f}x" + ("+" if gave_up else "")
            print(f"{name + ', seat ' + str(player):56} {exact:8.1f} {shown:>12} {ratio:>8}",
                  flush=True)


if __name__ == "__main__":
    main()
