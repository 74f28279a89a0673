"""A seat's view of a trick deal when it is to play: its hand, the tricks so far and who won
them, the trick in progress, the legal cards; never another seat's cards.

>>> from herzla.contracts import contract_class
>>> from herzla.cards import mask_of, parse_cards
>>> normal = contract_class("herzla", "normal")()
>>> hands = [mask_of(parse_cards(h)) for h in (
...     "CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...     "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")]
>>> state = TrickHand(normal, hands, dealer=3)
>>> state.play(parse_cards("C7")[0])
>>> view = TrickView.of(state, uniform=0)
>>> view.seat, [str(c) for c in view.trick], view.winner
(1, ['C7'], 0)
>>> [str(m) for m in view.legal_moves()]
['CK', 'CA']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from herzla.cards import SUIT_MASKS, Card, Suit, cards_of
from herzla.contracts import TrickContract
from herzla.display import render
from herzla.hand import Illegal, Move, Trick
from herzla.i18n import _
from herzla.kinds.tricks.engine import TrickHand

__all__ = ["TrickView", "shown_voids"]


@attrs.frozen(slots=True)
class TrickView:
    """A seat's view of a trick deal when it is to play.

    ``tricks`` are the finished tricks (leader, cards, winner), ``trick`` the cards of the trick in
    progress (led by ``leader``), ``winner`` the seat winning it so far (None before the lead),
    ``legal`` the legal cards as a bit set.  ``announcements`` are the bidding's, from forehand
    (empty without bidding), ``declarer`` the contract's.
    """

    contract: TrickContract
    seat: int
    hand: int
    dealer: int
    legal: int
    tricks: tuple[Trick, ...]
    trick: tuple[Card, ...]
    leader: int
    winner: int | None
    uniform: int = 0
    stock: int = 0
    announcements: tuple[str, ...] = ()
    dealt: int = 0  # cards dealt to each seat

    @classmethod
    def of(cls, state: TrickHand, uniform: int = 0, stock: int = 0,
           announcements: tuple[str, ...] = ()) -> TrickView:
        """The view of the seat to play in ``state``."""
        seat = state.turn
        return cls(state.contract, seat, state.hands[seat], state.dealer, state.legal_mask(),
                   tuple(state.tricks), tuple(state.trick), state.leader,
                   state.current_winner(), uniform, stock, announcements, state.tricks_per_hand)

    @property
    def players(self) -> int:
        return self.contract.players

    @property
    def turn(self) -> int:
        """The seat to play: the view's own seat."""
        return self.seat

    @property
    def trick_number(self) -> int:
        return len(self.tricks) + 1

    @property
    def options(self) -> Mapping[str, Any]:
        return self.contract.opts

    def plays(self) -> list[tuple[int, Card]]:
        """Every card played so far, in order, with the seat that played it."""
        out: list[tuple[int, Card]] = []
        n = self.players
        for t in self.tricks:
            out += [((t.leader + i) % n, c) for i, c in enumerate(t.cards)]
        out += [((self.leader + i) % n, c) for i, c in enumerate(self.trick)]
        return out

    def played(self) -> int:
        """The cards played so far, as a bit set."""
        m = 0
        for _seat, c in self.plays():
            m |= c.bit
        return m

    def voids(self) -> list[frozenset[Suit]]:
        """Per seat, the suits it has shown it lacks (by not following them)."""
        return shown_voids(self.tricks, self.trick, self.leader, self.players)

    def follows(self) -> bool:
        """Whether the seat can follow the suit led (False when it leads)."""
        return bool(self.trick) and bool(self.hand & SUIT_MASKS[self.trick[0].suit])

    def legal_moves(self) -> list[Move]:
        """The seat's legal moves: its legal cards, as :meth:`herzla.players.Policy.move`
        chooses among them (as the hand's :meth:`~herzla.hand.Hand.legal_moves`)."""
        return [Move(c) for c in cards_of(self.legal)]

    def problem(self, move: Move, check: Callable[[Card], Illegal | None] | None = None
                ) -> str | None:
        """Why ``move`` may not be played on this view, in words (None: it may); ``check`` is
        the engine's, which names the rule."""
        card = move.card
        if card is not None and self.legal >> card.index & 1:
            return None
        found = check(card) if check is not None and card is not None else None
        return found.message if found is not None else (
            _("seat {seat} may play {cards}").format(
                seat=self.seat, cards=" ".join(map(str, cards_of(self.legal)))))

    def __str__(self) -> str:
        """What the seat sees, drawn as text."""
        return render("View", "text", self) or repr(self)



def shown_voids(tricks: Sequence[Trick], trick: Sequence[Card], leader: int, players: int
                ) -> list[frozenset[Suit]]:
    """Per seat, the suits it has shown it lacks by not following them, in the ``tricks``
    played and the ``trick`` in progress (led by ``leader``)."""
    out: list[set[Suit]] = [set() for _ in range(players)]
    for cards, first in [*((t.cards, t.leader) for t in tricks), (trick, leader)]:
        if not cards:
            continue
        led = cards[0].suit
        for i, c in enumerate(cards[1:], start=1):
            if c.suit != led:
                out[(first + i) % players].add(led)
    return [frozenset(s) for s in out]
