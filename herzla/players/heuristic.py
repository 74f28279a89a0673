"""The rules of the built-in ``random`` and ``heuristic`` policies and of the bidding heuristic,
written once on a seat's view (:mod:`herzla.players.views`); their batch forms for the numpy
engine are in :mod:`herzla.sim.batch.builtin`, and the policy objects in
:mod:`herzla.players.builtin`.

``random``
    The ``floor(u * m)``-th of the ``m`` legal moves in ascending card index order (layout deals:
    ``+`` before ``-`` for one card), ``u`` the move's uniform from :mod:`herzla.support.streams`.
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

**Bidding** (a game with bidding, Herzla, with ``contract=None``; :mod:`herzla.players.announcing`).
In turn from forehand each seat
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
>>> from herzla.players.bidding import bidding
>>> bidding(hands, 3, normal)
('beddl', 3)
>>> from herzla.kinds.tricks import TrickHand
>>> from herzla.players.views import TrickView
>>> state = TrickHand(normal, hands, dealer=3)
>>> str(heuristic_card(TrickView.of(state)))  # lead low, not a heart
'C7'
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from herzla.cards import Card, cards_of
from herzla.contracts import Contract, EarlyEnd, game_of
from herzla.contracts.vocabulary import TrickRules, trick_rules
from herzla.hand import PASS, Move
from herzla.i18n import N_
from herzla.kinds.layout import LayoutHand
from herzla.kinds.tricks import TrickHand
from herzla.players.announcing import (
    announce,
    bidding_contracts,
    resolve,
    sure_winners,
    top_ranks,
    wants_to_avoid,
)
from herzla.players.views import LayoutView, TrickView, as_view, views_of
from herzla.support.streams import pick

__all__ = [
    "WHY",
    "TrickProfile",
    "announce",
    "bidding_contracts",
    "heuristic_card",
    "heuristic_lay",
    "heuristic_laying",
    "heuristic_move",
    "heuristic_moving",
    "heuristic_order",
    "heuristic_play",
    "heuristic_scores",
    "preferred_to",
    "random_card",
    "random_lay",
    "random_move",
    "resolve",
    "sure_winners",
    "top_ranks",
    "trick_profile",
    "wants_to_avoid",
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
    return _danger_classes(contract, trick_rules(contract))


def _danger_classes(contract: Contract, d: TrickRules) -> tuple[int, ...]:
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
    d = trick_rules(contract)
    if d.early_end is not None and contract.declarer is not None:
        if d.early_end is EarlyEnd.DECLARER_WINS:
            return AVOID if seat == contract.declarer else FEED
        return WIN
    danger = _danger_classes(contract, d)
    if danger:
        return avoid(*danger)
    if d.per_trick > 0:
        return WIN
    if d.last_trick > 0:
        return KEEP
    return AVOID


def random_card(state: TrickView | TrickHand, r: int | None = None) -> Card:
    """The random policy's card for uniform ``r`` (32-bit; default the view's own).  An engine
    state stands for the view of its seat to play."""
    view = as_view(state)
    legal = cards_of(view.legal)
    return legal[pick(view.uniform if r is None else r, len(legal))]


#: why the heuristic chose its card, by the branch of its rules that chose it
WHY = {
    "only": N_("its only legal card"),
    "lead-high": N_("it leads its highest card, to win the tricks"),
    "lead-low": N_("it leads its lowest card that is not a danger card"),
    "lead-low-danger": N_("it leads its lowest card (every card it holds is a danger card)"),
    "duck": N_("it plays its highest card below the card winning the trick"),
    "duck-last": N_("it cannot stay below the winning card and plays last: its highest card, "
                    "as the trick is lost anyway"),
    "duck-low": N_("it cannot stay below the winning card: its lowest card"),
    "win-last": N_("it plays last and wins the trick with its lowest card that does"),
    "win-high": N_("it tries to win the trick with its highest card"),
    "follow-low": N_("it follows suit with its lowest card"),
    "discard-danger": N_("it cannot follow suit and sheds its highest danger card"),
    "discard-high": N_("it cannot follow suit and sheds its highest card"),
    "discard-low": N_("it cannot follow suit and throws its lowest card"),
    "lay-far": N_("it lays toward its far cards: the lay with the most of its other cards of "
                  "that row beyond it"),
    "lay-fits": N_("it lays where most of its other cards fit the same end afterwards"),
    "pass": N_("no card of its hand fits: it passes"),
    "first": N_("it knows no rule for this kind of deal: its first legal move"),
}
#: each rule's reason as a player says it to the one it advises (the table app's hint), by the
#: same keys as :data:`WHY`
SAID = {
    "only": N_("It is the only card you may play."),
    "lead-high": N_("Lead your highest card: you want the tricks."),
    "lead-low": N_("Lead your lowest card that cannot hurt you."),
    "lead-low-danger": N_("Every card you hold can hurt you: lead your lowest."),
    "duck": N_("Stay just under the card that is taking the trick."),
    "duck-last": N_("You cannot stay under it and you play last: the trick is yours anyway, "
                    "so get rid of your highest card."),
    "duck-low": N_("You cannot stay under it: play your lowest card."),
    "win-last": N_("You play last: take the trick with the lowest card that does."),
    "win-high": N_("Go for the trick with your highest card."),
    "follow-low": N_("Follow suit with your lowest card."),
    "discard-danger": N_("You cannot follow suit: get rid of your most dangerous card."),
    "discard-high": N_("You cannot follow suit: get rid of your highest card."),
    "discard-low": N_("You cannot follow suit: throw away your lowest card."),
    "lay-far": N_("Lay towards the cards you hold far out in that row."),
    "lay-fits": N_("Lay it where most of your other cards fit afterwards."),
    "pass": N_("None of your cards fits: pass."),
    "first": N_("No rule of thumb knows this kind of deal: take the first move you may make."),
}


def heuristic_card(state: TrickView | TrickHand) -> Card:
    """The heuristic policy's card for the seat to play (an engine state stands for the view of
    its seat to play): the first of :func:`heuristic_order`."""
    return heuristic_order(state)[0]


def heuristic_play(state: TrickView | TrickHand) -> tuple[Card, str]:
    """The heuristic policy's card for the seat to play and why: the key in :data:`WHY` of
    the rule that chose it."""
    view = as_view(state)
    order = _order(view)
    return order[0], "only" if len(order) == 1 else _why(view, order, view.follows())


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
    return _order(as_view(state))


def heuristic_scores(state: TrickView | TrickHand) -> dict[Card, int]:
    """The heuristic's preference for each legal card: 0 for its card, -1 for the next in
    :func:`heuristic_order`, and so on down (the heuristic plays the card of the highest
    score).  A model of a player who plays like the heuristic, mostly (policy-based inference,
    :mod:`herzla.analysis.inference`, plays a card with a probability growing with its score)."""
    return {c: -i for i, c in enumerate(heuristic_order(state))}


def _key(view: TrickView, follows: bool) -> Callable[[Card], tuple[int, int, int]]:
    """The heuristic's sort key of a card for the seat to play in ``view`` (a lead, a follow
    when ``follows``, else a discard): its order of preference is the legal cards sorted by it.
    The key reads the public position and the seat's profile alone, never the seat's cards, so
    a card's place among any legal cards is the number of cards of a lower key among them
    (:func:`preferred_to`)."""
    contract = view.contract
    st = contract.rank_order().strength
    prof = trick_profile(contract, view.seat)
    trick = view.trick

    def low(c: Card) -> tuple[int, int, int]:
        return 0, st[c.rank], c.suit

    def high(c: Card) -> tuple[int, int, int]:
        return 0, -st[c.rank], c.suit

    if not trick:
        if prof.lead == "high":
            return high
        danger = prof.danger_cards
        return lambda c: (danger >> c.index & 1, st[c.rank], c.suit)
    if follows:
        top, last = _to_beat(view, st)
        if prof.follow == "duck":
            # below the winning card from the highest down, then above it
            return lambda c: ((0, -st[c.rank], c.suit) if st[c.rank] < top
                              else (1, -st[c.rank], c.suit) if last else (1, st[c.rank], c.suit))
        if prof.follow == "win":
            # above it (from the lowest up when playing last, else from the highest down),
            # then the others from the lowest up
            return lambda c: (((0, st[c.rank], c.suit) if last else (0, -st[c.rank], c.suit))
                              if st[c.rank] > top else (1, st[c.rank], c.suit))
        return low
    if prof.discard == "danger":
        classes = prof.danger

        def klass(c: Card) -> tuple[int, int, int]:
            i = next((i for i, cls in enumerate(classes) if cls >> c.index & 1), len(classes))
            return i, -st[c.rank], c.suit
        return klass
    return high if prof.discard == "high" else low


def _to_beat(view: TrickView, st: tuple[int, ...]) -> tuple[int, bool]:
    """The strength of the card winning the trick so far, and whether the seat plays last."""
    winner = view.winner
    assert winner is not None
    return (st[view.trick[(winner - view.leader) % view.players].rank],
            len(view.trick) == view.players - 1)


def preferred_to(view: TrickView, card: Card, follows: bool) -> int:
    """The cards of the pack (a bit set) the heuristic prefers to ``card`` for the seat to play
    in ``view``'s public position, when it follows suit (``follows``) or not: among any legal
    cards that hold ``card``, its place in :func:`heuristic_order` (counted from 0) is how many
    of them are in this set.  Policy-based inference (:mod:`herzla.analysis.inference`) reads a
    card's place on many deals at once so."""
    key = _key(view, follows)
    mine = key(card)
    out = 0
    for c in view.contract.pack().cards:
        if key(c) < mine:
            out |= c.bit
    return out


def _order(view: TrickView) -> list[Card]:
    """The legal cards in the heuristic's order (the one written rule of its trick play,
    :func:`_key`); :func:`_why` names the rule that put the first one first."""
    legal = cards_of(view.legal)
    if len(legal) == 1:
        return legal
    return sorted(legal, key=_key(view, view.follows()))


def _why(view: TrickView, legal: list[Card], follows: bool) -> str:
    """The key in :data:`WHY` of the rule of :func:`_key` that chose the heuristic's card."""
    contract = view.contract
    st = contract.rank_order().strength
    prof = trick_profile(contract, view.seat)
    trick = view.trick
    if not trick:
        if prof.lead == "high":
            return "lead-high"
        danger = prof.danger_cards
        return ("lead-low" if any(not danger >> c.index & 1 for c in legal)
                else "lead-low-danger")
    if follows:
        top, last = _to_beat(view, st)
        if prof.follow == "duck":
            below = any(st[c.rank] < top for c in legal)
            return "duck" if below else "duck-last" if last else "duck-low"
        if prof.follow == "win" and any(st[c.rank] > top for c in legal):
            return "win-last" if last else "win-high"
        return "follow-low"
    if prof.discard == "danger":
        held = any(prof.danger_cards >> c.index & 1 for c in legal)
        return "discard-danger" if held else "discard-high"
    return "discard-high" if prof.discard == "high" else "discard-low"


def random_move(view: TrickView | LayoutView, r: int | None = None) -> Move:
    """The random policy's move for uniform ``r`` (default the view's own): the
    ``floor(u * m)``-th of the ``m`` legal moves, whatever the deal."""
    moves = view.legal_moves()
    return moves[pick(view.uniform if r is None else r, len(moves))]


def random_lay(state: LayoutView | LayoutHand, r: int | None = None) -> Move | None:
    """The random policy's lay for uniform ``r`` (default the view's own); None when the seat
    must pass."""
    move = random_move(as_view(state), r)
    return None if move.is_pass else move


def _follow_ups(state: LayoutView, lay: Move, opening: bool) -> int:
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


def _beyond(state: LayoutView, lay: Move, opening: bool) -> int:
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


def heuristic_moving(view: TrickView | LayoutView) -> tuple[Move, str]:
    """The heuristic policy's move on ``view`` and why: the key in :data:`WHY` of the rule that
    chose it."""
    tricks, rows = views_of(view)  # the rules differ: who wins a trick, which lay leaves most
    if tricks is not None:
        card, why = heuristic_play(tricks)
        return Move(card), why
    if rows is None:  # a kind of deal it has no rules for
        return view.legal_moves()[0], "first"
    lay, why = heuristic_laying(rows)
    return PASS if lay is None else lay, why


def heuristic_move(view: TrickView | LayoutView) -> Move:
    """The heuristic policy's move on ``view``."""
    return heuristic_moving(view)[0]


def heuristic_lay(state: LayoutView | LayoutHand) -> Move | None:
    """The heuristic policy's lay for the seat to move; None when it must pass."""
    return heuristic_laying(state)[0]


def heuristic_laying(state: LayoutView | LayoutHand) -> tuple[Move | None, str]:
    """The heuristic policy's lay for the seat to move (None: it passes) and why: the key in
    :data:`WHY` of the rule that chose it."""
    state = as_view(state)
    moves = state.lays()
    if not moves:
        return None, "pass"
    if len(moves) == 1:
        return moves[0], "only"
    rows = state.contract.declaration.rows
    hand = cards_of(state.hand)
    opened = state.rows

    def opening(mv: Move) -> bool:
        assert mv.card is not None  # a lay, not the pass
        return rows.row_of(mv.card) not in opened

    if not rows.per_suit:
        def score(mv: Move) -> tuple[int, int]:
            card = mv.card
            assert card is not None
            same = sum(1 for c in hand if c.rank == card.rank and c != card)
            return _follow_ups(state, mv, opening(mv)), -same
        return max(moves, key=score), "lay-fits"
    return max(moves, key=lambda mv: _beyond(state, mv, opening(mv))), "lay-far"
