"""OpenSpiel's MCTS bot against herzla's heuristic in Herzla's normal game (docs/openspiel.md).

Seat 0 is OpenSpiel's MCTS bot with random rollouts; seats 1 to 3 play herzla's heuristic
(``herzla.players.heuristic.heuristic_card``).  The deal passes clockwise after each hand, so
every seat is forehand in turn; each hand starts with an empty stock.  Prints the mean cents per
seat.  MCTS searches the true state of the game, so it sees every hand: a strong, unfair opponent.

    python docs/examples/openspiel_mcts.py --hands 20 --simulations 100 --seed 1
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import herzla.openspiel  # noqa: F401  (importing it registers the games)
from herzla.players.heuristic import heuristic_card
from herzla.kinds.tricks import TrickHand


def mean_cents(hands: int, simulations: int, seed: int) -> list[float]:
    """Play ``hands`` hands; each seat's mean cents per hand."""
    rng = np.random.RandomState(seed)
    games = [pyspiel.load_game("python_herzla", {"dealer": dealer}) for dealer in range(4)]
    bots = [mcts.MCTSBot(game, uct_c=2 * game.max_utility(), max_simulations=simulations,
                         evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            for game in games]
    totals = np.zeros(4)
    for hand in range(hands):
        state = games[hand % 4].new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                cards, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(cards, p=chances)))
            elif state.current_player() == 0:
                state.apply_action(bots[hand % 4].step(state))
            else:
                engine = state.engine()
                assert isinstance(engine, TrickHand)
                state.apply_action(state.action_of(heuristic_card(engine)))
        totals += state.returns()
    return [float(t) / hands for t in totals]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20, help="hands to play (default 20)")
    parser.add_argument("--simulations", type=int, default=100,
                        help="MCTS simulations per move (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and the bot")
    args = parser.parse_args(argv)
    means = mean_cents(args.hands, args.simulations, args.seed)
    print(f"Herzla, normal game, {args.hands} hands: seat 0 MCTS ({args.simulations} "
          f"simulations a move), seats 1-3 heuristic")
    for seat, cents in enumerate(means):
        print(f"seat {seat}: {cents:+.1f} cents a hand")


if __name__ == "__main__":
    main()
