"""The OpenSpiel tests' brute-force yardstick: every deal a seat cannot tell from the true one
(each way to hand out the unseen cards, kept when every move so far is legal with it). The
default set reads this module (for doctests) where OpenSpiel is not installed."""

from __future__ import annotations

import itertools
from typing import Any

from herzla.cards import cards_of


def consistent_deals(state: Any, player: int) -> set[tuple[int, ...]]:
    """The hands now (a mask per seat) of every deal consistent with ``player``'s information."""
    from herzla.openspiel.episode import HandState  # here: the module is read without OpenSpiel

    ep = state._episode
    setup = ep.setup
    n = setup.players
    now = ep.hands()
    others = [s for s in range(n) if s != player]
    unseen = [c for s in others for c in cards_of(now[s])]
    sizes = [now[s].bit_count() for s in others]
    out: set[tuple[int, ...]] = set()
    for perm in itertools.permutations(unseen):
        hands = list(now)
        at = 0
        for s, k in zip(others, sizes, strict=True):
            hands[s] = sum(c.bit for c in perm[at:at + k])
            at += k
        key = tuple(hands)
        if key in out:
            continue
        trial = HandState(setup)
        left = [[c.index for c in cards_of(hands[s] | (ep.dealt[s] & ~now[s]))]
                for s in range(n)]
        try:
            for k in range(setup.cards_dealt):
                trial.apply(left[(setup.forehand + k) % n].pop())
            for action in ep.actions[setup.cards_dealt:]:
                trial.apply(action)
        except ValueError:
            continue
        out.add(key)
    return out
