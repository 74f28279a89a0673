"""What a seat knows for sure of the cards it has not seen, from the public play alone.

Each other seat holds as many cards as it has left to play, none of a suit it has shown it
lacks (it did not follow), and, where it led (or discarded) a banned card while a lead ban held,
nothing but banned cards then: a ban lets a seat do so only when it holds nothing else (the
escape).  :func:`constraints` gathers that knowledge for a view; the deals that keep it are
exactly the deals on which every play so far was legal.  The inference
(:mod:`herzla.analysis.inference`) draws and weighs its deals under it, and ``pimc`` draws
under it where its own quick draw finds no such deal.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from herzla.cards import SUIT_MASKS, Card, cards_of
from herzla.kinds.tricks import TrickHand
from herzla.players.views import TrickView

__all__ = ["Unseen", "constraints", "escapes", "public_replay"]


@attrs.frozen(slots=True)
class Unseen:
    """What a seat knows for sure of the cards it has not seen: ``cards`` are dealt to the
    ``holders`` (the other seats in turn, then -1 for the cards aside where the pack is not
    dealt out), holder ``i`` taking ``need[i]`` of them and none of ``forbidden[i]`` (a bit
    set); ``played`` holds each seat's cards played so far."""

    seat: int
    own: int
    cards: tuple[Card, ...]
    holders: tuple[int, ...]
    need: tuple[int, ...]
    forbidden: tuple[int, ...]
    played: tuple[int, ...]

    def seated(self, got: Sequence[int]) -> list[int]:
        """Each seat's cards as dealt, from a deal of the unseen cards to the holders."""
        hands = list(self.played)
        hands[self.seat] = self.own
        for h, cards in zip(self.holders, got, strict=True):
            if h >= 0:
                hands[h] |= cards
        return hands


def constraints(view: TrickView, bans: bool = True) -> Unseen:
    """The sure knowledge of ``view``'s seat about the unseen cards: the voids shown
    (:meth:`~herzla.players.views.TrickView.voids`) and, with ``bans``, the escapes from the
    lead bans (without: the voids alone, which need no replay of the hand)."""
    n = view.players
    plays = view.plays()
    played = [0] * n
    for s, c in plays:
        played[s] |= c.bit
    own = view.hand | played[view.seat]
    pack = view.contract.pack().mask
    unseen = cards_of(pack & ~own & ~view.played())
    dealt = view.dealt or own.bit_count()
    absent = [0] * n
    for s, suits in enumerate(view.voids()):
        for suit in suits:
            absent[s] |= SUIT_MASKS[suit] & pack
    for s, only in escapes(view) if bans else ():
        absent[s] |= pack & ~only
    others = [s for s in range(n) if s != view.seat]
    need = [dealt - played[s].bit_count() for s in others]
    forbidden = [absent[s] for s in others]
    aside = len(unseen) - sum(need)
    if aside:
        others.append(-1)
        need.append(aside)
        forbidden.append(0)
    return Unseen(view.seat, own, tuple(unseen), tuple(others), tuple(need), tuple(forbidden),
                  tuple(played))


def escapes(view: TrickView) -> list[tuple[int, int]]:
    """(seat, cards) for each other seat that led or discarded a banned card while the ban
    held: it held nothing but those cards then."""
    contract = view.contract
    if not contract.declaration.lead_bans or not view.plays():
        return []
    hand = public_replay(view)
    out = []
    for s, c in view.plays():
        if s != view.seat:
            leading = not hand.trick
            if leading or c.suit != hand.trick[0].suit:
                ban = contract.banned(hand, s, leading)
                if ban is not None and ban[0] >> c.index & 1:
                    out.append((s, ban[0]))
        hand._play(c)
    return out


def public_replay(view: TrickView) -> TrickHand:
    """The hand at its start on a deal that pads each seat's played cards with unseen ones,
    to replay the public play on (a lead ban and the heuristic's preferences read nothing
    else)."""
    contract = view.contract
    played = [0] * view.players
    for s, c in view.plays():
        played[s] |= c.bit
    own = view.hand | played[view.seat]
    spare = iter(cards_of(contract.pack().mask & ~own & ~view.played()))
    dealt = view.dealt or own.bit_count()
    hands = list(played)
    hands[view.seat] = own
    for s in range(view.players):
        while hands[s].bit_count() < dealt:
            hands[s] |= next(spare).bit
    return TrickHand(contract, hands, view.dealer, stock=view.stock)
