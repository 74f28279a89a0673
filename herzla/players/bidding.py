"""The bidding round: each seat announces in turn from forehand, by its policy (or the bidding
heuristic), and the game's contract settles the announcements (:func:`resolve`)."""

from __future__ import annotations

from collections.abc import Sequence

from herzla.contracts import Contract
from herzla.players.announcing import announce, bidding_contracts, resolve
from herzla.players.policy import Policy, decide_announce
from herzla.players.views import BidView

__all__ = ["announcements", "bidding", "resolve"]


def announcements(hands: Sequence[int], dealer: int, contract: Contract,
                  policies: Sequence[Policy] | None = None) -> tuple[str, ...]:
    """Each seat's announcement in turn from forehand (``policies``: one a seat, default the
    bidding heuristic for all), each seat seeing its own hand and the announcements before it.
    PolicyError (a ValueError) names a policy that announces what the game's bidding does not
    know, or raises (:func:`herzla.players.policy.decide_announce`)."""
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
            word = decide_announce(policies[seat], BidView(contract, seat, hands[seat], dealer,
                                                           tuple(words)), known)
        words.append(word)
    return tuple(words)


def bidding(hands: Sequence[int], dealer: int, contract: Contract,
            policies: Sequence[Policy] | None = None) -> tuple[str, int | None]:
    """The bidding of a hand: announcements in turn from forehand (:func:`announcements`),
    resolved by the game's contract (its ``resolve_bids`` with the contract's options).
    Returns the contract id and the declarer (None when nobody announced)."""
    return resolve(announcements(hands, dealer, contract, policies), dealer, contract)
