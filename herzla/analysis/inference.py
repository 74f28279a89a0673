"""Policy-based inference: how likely a deal of the unseen cards makes the plays seen so far.

A seat that has watched some cards played knows more than the voids they show: the other seats
chose those cards, and a seat that discarded its lowest club when it could have shed a heart
probably had none.  Following Rebstock, Solinas, Buro and Sturtevant ("Policy-based inference in
trick-taking card games", 2019), a deal of the unseen cards is weighted by the probability that
the other seats, playing like a model player, would have played what they played on it.  The
model here is the heuristic player (:mod:`herzla.players.heuristic`) made soft: a seat plays the
card of preference score ``x`` (:func:`~herzla.players.heuristic.heuristic_scores`: 0 for the
heuristic's card, -1 for its next choice, and so on) with probability proportional to
``exp(x / temperature)``, so a small temperature trusts the model (the heuristic's card nearly
always) and a large one hardly at all (every legal card alike).

The deals themselves are drawn exactly (:func:`draw_deals`): uniformly among those that keep
what the seat has seen for sure (:func:`constraints`) -- each other seat's number of cards, none
of a suit it has shown it lacks, and none but banned cards for a seat that led (or discarded) a
banned card while a lead ban held, since the ban lets a seat do so only when it holds nothing
else (the escape).  These are exactly the deals on which every play so far was legal.  Then
:func:`likelihoods` weighs them by the plays (:func:`log_likelihood` replays the hand on a deal
through the hand interface, ``contract.new_hand``, ``legal_mask``, ``play``; the weights read
every deal at once, :func:`log_likelihoods`: the heuristic's preferences and the lead bans read
the public play alone, so the hand is replayed once and a play's place among a seat's legal
cards is a count of bits, the same numbers some twenty times faster), and :func:`resample`
picks the deals to solve in proportion to the weights.

Seat 0 leads C7; seat 1, void in clubs, sheds SA.  Had it held hearts, the heuristic would have
shed the highest of them, so a deal in which it held four puts SA fifth in its order:

>>> from herzla.cards import cards_of
>>> from herzla.contracts import contract_class
>>> from herzla.players.views import view_of
>>> normal = contract_class("herzla", "normal")()
>>> none = ["C7 C8 C9 CT CJ CQ CK CA", "SA S9 S8 DA DK DQ DJ DT",
...         "S7 ST SJ SQ SK H7 H8 H9", "HA HK HQ HJ HT D9 D8 D7"]
>>> four = ["C7 C8 C9 CT CJ CQ CK CA", "SA S9 S8 DA HA HK HQ HJ",
...         "S7 ST SJ SQ SK H7 H8 H9", "DK DQ DJ DT HT D9 D8 D7"]
>>> hand = normal.new_hand(none, dealer=3)
>>> for code in ("C7", "SA"):
...     _ = hand.play(code)
>>> view = view_of(hand)  # seat 2's
>>> unseen = constraints(view)
>>> unseen.holders, unseen.need, " ".join(map(str, cards_of(unseen.forbidden[1])))
((0, 1, 3), (7, 7, 8), 'C7 C8 C9 CT CJ CQ CK CA')
>>> deals = [normal.new_hand(d, dealer=3).dealt for d in (none, four)]
>>> [round(w, 4) for w in weights(view, deals, temperature=1.0)]  # exp(-4)
[1.0, 0.0183]
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence

from herzla.analysis.pimc import announces_as_seen, bidding_base
from herzla.cards import SUIT_MASKS
from herzla.kinds.tricks import TrickHand
from herzla.players.heuristic import heuristic_order, preferred_to
from herzla.players.known import Unseen, constraints, public_replay
from herzla.players.unseen import uniform_deals
from herzla.players.views import TrickView, as_view

__all__ = ["Unseen", "constraints", "draw_deals", "likelihoods", "log_likelihood",
           "log_likelihoods", "play_log_p", "resample", "weights"]


def draw_deals(view: TrickView, rng: random.Random, count: int) -> list[list[int]]:
    """``count`` deals (every seat's cards as dealt) drawn independently and uniformly from
    those that keep :func:`constraints`.  ValueError when there is none (no policy can bring
    that about: every play so far was legal)."""
    unseen = constraints(view)
    got = uniform_deals(unseen.cards, unseen.need, unseen.forbidden, rng, count)
    return [unseen.seated(g) for g in got]


@functools.lru_cache(maxsize=4096)
def play_log_p(k: int, m: int, temperature: float, doubt: float = 0.0) -> float:
    """The log of the probability that a seat with ``m`` legal cards plays the one the
    heuristic puts ``k``-th (0: its own card): with probability ``1 - doubt`` the softened
    heuristic (``exp(-k / temperature)``, normalised over the ``m`` places), with probability
    ``doubt`` any legal card alike (a player the heuristic does not explain: a seat that
    searches, a person).

    >>> round(math.exp(play_log_p(0, 2, 1.0)), 4), round(math.exp(play_log_p(1, 2, 1.0, 0.5)), 4)
    (0.7311, 0.3845)
    """
    z = sum(math.exp(-j / temperature) for j in range(m))
    if not doubt:
        return -(k / temperature + math.log(z))
    return math.log((1.0 - doubt) * math.exp(-k / temperature) / z + doubt / m)


def log_likelihood(view: TrickView, hands: Sequence[int], temperature: float,
                   doubt: float = 0.0) -> float:
    """The log of the probability that the other seats, each playing a legal card with
    probability proportional to ``exp(score / temperature)`` (``score`` the heuristic's
    preference, :func:`~herzla.players.heuristic.heuristic_scores`) -- or, with probability
    ``doubt``, any legal card alike (:func:`play_log_p`) -- played the cards they did on the
    deal ``hands``: the hand replayed from the deal.  ``-inf`` when some play was not legal on
    it."""
    contract = view.contract
    hand = TrickHand(contract, list(hands), view.dealer, stock=view.stock)
    total = 0.0
    for s, c in view.plays():
        if s != view.seat:
            legal = hand.legal_mask()
            if not legal >> c.index & 1:
                return -math.inf
            m = legal.bit_count()
            if m > 1:
                total += play_log_p(heuristic_order(hand).index(c), m, temperature, doubt)
        hand._play(c)
    return total


def log_likelihoods(view: TrickView, deals: Sequence[Sequence[int]], temperature: float,
                    doubt: float = 0.0) -> list[float]:
    """:func:`log_likelihood` of every deal, read at once: the heuristic's preference of a
    card reads the public position alone (:func:`~herzla.players.heuristic.preferred_to`), and
    so does a lead ban (the ban hook reads the public play), so the hand is replayed once, and
    on each deal a play's place among the seat's legal cards is a count of bits.  The same
    numbers as :func:`log_likelihood` deal by deal (the tests compare them)."""
    steps = _steps(view)
    out = []
    for hands in deals:
        left = list(hands)
        total = 0.0
        for s, bit, suit, ban, follow, other in steps:
            h = left[s]
            left[s] = h & ~bit
            if other < 0:
                continue
            legal = h & suit if suit else 0
            before = follow
            if not legal:
                legal, before = h, other
                if ban:
                    legal = (h & ~ban) or h
            if not legal & bit:
                total = -math.inf
                break
            m = legal.bit_count()
            if m > 1:
                total += play_log_p((legal & before).bit_count(), m, temperature, doubt)
        out.append(total)
    return out


def _steps(view: TrickView) -> list[tuple[int, int, int, int, int, int]]:
    """Per play so far: (seat, the card's bit, the suit led's cards (0 at a lead), the lead or
    discard ban's cards (0: none), the cards the heuristic prefers to it when following suit,
    when not (-1 for the view's own plays, which weigh nothing)), read from one replay of the
    public play on a deal that pads each seat's played cards."""
    contract = view.contract
    plays = view.plays()
    hand = public_replay(view)
    out = []
    for s, c in plays:
        if s == view.seat:
            out.append((s, c.bit, 0, 0, 0, -1))
        else:
            leading = not hand.trick
            suit = 0 if leading else SUIT_MASKS[hand.trick[0].suit] & contract.pack().mask
            # the ban where it does not follow suit (the lead's, else the discard's)
            ban = contract.banned(hand, s, leading)
            at = as_view(hand)
            out.append((s, c.bit, suit, 0 if ban is None else ban[0],
                        preferred_to(at, c, True) if suit else 0, preferred_to(at, c, False)))
        hand._play(c)
    return out


def weights(view: TrickView, deals: Sequence[Sequence[int]], temperature: float,
            doubt: float = 0.0) -> list[float]:
    """Each deal's likelihood (:func:`log_likelihood`) relative to the likeliest, times whether
    the other seats announce on it as they did, by the bidding heuristic (where some deal
    agrees with the announcements: else they are left out, as ``pimc`` leaves them).  All 1
    when no deal makes the plays possible."""
    logs = log_likelihoods(view, deals, temperature, doubt)
    top = max(logs, default=-math.inf)
    if top == -math.inf:
        return [1.0] * len(deals)
    out = [math.exp(x - top) for x in logs]
    if view.announcements:
        base = bidding_base(view.contract)
        agree = [announces_as_seen(view, d, base) for d in deals]
        if any(a and w > 0 for a, w in zip(agree, out, strict=True)):
            out = [w if a else 0.0 for a, w in zip(agree, out, strict=True)]
    return out


def likelihoods(view: TrickView, deals: Sequence[Sequence[int]], temperature: float,
                doubt: float = 0.0) -> list[float]:
    """Each deal's probability under the model given the plays seen (:func:`weights`
    normalised to add up to 1)."""
    w = weights(view, deals, temperature, doubt)
    total = sum(w)
    return [x / total for x in w]


def resample(w: Sequence[float], count: int, u: float) -> list[tuple[int, int]]:
    """``count`` draws from the indexes of ``w`` in proportion to the weights, systematically
    (the points ``(u + i) / count`` for a uniform ``u`` in [0, 1)): (index, how many times
    drawn), in index order.  Equal weights and ``count`` at most ``len(w)`` draw each index at
    most once.

    >>> resample([1, 1, 1, 1], 2, 0.5), resample([0, 3, 1], 4, 0.1)
    ([(1, 1), (3, 1)], [(1, 3), (2, 1)])
    """
    top = max(w, default=0.0)
    if 0 < top < 1:  # read relative to the largest (weights far below 1 lose their digits)
        w = [x / top for x in w]
    total = float(sum(w))
    out: list[tuple[int, int]] = []
    acc = 0.0
    i = -1
    for j in range(count):
        point = (u + j) / count * total
        while acc <= point and i + 1 < len(w):
            i += 1
            acc += w[i]
        while w[i] == 0 and i > 0:  # rounding at the very end: the last index of some weight
            i -= 1
        if out and out[-1][0] == i:
            out[-1] = (i, out[-1][1] + 1)
        else:
            out.append((i, 1))
    return out
