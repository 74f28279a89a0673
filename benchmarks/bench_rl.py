"""Environment steps per second: herzla.rl's PettingZoo environment against the OpenSpiel Python
game (herzla.openspiel) on the same deals, in one run, as a ratio (docs/rl.md).

Every seat plays uniformly among its legal actions.  A *step* is one decision of a seat (a card,
a lay, a pass, an announcement); the time of a run includes dealing (``reset`` in herzla.rl, the
chance nodes in OpenSpiel).  Two loops are timed for each:

- ``observed``: what a learner's loop does, the observation and the legal actions every step:
  ``env.last()`` then ``env.step(a)``; in OpenSpiel ``state.observation_tensor(p)``,
  ``state.legal_actions()``, ``state.apply_action(a)``;
- ``moves``: the legal actions and the move alone (herzla.rl: ``env.episode.legal()`` and
  ``env.step``; OpenSpiel: ``legal_actions`` and ``apply_action``).

The two libraries' runs alternate (``--repeat`` rounds), so that a busy machine slows both alike;
each rate is the median over the rounds.  Needs the ``rl`` and ``openspiel`` extras.

    python benchmarks/bench_rl.py                  # measured: about 40 seconds
    python benchmarks/bench_rl.py --episodes 50 --repeat 3 --cases "herzla normal"
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections.abc import Callable

import numpy as np
import pyspiel

import herzla.openspiel  # noqa: F401  (importing it registers the games)
from herzla.rl import aec_env

#: case: (herzla.rl's game, contract, players; the OpenSpiel game string)
CASES: dict[str, tuple[str, str | None, int, str]] = {
    "herzla normal": ("herzla", "normal", 4, "python_herzla(contract=normal)"),
    "herzla bidding": ("herzla", None, 4, "python_herzla(contract=bidding)"),
    "herzla-kids 5p": ("herzla-kids", None, 5, "python_herzla_kids(players=5)"),
    "herzeln domino": ("herzeln", "domino", 4, "python_herzeln(contract=domino)"),
    "herzerln auflegen 3p": ("herzerln", "auflegen", 3,
                             "python_herzerln(contract=auflegen,players=3)"),
}


def rl_run(case: tuple[str, str | None, int, str], episodes: int, observed: bool
           ) -> tuple[int, float]:
    """(steps, seconds) of ``episodes`` random episodes of herzla.rl's AEC environment."""
    game, contract, players, _ = case
    env = aec_env(game, contract, players)
    rng = np.random.default_rng(1)
    steps = 0
    start = time.perf_counter()
    for episode in range(episodes):
        env.reset(seed=episode)
        for _agent in env.agent_iter():
            if observed:
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
            else:
                if env.terminations[env.agent_selection]:
                    env.step(None)
                    continue
                assert env.episode is not None
                moves = list(env.episode.legal())
                env.step(moves[rng.integers(len(moves))])
            steps += 1
    return steps, time.perf_counter() - start


def spiel_run(case: tuple[str, str | None, int, str], episodes: int, observed: bool
              ) -> tuple[int, float]:
    """(steps, seconds) of ``episodes`` random episodes of the OpenSpiel Python game."""
    game = pyspiel.load_game(case[3])
    rng = np.random.default_rng(1)
    steps = 0
    start = time.perf_counter()
    for _ in range(episodes):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            player = state.current_player()
            if observed:
                state.observation_tensor(player)
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def rates(run: Callable[[tuple[str, str | None, int, str], int, bool], tuple[int, float]],
          case: tuple[str, str | None, int, str], episodes: int, observed: bool) -> float:
    steps, seconds = run(case, episodes, observed)
    return steps / seconds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=300, help="episodes per run (default 300)")
    ap.add_argument("--repeat", type=int, default=5, help="alternating rounds (default 5)")
    ap.add_argument("--cases", nargs="*", default=list(CASES), choices=list(CASES))
    opts = ap.parse_args()
    print(f"herzla.rl against OpenSpiel's Python game: Python {platform.python_version()}, "
          f"pyspiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else '?'}, "
          f"{opts.episodes} random episodes a run, median of {opts.repeat} alternating rounds")
    print(f"{'case':<22} {'loop':<9} {'herzla.rl steps/s':>18} {'OpenSpiel steps/s':>18} "
          f"{'ratio':>7}")
    print("-" * 78)
    for name in opts.cases:
        case = CASES[name]
        for observed in (True, False):
            mine, theirs = [], []
            for _ in range(opts.repeat):
                mine.append(rates(rl_run, case, opts.episodes, observed))
                theirs.append(rates(spiel_run, case, opts.episodes, observed))
            a, b = statistics.median(mine), statistics.median(theirs)
            loop = "observed" if observed else "moves"
            print(f"{name:<22} {loop:<9} {a:>18,.0f} {b:>18,.0f} {a / b:>6.2f}x")


if __name__ == "__main__":
    main()
