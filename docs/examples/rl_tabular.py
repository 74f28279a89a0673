"""A tiny tabular agent learns Herzla's normal game in a few seconds and beats a random player
(docs/rl.md).

Seat 0 of ``herzla.rl.gym_env("herzla", "normal", opponents="random")`` is the learner.  It sees
each legal card through six features read from the observation (lead, follow suit or discard; a
heart or not; the card's rank; whether it would win the trick so far; whether the trick holds a
heart; whether it plays last to the trick) and keeps, for each combination, the mean reward of
the hands in which it chose such a card: every-visit Monte Carlo, epsilon-greedy while it learns,
greedy after.  Then learner and a random player each play seat 0 of the same evaluation deals
(seeds the training never saw, the same opponents' random streams): the mean difference of
their cents per hand, with a 95% interval from the per-deal differences.

    python docs/examples/rl_tabular.py                      # about 20 seconds
    python docs/examples/rl_tabular.py --train 2000 --eval 500 --seed 3
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from herzla.cards import Suit
from herzla.rl import HerzlaSeatEnv, gym_env

Key = tuple[int, ...]
#: seeds of the evaluation deals start here; training uses the seeds below it
EVAL_SEEDS = 10**9


def make_env() -> HerzlaSeatEnv:
    return gym_env("herzla", "normal", opponents="random")


def keys(env: HerzlaSeatEnv, obs: npt.NDArray[np.float32], legal: Sequence[int]) -> list[Key]:
    """The features of each legal action, from the observation alone."""
    ob = env.observer
    cards = env.actions.cards
    trick = ob.block(obs, "trick")  # rows: seats from the observer
    winning = ob.block(obs, "winning")
    in_trick = [cards[k] for k in np.flatnonzero(trick.sum(axis=0))]
    led = None
    if in_trick:
        leader = int(np.argmax(ob.block(obs, "leader")))
        led = cards[int(np.argmax(trick[leader]))].suit
    best = None
    if winning.any():
        best = cards[int(np.argmax(trick[int(np.argmax(winning))]))]
    hearts = any(c.suit == Suit.H for c in in_trick)
    last = len(in_trick) == env.table.players - 1
    out: list[Key] = []
    for action in legal:
        card = cards[action]
        mode = 0 if led is None else 1 if card.suit == led else 2
        beats = best is not None and card.suit == best.suit and card.rank > best.rank
        out.append((mode, int(card.suit == Suit.H), int(card.rank), int(beats), int(hearts),
                    int(last)))
    return out


class Tabular:
    """The table of mean rewards, by features."""

    def __init__(self) -> None:
        self.total: dict[Key, float] = {}
        self.count: dict[Key, int] = {}

    def value(self, key: Key) -> float:
        n = self.count.get(key, 0)
        return self.total[key] / n if n else 0.0

    def choose(self, env: HerzlaSeatEnv, obs: npt.NDArray[np.float32],
               mask: npt.NDArray[np.int8], rng: np.random.Generator,
               epsilon: float = 0.0) -> tuple[int, Key]:
        legal = [int(a) for a in np.flatnonzero(mask)]
        found = keys(env, obs, legal)
        if rng.random() < epsilon:
            i = int(rng.integers(len(legal)))
        else:
            values = [self.value(k) for k in found]
            top = max(values)
            best = [i for i, v in enumerate(values) if v == top]
            i = best[int(rng.integers(len(best)))]
        return legal[i], found[i]

    def learn(self, chosen: Sequence[Key], reward: float) -> None:
        for key in chosen:
            self.total[key] = self.total.get(key, 0.0) + reward
            self.count[key] = self.count.get(key, 0) + 1


def train(episodes: int, seed: int, epsilon: float = 0.1) -> Tabular:
    env = make_env()
    agent = Tabular()
    rng = np.random.default_rng(seed)
    for episode in range(episodes):
        obs, info = env.reset(seed=seed * episodes + episode)
        chosen: list[Key] = []
        reward = 0.0
        done = False
        while not done:
            action, key = agent.choose(env, obs, info["action_mask"], rng, epsilon)
            chosen.append(key)
            obs, r, done, _, info = env.step(action)
            reward += r
        agent.learn(chosen, reward)
    return agent


Player = Callable[[HerzlaSeatEnv, npt.NDArray[np.float32], npt.NDArray[np.int8]], int]


def play(player: Player, seeds: range) -> list[float]:
    """Seat 0's cents in each of the deals ``seeds``."""
    env = make_env()
    out = []
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        total = 0.0
        done = False
        while not done:
            obs, r, done, _, info = env.step(player(env, obs, info["action_mask"]))
            total += r
        out.append(total)
    return out


def interval(diffs: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal approximation)."""
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


def run(train_hands: int, eval_hands: int, seed: int) -> dict[str, float]:
    start = time.perf_counter()
    agent = train(train_hands, seed)
    seconds = time.perf_counter() - start
    rng = np.random.default_rng(seed)
    seeds = range(EVAL_SEEDS + seed * eval_hands, EVAL_SEEDS + (seed + 1) * eval_hands)

    def learned(env: HerzlaSeatEnv, obs: npt.NDArray[np.float32],
                mask: npt.NDArray[np.int8]) -> int:
        return agent.choose(env, obs, mask, rng)[0]

    def uniform(env: HerzlaSeatEnv, obs: npt.NDArray[np.float32],
                mask: npt.NDArray[np.int8]) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    mine = play(learned, seeds)
    theirs = play(uniform, seeds)
    mean, low, high = interval([a - b for a, b in zip(mine, theirs, strict=True)])
    return {"seconds": seconds, "learned": sum(mine) / len(mine),
            "random": sum(theirs) / len(theirs), "diff": mean, "low": low, "high": high,
            "entries": float(len(agent.count))}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=int, default=5_000, help="training hands (5,000)")
    parser.add_argument("--eval", type=int, default=4_000, help="evaluation deals (4,000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals and choices")
    args = parser.parse_args(argv)
    r = run(args.train, args.eval, args.seed)
    others = make_env().table.players - 1
    print(f"Herzla normal game, seat 0 against {others} random players: trained on {args.train:,} "
          f"hands in {r['seconds']:.1f} s ({int(r['entries'])} table entries)")
    print(f"over {args.eval:,} evaluation deals: tabular {r['learned']:+.1f}, random "
          f"{r['random']:+.1f} cents a hand")
    print(f"tabular - random: {r['diff']:+.1f} cents a hand, 95% interval "
          f"[{r['low']:+.1f}, {r['high']:+.1f}]")


if __name__ == "__main__":
    main()
