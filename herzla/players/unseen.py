"""Uniform deals of unseen cards under constraints: each holder takes a fixed number of cards and
none of the cards it is known not to hold.

Cards that the same holders may take are interchangeable, so the deals are counted group by
group (a multinomial for each way of splitting a group among its holders, times the deals of the
rest), and a deal is drawn by choosing each group's split with probability proportional to its
count and then which of the group's cards go where uniformly.  Every deal that keeps the
constraints is equally likely; :func:`count_deals` gives their number.

>>> from herzla.cards import parse_cards, mask_of
>>> import random
>>> cards = parse_cards("HA HK SA SK")
>>> hearts = mask_of(parse_cards("HA HK"))
>>> count_deals(cards, [2, 2], [0, 0]), count_deals(cards, [2, 2], [hearts, 0])
(6, 1)
>>> deal = uniform_deal(cards, [2, 2], [hearts, 0], random.Random(1))
>>> deal == [mask_of(parse_cards("SA SK")), hearts]
True
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator, Sequence

from herzla.cards import Card

__all__ = ["count_deals", "uniform_deal", "uniform_deals"]


def _groups(cards: Sequence[Card], forbidden: Sequence[int]) -> list[tuple[tuple[int, ...],
                                                                           list[Card]]]:
    by: dict[tuple[int, ...], list[Card]] = {}
    for c in cards:
        allowed = tuple(h for h, f in enumerate(forbidden) if not f >> c.index & 1)
        by.setdefault(allowed, []).append(c)
    return sorted(by.items())


def _splits(n: int, holders: tuple[int, ...], caps: tuple[int, ...]
            ) -> Iterator[tuple[int, ...]]:
    """Each way to give ``n`` cards to ``holders`` within their capacities (counts by holder)."""
    if not holders:
        if n == 0:
            yield ()
        return
    first, rest = holders[0], holders[1:]
    for k in range(min(n, caps[first]), -1, -1):
        for tail in _splits(n - k, rest, caps):
            yield (k, *tail)


class _Counter:
    def __init__(self, groups: list[tuple[tuple[int, ...], list[Card]]]) -> None:
        self.groups = groups

    @functools.cache  # noqa: B019 - one counter per draw, dropped with it
    def ways(self, g: int, caps: tuple[int, ...]) -> int:
        if g == len(self.groups):
            return 1 if not any(caps) else 0
        holders, cards = self.groups[g]
        total = 0
        for split in _splits(len(cards), holders, caps):
            rest = list(caps)
            for h, k in zip(holders, split, strict=True):
                rest[h] -= k
            total += _multinomial(len(cards), split) * self.ways(g + 1, tuple(rest))
        return total


def _multinomial(n: int, parts: Sequence[int]) -> int:
    out = 1
    for k in parts:
        out *= math.comb(n, k)
        n -= k
    return out


def count_deals(cards: Sequence[Card], need: Sequence[int], forbidden: Sequence[int]) -> int:
    """How many ways there are to deal ``cards`` so that holder ``h`` takes ``need[h]`` of them
    and none of the cards in its bit set ``forbidden[h]``."""
    if sum(need) != len(cards):
        raise ValueError(f"{len(cards)} cards for holders taking {sum(need)}")
    return _Counter(_groups(cards, forbidden)).ways(0, tuple(need))


def uniform_deal(cards: Sequence[Card], need: Sequence[int], forbidden: Sequence[int],
                 rng: random.Random) -> list[int]:
    """A deal (each holder's cards as a bit set) drawn uniformly from those :func:`count_deals`
    counts.  ValueError when there is none."""
    return uniform_deals(cards, need, forbidden, rng, 1)[0]


def uniform_deals(cards: Sequence[Card], need: Sequence[int], forbidden: Sequence[int],
                  rng: random.Random, count: int) -> list[list[int]]:
    """``count`` deals drawn independently as :func:`uniform_deal` draws one, counting the deals
    once for all of them (the cheap way to draw many).  ValueError when there is none."""
    if sum(need) != len(cards):
        raise ValueError(f"{len(cards)} cards for holders taking {sum(need)}")
    groups = _groups(cards, forbidden)
    counter = _Counter(groups)
    if counter.ways(0, tuple(need)) == 0:
        raise ValueError("no deal keeps the constraints")
    choices: dict[tuple[int, tuple[int, ...]], _Options] = {}
    bits = [[c.bit for c in group] for _, group in groups]
    return [_draw(groups, bits, counter, tuple(need), rng, choices) for _ in range(count)]


#: a group's ways to split among its holders from given capacities: (weight, split, the
#: capacities left), the weights' sum
_Options = tuple[list[tuple[int, tuple[int, ...], tuple[int, ...]]], int]


def _options(groups: list[tuple[tuple[int, ...], list[Card]]], counter: _Counter, g: int,
             caps: tuple[int, ...]) -> _Options:
    holders, group = groups[g]
    options: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    for split in _splits(len(group), holders, caps):
        rest = list(caps)
        for h, k in zip(holders, split, strict=True):
            rest[h] -= k
        weight = _multinomial(len(group), split) * counter.ways(g + 1, tuple(rest))
        if weight:
            options.append((weight, split, tuple(rest)))
    return options, sum(w for w, _, _ in options)


def _draw(groups: list[tuple[tuple[int, ...], list[Card]]], bits: list[list[int]],
          counter: _Counter, caps: tuple[int, ...], rng: random.Random,
          choices: dict[tuple[int, tuple[int, ...]], _Options]) -> list[int]:
    # choices: each (group, capacities)'s options, found once for all the draws of a call;
    # bits: each group's cards' bits (distinct: a sum of some is their union)
    out = [0] * len(caps)
    for g, (holders, _group) in enumerate(groups):
        key = (g, caps)
        found = choices.get(key)
        if found is None:
            found = choices[key] = _options(groups, counter, g, caps)
        options, total = found
        pick = rng.randrange(total)
        chosen = options[-1]
        for option in options:
            if pick < option[0]:
                chosen = option
                break
            pick -= option[0]
        _, split, rest_caps = chosen
        shuffled = list(bits[g])
        rng.shuffle(shuffled)
        at = 0
        for h, k in zip(holders, split, strict=True):
            out[h] |= sum(shuffled[at:at + k])
            at += k
        caps = rest_caps
    return out
