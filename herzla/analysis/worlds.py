"""The worlds ``expert`` plays in: deals of the cards a seat has not seen, each with its weight.

In a trick deal the worlds are those :mod:`herzla.analysis.inference` draws (uniformly among the
deals on which every play so far was legal) weighed by how likely each makes the other seats'
plays under the softened heuristic: :func:`trick_worlds` draws ``candidates`` of them and keeps
``count`` by weight (systematic resampling, a deal drawn twice counting twice).  Late in the hand,
when the deals that keep the constraints number at most ``enumerate`` (about 90 with two tricks
left in Herzla, 1,680 with three), every one of them is taken, each with its own weight: the
seat then knows the exact odds under the model, not a sample of them.

In a layout deal (the domino, Auflegen) :func:`layout_worlds` deals the unseen cards uniformly
to the seats by the number each still holds, keeping only deals on which every pass so far was
forced (the seat held no card that fitted then).

>>> from herzla.contracts import contract_class
>>> from herzla.players.views import view_of
>>> normal = contract_class("herzla", "normal")()
>>> hand = normal.new_hand(["C7 C8 C9 CT CJ CQ CK CA", "SA S9 S8 DA DK DQ DJ DT",
...                         "S7 ST SJ SQ SK H7 H8 H9", "HA HK HQ HJ HT D9 D8 D7"], dealer=3)
>>> for code in ("C7", "SA"):
...     _ = hand.play(code)
>>> import random
>>> worlds = trick_worlds(view_of(hand), random.Random(1), count=4, candidates=16)
>>> sum(times for _, times in worlds)
4
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from herzla.analysis.inference import constraints, resample, weights
from herzla.cards import Card, cards_of
from herzla.kinds.layout import LayoutHand
from herzla.players.unseen import count_deals, uniform_deals
from herzla.players.views import LayoutView, TrickView

__all__ = ["all_deals", "layout_worlds", "trick_worlds"]

#: tries at a layout deal whose passes were all forced, before keeping one that is not
LAYOUT_TRIES = 40


def all_deals(cards: Sequence[Card], need: Sequence[int], forbidden: Sequence[int]
              ) -> Iterator[list[int]]:
    """Every deal of ``cards`` to holders taking ``need[i]`` cards each and none of
    ``forbidden[i]`` (bit sets), in a fixed order.

    >>> from herzla.cards import parse_cards
    >>> len(list(all_deals(parse_cards("HA HK SA SK"), [2, 2], [0, 0])))
    6
    """
    left = list(need)
    out = [0] * len(need)

    def place(i: int) -> Iterator[list[int]]:
        if i == len(cards):
            yield list(out)
            return
        c = cards[i]
        for h in range(len(need)):
            if left[h] and not forbidden[h] >> c.index & 1:
                left[h] -= 1
                out[h] |= c.bit
                yield from place(i + 1)
                out[h] &= ~c.bit
                left[h] += 1

    return place(0)


def trick_worlds(view: TrickView, rng: random.Random, count: int, candidates: int,
                 temperature: float = 1.0, enumerate: int = 0, doubt: float = 0.0
                 ) -> list[tuple[list[int], int]]:
    """The worlds of a trick view: (every seat's cards as dealt, weight).  Sampled: ``count``
    draws by weight from ``candidates`` exact deals, the weight how many times a deal was
    drawn.  Enumerated (at most ``enumerate`` deals keep the constraints): every deal, its weight
    its likelihood scaled to whole numbers (``count`` times in all, at least once where it is
    possible at all).  ValueError when no deal keeps the constraints."""
    unseen = constraints(view)
    n = count_deals(unseen.cards, unseen.need, unseen.forbidden)
    if n == 0:
        raise ValueError("no deal keeps the constraints")
    if n <= enumerate:
        found = [unseen.seated(g) for g in all_deals(unseen.cards, unseen.need,
                                                     unseen.forbidden)]
        w = weights(view, found, temperature, doubt)
        total = sum(w)
        scale = 1_000_000 / total
        return [(d, max(1, round(x * scale))) for d, x in zip(found, w, strict=True) if x > 0]
    got = uniform_deals(unseen.cards, unseen.need, unseen.forbidden, rng, candidates)
    found = [unseen.seated(g) for g in got]
    w = weights(view, found, temperature, doubt)
    return [(found[i], times) for i, times in resample(w, count, rng.random())]


def layout_worlds(view: LayoutView, rng: random.Random, count: int
                  ) -> list[tuple[LayoutHand, int]]:
    """``count`` layout deals in the position of ``view``, the unseen cards dealt at random to
    the other seats (by the number each holds), each replayed to the view's position, with
    weight 1: deals on which some pass so far was not forced are drawn again (up to a bound)."""
    contract = view.contract
    n = view.players
    laid = [0] * n
    for s, lay in view.history:
        if lay is not None and lay.card is not None:
            laid[s] |= lay.card.bit
    seen = view.hand
    for m in laid:
        seen |= m
    unseen = cards_of(contract.pack().mask & ~seen)
    others = [s for s in range(n) if s != view.seat]
    need = [view.counts[s] for s in others]
    aside = len(unseen) - sum(need)
    holders = others + ([-1] if aside else [])
    if aside:
        need.append(aside)
    out: list[tuple[LayoutHand, int]] = []
    for _ in range(count):
        fallback = None
        for _attempt in range(LAYOUT_TRIES):
            got = uniform_deals(unseen, need, [0] * len(need), rng, 1)[0]
            hands = [m for m in laid]
            hands[view.seat] |= view.hand
            for h, cards in zip(holders, got, strict=True):
                if h >= 0:
                    hands[h] |= cards
            hand = _replayed(view, hands)
            if hand is not None:
                fallback = hand
                break
            if fallback is None:
                fallback = _replayed(view, hands, strict=False)
        assert fallback is not None
        out.append((fallback, 1))
    return out


def _replayed(view: LayoutView, hands: list[int], strict: bool = True) -> LayoutHand | None:
    """The layout deal ``hands`` replayed through the view's turns (None, with ``strict``,
    where a pass was not forced on it)."""
    hand = LayoutHand(view.contract, hands, view.dealer)
    for _, lay in view.history:
        if lay is None:
            if strict and hand.check_pass() is not None:
                return None
            hand._pass_turn()
        else:
            hand._play(lay)
    return hand
