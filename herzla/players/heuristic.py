"""The rules of the built-in ``random`` and ``heuristic`` policies and of the bidding heuristic,
written once on a seat's view (:mod:`herzla.players.views`); their batch forms for the numpy
engine are in :mod:`herzla.sim.batch_forms`, and the policy objects in
:mod:`herzla.players.builtin`.

``random``
    The ``floor(u * m)``-th of the ``m`` legal moves in ascending card index order (layout deals:
    ``+`` before ``-`` for one card), ``u`` the move's uniform from :mod:`herzla.machinery.streams`.
``heuristic``
    A simple, deterministic player for the deal at hand, described below.

**Trick deals.**  Each contract (and, in Beddl and Mord, each role) has a :class:`TrickProfile`,
read from the contract's declaration (:func:`trick_profile`): how to lead, how to follow suit and
how to discard when void.  "Lowest" and "highest" go by the
contract's rank order; between suits a tie goes to the lowest suit (C S H D).

- lead ``low``: the lowest card that is not a danger card (else the lowest card);
  lead ``high``: the highest card.
- follow ``duck``: the highest card below the card winning the trick so far; if none, the highest
  card when playing last (the trick is lost anyway), else the lowest.
  Follow ``win``: if some card beats the winning card, the lowest such card when playing last,
  else the highest card; otherwise the lowest card.  Follow ``low``: the lowest card.
- discard ``danger``: the highest card of the first danger class held (e.g. hearts, queens, HK),
  else the highest card; ``high``: the highest card; ``low``: the lowest card.

:func:`heuristic_order` lists the legal cards in the heuristic's order of preference (its card
first, then the card each rule would choose next) and :func:`heuristic_scores` scores them so
(0, -1, -2, ...): the model of a player that policy-based inference weighs deals by
(:mod:`herzla.analysis.inference`).

Avoidance deals duck and shed their danger cards; Herzeln ``every-trick`` and Mord (both sides) try
to win; ``last-trick`` keeps its high cards for the end; in Beddl the declarer ducks and the
defenders play low, so that the declarer's cards stay on top.

**Layout deals.**  With rows per suit (Auflegen, the same-suit domino) the heuristic lays toward
its far cards: the move with the most of its other cards of that row beyond the laid card in the
direction of the lay (a row opened now: all its cards of that suit).  With one row regardless of
suit: the move after which most of its cards fit the same end (a row opened now: either end),
then the one whose rank it holds fewest other cards of.  Ties go to the first move in the random
policy's order.  (Either beats random play by about a point a deal.)

**Bidding** (a game with bidding, Herzla, with ``contract=None``).  In turn from forehand each seat
announces Beddl (a contract whose declarer must win no trick) when it holds none of the three
highest ranks (A K Q, ace-ten: A T K); Mord (must win every trick) when every card is a sure
winner (per suit the unbroken run of top cards from the Ace, or the whole suit once that run
outlasts the other seats' cards of it) and it is forehand or holds all four suits; else it passes.
The game's ``resolve_bids`` settles the announcements with its options.  (Beddl so bid is made
about 70% of the time under the heuristic; Mord, rare at about one hand in 8,000, always.)

>>> from herzla.contracts import contract_class
>>> from herzla.cards import mask_of, parse_cards
>>> normal = contract_class("herzla", "normal")()
>>> hands = [mask_of(parse_cards(h)) for h in (
...     "CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...     "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")]
>>> announce(hands[3], normal), announce(hands[1], normal)
('beddl', 'pass')
>>> bidding(hands, 3, normal)
('beddl', 3)
>>> from herzla.tricks import TrickHand
>>> from herzla.players.views import TrickView
>>> state = TrickHand(normal, hands, dealer=3)
>>> str(heuristic_card(TrickView.of(state)))  # lead low, not a heart
'C7'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs
import numpy as np

from herzla.cards import (
    SUIT_MASKS,
    Card,
    Pack,
    Rank,
    RankOrder,
    Suit,
    cards_of,
)
from herzla.contracts import Contract, EarlyEnd, TrickContract, TrickRules, contract_class, game_of
from herzla.layout import Lay, LayoutHand
from herzla.machinery.streams import pick
from herzla.players.views import LayoutView, TrickView
from herzla.quote import quote
from herzla.tricks import TrickHand

if TYPE_CHECKING:
    from herzla.players.policy import Policy

__all__ = [
    "TrickProfile",
    "announce",
    "announcements",
    "bidding",
    "heuristic_card",
    "heuristic_lay",
    "heuristic_order",
    "heuristic_scores",
    "random_card",
    "random_lay",
    "resolve",
    "sure_winners",
    "top_ranks",
    "trick_profile",
]

@attrs.frozen(slots=True)
class TrickProfile:
    """How the heuristic plays a trick deal: lead, follow and discard modes, and danger cards.

    ``danger`` holds card classes (bit sets in the card index encoding), most dangerous first.
    """

    lead: str  # low | high
    follow: str  # duck | win | low
    discard: str  # danger | high | low
    danger: tuple[int, ...] = ()

    @property
    def danger_cards(self) -> int:
        m = 0
        for d in self.danger:
            m |= d
        return m


#: duck and shed the highest cards
AVOID = TrickProfile("low", "duck", "high")
#: try to win every trick
WIN = TrickProfile("high", "win", "low")
#: keep the high cards for the end
KEEP = TrickProfile("low", "low", "low")
#: Beddl defenders: stay low so that the declarer's cards win
FEED = TrickProfile("low", "low", "high")


def avoid(*danger: int) -> TrickProfile:
    """Duck, lead low away from the danger cards, and shed them first when void."""
    return TrickProfile("low", "duck", "danger", tuple(danger))


def danger_classes(contract: Contract) -> tuple[int, ...]:
    """The cards the heuristic avoids capturing, most dangerous first: those the contract names,
    else the card values that hurt (negative points, or positive ones where the lowest total
    wins), worst first.  Neighbouring classes merge when every card of the worse one outranks
    every card of the better one, since shedding the highest card of the union then sheds the
    same card (and the batch engine has fewer classes to look at)."""
    d = contract.declaration
    assert isinstance(d, TrickRules)
    if d.danger is not None:
        return tuple(m for m in d.danger if m)
    sign = 1 if game_of(contract).lowest_wins else -1
    bad = sorted((v for v in d.values if v.points * sign > 0 and v.cards),
                 key=lambda v: -abs(v.points))
    st = contract.rank_order().strength

    def key(c: Card) -> tuple[int, int]:
        return st[c.rank], -c.suit

    out: list[int] = []
    for v in bad:
        if out and min(map(key, cards_of(out[-1]))) > max(map(key, cards_of(v.cards))):
            out[-1] |= v.cards
        else:
            out.append(v.cards)
    return tuple(out)


def trick_profile(contract: Contract, seat: int) -> TrickProfile:
    """The heuristic's profile for ``seat``, read from the contract's declaration.

    A declarer who must win no trick ducks, and the defenders feed; a declarer who must win every
    trick, and the defenders, try to win.  Otherwise: avoid the danger cards if there are any;
    win tricks that score; keep high cards for a last trick that scores; else duck.
    """
    d = contract.declaration
    assert isinstance(d, TrickRules)
    if d.early_end is not None and contract.declarer is not None:
        if d.early_end is EarlyEnd.DECLARER_WINS:
            return AVOID if seat == contract.declarer else FEED
        return WIN
    danger = danger_classes(contract)
    if danger:
        return avoid(*danger)
    if d.per_trick > 0:
        return WIN
    if d.last_trick > 0:
        return KEEP
    return AVOID


def _lowest(cards: Sequence[Card], st: Sequence[int]) -> Card:
    return min(cards, key=lambda c: (st[c.rank], c.suit))


def _highest(cards: Sequence[Card], st: Sequence[int]) -> Card:
    return max(cards, key=lambda c: (st[c.rank], -c.suit))


def random_card(state: TrickView | TrickHand, r: int | None = None) -> Card:
    """The random policy's card for uniform ``r`` (32-bit; default the view's own).  An engine
    state stands for the view of its seat to play."""
    if isinstance(state, TrickHand):
        state = TrickView.of(state)
    legal = cards_of(state.legal)
    return legal[pick(state.uniform if r is None else r, len(legal))]


def heuristic_card(state: TrickView | TrickHand) -> Card:
    """The heuristic policy's card for the seat to play (an engine state stands for the view of
    its seat to play): the first of :func:`heuristic_order`."""
    return heuristic_order(state)[0]


def heuristic_order(state: TrickView | TrickHand) -> list[Card]:
    """The seat's legal cards in the heuristic's order of preference, its card first (an engine
    state stands for the view of its seat to play).

    After the heuristic's card come the cards each rule would choose next: a lead ``low`` the
    other cards that are not danger cards from the lowest up, then the danger cards from the
    lowest up; a lead ``high`` the cards from the highest down; a follow ``duck`` the cards
    below the winning card from the highest down, then those above it (from the highest down
    when playing last, else from the lowest up); a follow ``win`` the cards above it (from the
    lowest up when playing last, else from the highest down), then the others from the lowest
    up; a follow ``low`` and a discard ``low`` from the lowest up; a discard ``danger`` the
    danger classes in turn, each from its highest card down, then the others from the highest
    down; a discard ``high`` from the highest down.
    """
    if isinstance(state, TrickHand):
        return _order(state.contract, state.turn, state.hands[state.turn], state.legal_mask(),
                      state.trick, state.current_winner(), state.leader, state.players)
    return _order(state.contract, state.seat, state.hand, state.legal, state.trick,
                  state.winner, state.leader, state.players)


def heuristic_scores(state: TrickView | TrickHand) -> dict[Card, int]:
    """The heuristic's preference for each legal card: 0 for its card, -1 for the next in
    :func:`heuristic_order`, and so on down (the heuristic plays the card of the highest
    score).  A model of a player who plays like the heuristic, mostly (policy-based inference,
    :mod:`herzla.analysis.inference`, plays a card with a probability growing with its score)."""
    return {c: -i for i, c in enumerate(heuristic_order(state))}


def _order(contract: TrickContract, seat: int, hand: int, legal_mask: int,
           trick: Sequence[Card], winner: int | None, leader: int, players: int) -> list[Card]:
    st = contract.rank_order().strength

    def low(c: Card) -> tuple[int, int]:
        return st[c.rank], c.suit

    def high(c: Card) -> tuple[int, int]:
        return -st[c.rank], c.suit

    legal = cards_of(legal_mask)
    prof = trick_profile(contract, seat)
    if not trick:
        if prof.lead == "high":
            return sorted(legal, key=high)
        danger = prof.danger_cards
        return sorted(legal, key=lambda c: (danger >> c.index & 1, *low(c)))
    led = trick[0].suit
    if hand & SUIT_MASKS[led]:
        assert winner is not None
        top = st[trick[(winner - leader) % players].rank]
        last = len(trick) == players - 1
        if prof.follow == "duck":
            # below the winning card from the highest down, then above it
            return sorted(legal, key=lambda c: (0, *high(c)) if st[c.rank] < top
                          else (1, *(high(c) if last else low(c))))
        if prof.follow == "win":
            return sorted(legal, key=lambda c: (0, *(low(c) if last else high(c)))
                          if st[c.rank] > top else (1, *low(c)))
        return sorted(legal, key=low)
    if prof.discard == "danger":
        def klass(c: Card) -> int:
            for i, cls in enumerate(prof.danger):
                if cls >> c.index & 1:
                    return i
            return len(prof.danger)
        return sorted(legal, key=lambda c: (klass(c), *high(c)))
    if prof.discard == "high":
        return sorted(legal, key=high)
    return sorted(legal, key=low)


def random_lay(state: LayoutView | LayoutHand, r: int | None = None) -> Lay | None:
    """The random policy's lay for uniform ``r`` (default the view's own); None when the seat
    must pass."""
    if isinstance(state, LayoutHand):
        state = LayoutView.of(state)
    moves = state.legal_lays()
    if not moves:
        return None
    return moves[pick(state.uniform if r is None else r, len(moves))]


def _follow_ups(state: LayoutView, lay: Lay, opening: bool) -> int:
    """How many of the seat's cards fit the end ``lay`` extends, after it (a new row: either
    end)."""
    rows = state.contract.declaration.rows
    assert lay.card is not None  # a lay, not the pass
    key = rows.row_of(lay.card)
    after = state.after(lay)
    count = 0
    for c in cards_of(after.hand):
        if rows.row_of(c) != key:
            continue
        ends = after.fits(c)
        if ends and (opening or lay.end in ends):
            count += 1
    return count


def _beyond(state: LayoutView, lay: Lay, opening: bool) -> int:
    """How many of the seat's other cards of the row lie beyond the laid card in the direction
    of the lay (above it for ``+``, below for ``-``; a new row: all of them)."""
    rows = state.contract.declaration.rows
    card = lay.card
    assert card is not None  # a lay, not the pass
    key = rows.row_of(card)
    seq = rows.sequence
    here = seq.index(card.rank)
    count = 0
    for c in cards_of(state.hand):
        if c == card or rows.row_of(c) != key:
            continue
        there = seq.index(c.rank)
        if opening or (there > here if lay.end == "+" else there < here):
            count += 1
    return count


def heuristic_lay(state: LayoutView | LayoutHand) -> Lay | None:
    """The heuristic policy's lay for the seat to move; None when it must pass."""
    if isinstance(state, LayoutHand):
        state = LayoutView.of(state)
    moves = state.legal_lays()
    if not moves:
        return None
    rows = state.contract.declaration.rows
    hand = cards_of(state.hand)
    opened = state.rows

    def opening(mv: Lay) -> bool:
        assert mv.card is not None  # a lay, not the pass
        return rows.row_of(mv.card) not in opened

    if not rows.per_suit:
        def score(mv: Lay) -> tuple[int, int]:
            card = mv.card
            assert card is not None
            same = sum(1 for c in hand if c.rank == card.rank and c != card)
            return _follow_ups(state, mv, opening(mv)), -same
        return max(moves, key=score)
    return max(moves, key=lambda mv: _beyond(state, mv, opening(mv)))


def top_ranks(contract: Contract, count: int = 3) -> tuple[Rank, ...]:
    """The ``count`` highest ranks of the contract's pack in its rank order."""
    return _suits_high_to_low(contract.pack(), contract.rank_order())[1][:count]


@functools.lru_cache(maxsize=32)
def _suits_high_to_low(pack: Pack, order: RankOrder
                       ) -> tuple[tuple[tuple[int, ...], ...], tuple[Rank, ...]]:
    """Per suit, the pack's cards (bits) from the highest down; and the pack's ranks so."""
    present = {c.rank for c in pack.cards}
    ranks = tuple(r for r in order.high_to_low if r in present)
    suits = tuple(tuple(Card(s, r).bit for r in order.high_to_low if Card(s, r) in pack)
                  for s in Suit)
    return suits, ranks


def sure_winners(hand: int, contract: Contract) -> int:
    """The cards sure to win their tricks once the seat has the lead, added up over the suits.

    In a suit: the unbroken run of top cards from the highest rank down; or the whole holding
    when that run is at least as long as the other seats' cards of the suit (they are gone after
    as many rounds, the worst case being one seat holding them all).
    """
    total = 0
    for bits in _suits_high_to_low(contract.pack(), contract.rank_order())[0]:
        held = sum(1 for b in bits if hand & b)
        run = 0
        for b in bits:
            if not hand & b:
                break
            run += 1
        total += held if run >= min(held, len(bits) - held) else run
    return total


def bidding_contracts(contract: Contract) -> list[type[Contract]]:
    """The contract classes the game's bidding chooses between, in code order (the first is the
    one played when nobody announces)."""
    game = game_of(contract)
    return [contract_class(game.id, i) for i in game.bidding]


def wants_to_avoid(cls: type[Contract]) -> bool:
    """Whether a declarer's contract asks the declarer to win no trick (else every trick)."""
    return getattr(cls, "early_end", None) is EarlyEnd.DECLARER_WINS


def announce(hand: int, contract: Contract, forehand: bool = True) -> str:
    """The bidding heuristic's announcement for one hand: a contract id of the game's bidding,
    or ``pass``.

    A contract whose declarer must win no trick (Beddl) without any card of the three highest
    ranks; one whose declarer must win every trick (Mord) when every card is a sure winner
    (:func:`sure_winners`) and the seat leads to the first trick or holds every suit (else the
    first trick may be led in a suit it lacks).  The first that fits, in code order.
    """
    cards = cards_of(hand)
    tops = top_ranks(contract)
    no_top = not any(c.rank in tops for c in cards)
    all_sure = (sure_winners(hand, contract) == len(cards)
                and (forehand or len({c.suit for c in cards}) == 4))
    for cls in bidding_contracts(contract)[1:]:
        if no_top if wants_to_avoid(cls) else all_sure:
            return cls.id
    return "pass"


def announcements(hands: Sequence[int], dealer: int, contract: Contract,
                  policies: Sequence[Policy] | None = None) -> tuple[str, ...]:
    """Each seat's announcement in turn from forehand (``policies``: one a seat, default the
    bidding heuristic for all), each seat seeing its own hand and the announcements before it.
    ValueError names a policy that announces what the game's bidding does not know."""
    from herzla.players.views import BidView

    n = len(hands)
    forehand = (dealer + 1) % n
    ids = bidding_contracts(contract)
    known = ("pass", *(c.id for c in ids[1:]))
    words: list[str] = []
    for i in range(n):
        seat = (forehand + i) % n
        if policies is None:
            word = announce(hands[seat], contract, i == 0)
        else:
            word = policies[seat].announce(BidView(contract, seat, hands[seat], dealer,
                                                   tuple(words)))
            if word not in known:
                raise ValueError(f"the policy {policies[seat].spec()} announced {quote(word)} "
                                 f"(the bidding knows {', '.join(known)})")
        words.append(word)
    return tuple(words)


def bidding(hands: Sequence[int], dealer: int, contract: Contract,
            policies: Sequence[Policy] | None = None) -> tuple[str, int | None]:
    """The bidding of a hand: announcements in turn from forehand (:func:`announcements`),
    resolved by the game's contract (its ``resolve_bids`` with the contract's options).
    Returns the contract id and the declarer (None when nobody announced)."""
    return resolve(announcements(hands, dealer, contract, policies), dealer, contract)


def resolve(words: Sequence[str], dealer: int, contract: Contract) -> tuple[str, int | None]:
    """The contract id and declarer the announcements ``words`` (from forehand) settle on."""
    n = len(words)
    forehand = (dealer + 1) % n
    game = game_of(contract)
    ids = list(game.bidding)
    wants = [np.array([0 if w == "pass" else ids.index(w)], dtype=np.int8) for w in words]
    code, turn = game.resolve_bids(wants, contract.opts)
    if not code[0]:
        return ids[0], None
    return ids[int(code[0])], (forehand + int(turn[0])) % n
