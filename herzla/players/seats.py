"""A :class:`~herzla.round.Round` played by policies, one a seat: each seat to announce asks
its policy (:func:`bid_out`), each seat to move is handed its view and asks its policy, checked
(:func:`play_out`), a seat that cannot lay passing without being asked."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from herzla.hand import PASS
from herzla.players.policy import Policy, choose, decide_announce
from herzla.players.views import BidView, view_of
from herzla.round import Round

__all__ = ["bid_out", "play_out"]


def _stops(until: int | Collection[int] | None) -> Collection[int]:
    return () if until is None else (until,) if isinstance(until, int) else until


def bid_out(deal: Round, policies: Sequence[Policy],
            until: int | Collection[int] | None = None) -> None:
    """Each seat announces in turn by its policy while the bidding is on (up to the turn of
    seat ``until``, or of any of the seats ``until``), each seeing its own hand and the
    announcements before it; PolicyError names a policy that announces what the bidding
    does not know, or raises."""
    known = deal.known_bids()
    stops = _stops(until)
    while deal.bidding and (who := deal.bidder) not in stops:
        assert who is not None
        view = BidView(deal.base, who, deal.dealt[who], deal.dealer, deal.bids)
        deal.announce(decide_announce(policies[who], view, known))


def play_out(deal: Round, policies: Sequence[Policy], uniform: Callable[[int], int],
             until: int | Collection[int] | None = None) -> list[str]:
    """Each seat's policy moves until the hand is over (or it is the turn of seat ``until``,
    or of any of the seats ``until``), the
    ``k``-th move decided handed ``uniform(k)``; the moves decided, as a record writes them
    (the passes of seats with nothing to decide left out).  PolicyError names a policy that
    chose an illegal move, answered what is not a move, or raised."""
    hand = deal.hand
    assert hand is not None, "the bidding is on"
    plays: list[str] = []
    stops = _stops(until)
    while not hand.over and hand.turn not in stops:
        if hand.must_pass:  # a seat that cannot lay passes: nothing to decide
            hand._play(PASS)
            continue
        view = view_of(hand, uniform(len(plays)), deal.stock, deal.bids)
        hand._play(choose(policies[hand.turn], view, hand.check))
        plays.append(str(hand.moves[-1]))
    return plays
