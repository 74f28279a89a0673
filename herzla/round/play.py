"""One deal in progress, from the bidding through the play to its score: a :class:`Round`.

A round holds the cards dealt, the dealer and the stock it is played for; the announcements
made so far and the contract they settle on (a deal without bidding starts with its contract);
the play, through the one hand interface (:class:`herzla.hand.Hand`); the score once the hand
is over, and what it carries to the next deal (:meth:`Round.stock_after`).  It can take a move
or an announcement back (:meth:`Round.undo`), be copied (:meth:`Round.copy`), and write its
record (:meth:`Round.record`).  What plays deals (the reference simulator, the table app, the
OpenSpiel games, the environments) keeps its own surface over one of these.

The bidding is the game's (``Game.bidding``, ``Game.resolve_bids``): it settles once every seat
has announced, or (``early=True``) as soon as the announcements made settle it whatever the
seats still to speak announce (:func:`settled`).

>>> from herzla.contracts import contract_class
>>> normal = contract_class("herzla", "normal")()
>>> hands = ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...          "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"]
>>> deal = Round(normal, hands, dealer=3, bidding=True)
>>> deal.phase, deal.turn
('bidding', 0)
>>> for word in ("pass", "pass", "pass", "beddl"):
...     _ = deal.announce(word)
>>> deal.contract.id, deal.contract.declarer, deal.turn
('beddl', 3, 0)
>>> [str(m) for m in deal.legal_moves()][:3], deal.check("HA").rule
(['C7', 'CT', 'CJ'], 'not-in-hand')
>>> _ = deal.play("C7"); [str(m) for m in deal.moves]
['C7']
>>> _ = deal.undo(); _ = deal.undo(); deal.phase, deal.bids
('bidding', ('pass', 'pass', 'pass'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from herzla.cards import mask_of, parse_cards
from herzla.contracts import Contract, game_of
from herzla.hand import Hand, HandNotOver, Illegal, Move
from herzla.i18n import _
from herzla.records import Record
from herzla.round.bidding import resolve, settled
from herzla.round.seating import make_contract

if TYPE_CHECKING:
    from herzla.hand import HandScore

__all__ = ["Round"]


def _contract_of(base: Contract) -> Callable[[str, int | None], Contract]:
    """How the bidding's contract is made by default: the game's contract id for the base
    contract's players and options (:func:`~herzla.round.seating.make_contract`)."""
    def make(cid: str, declarer: int | None) -> Contract:
        return make_contract(base.game, cid, base.players, base.opts, declarer)
    return make


def _masks(hands: Sequence[Any]) -> tuple[int, ...]:
    """Bit sets of hands given as bit sets, card codes or cards."""
    out = []
    for h in hands:
        if isinstance(h, int):
            out.append(h)
        else:
            out.append(mask_of(parse_cards(h) if isinstance(h, str) else list(h)))
    return tuple(out)


class Round:
    """One deal in progress (see the module notes).

    ``base`` is the deal's contract, or, with ``bidding``, the contract played when nobody
    announces (its game's bidding names the others); ``make(contract_id, declarer)`` makes the
    contract the bidding settles on (default: the game's class for the base's players and
    options).  ``bids`` are announcements already made (with ``bidding`` False: those that
    chose ``base``, for the views).  ``contract`` is None and ``hand`` None while the bidding
    is on.
    """

    __slots__ = ("base", "dealt", "dealer", "stock", "bids", "contract", "hand", "early",
                 "has_bidding", "_make")

    def __init__(self, base: Contract, dealt: Sequence[Any], dealer: int, stock: int = 0, *,
                 bidding: bool = False, early: bool = False, bids: Sequence[str] = (),
                 make: Callable[[str, int | None], Contract] | None = None) -> None:
        self.base = base
        self.dealt = _masks(dealt)
        self.dealer = dealer
        self.stock = stock
        self.bids: tuple[str, ...] = ()
        self.early = early
        #: whether the contract is the bidding's (else it was given)
        self.has_bidding = bidding
        self._make = make
        self.contract: Contract | None = None
        self.hand: Hand | None = None
        if not bidding:
            self.bids = tuple(bids)
            self._begin(base)
            return
        for word in bids:
            self.announce(word)

    def _begin(self, contract: Contract) -> None:
        self.contract = contract
        self.hand = contract.new_hand(self.dealt, self.dealer, self.stock)

    # -- where the deal stands ----------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.base.players

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def bidding(self) -> bool:
        """Whether the bidding is on (no contract yet)."""
        return self.hand is None

    @property
    def bidder(self) -> int | None:
        """The seat to announce next (None once the bidding is over)."""
        return (self.forehand + len(self.bids)) % self.players if self.hand is None else None

    @property
    def over(self) -> bool:
        return self.hand is not None and self.hand.over

    @property
    def phase(self) -> str:
        return "bidding" if self.hand is None else "over" if self.hand.over else "play"

    @property
    def turn(self) -> int | None:
        """The seat to announce or move; None once the hand is over."""
        if self.hand is None:
            return self.bidder
        return None if self.hand.over else self.hand.turn

    @property
    def moves(self) -> tuple[Move, ...]:
        """The moves of the play so far as a hand record writes them."""
        return () if self.hand is None else self.hand.moves

    @property
    def hands(self) -> tuple[int, ...]:
        """Each seat's cards now."""
        return self.dealt if self.hand is None else tuple(self.hand.hands)

    def known_bids(self) -> tuple[str, ...]:
        """What a seat may announce: ``pass`` and the contracts of the game's bidding."""
        return ("pass", *game_of(self.base).bidding[1:])

    def legal_moves(self) -> list[Move]:
        """The legal moves of the seat to move (as the hand's :meth:`~herzla.hand.Hand.
        legal_moves`); none while the bidding is on (:meth:`known_bids`) or once it is over."""
        return [] if self.hand is None else self.hand.legal_moves()

    def check(self, move: Move | str) -> Illegal | None:
        """None if the seat to move may make ``move`` now, else the rule it breaks (the hand's
        :meth:`~herzla.hand.Hand.check`); while the bidding is on no move may be made."""
        if self.hand is None:
            return Illegal("bidding", _("the bidding is on: no card may be played before it "
                                        "chooses the contract"))
        return self.hand.check(move)

    # -- moving ---------------------------------------------------------------------------------
    def announce(self, word: str) -> tuple[str, int | None] | None:
        """The seat to announce says ``word``; the contract id and declarer once that settles
        the bidding (and the play begins), else None."""
        if self.hand is not None:
            raise ValueError(_("the bidding is over"))
        self.bids = (*self.bids, word)
        if self.early:
            done = settled(self.bids, self.forehand, self.base)
        elif len(self.bids) == self.players:
            done = resolve(self.bids, self.dealer, self.base)
        else:
            done = None
        if done is not None:
            make = self._make if self._make is not None else _contract_of(self.base)
            self._begin(make(*done))
        return done

    def play(self, move: Move | str) -> object:
        """The seat to move makes ``move``; a move it may not make is refused with
        :class:`~herzla.hand.IllegalMove` (naming the rule), the deal unchanged."""
        if self.hand is None:
            raise ValueError(_("the bidding is on: announce first"))
        return self.hand.play(move)

    def undo(self) -> Move | str:
        """Take back the last move, else the last announcement (the bidding on again); the
        move or announcement taken back.  ValueError when nothing has been done."""
        if self.hand is not None and self.hand.moves:
            last = self.hand.moves[-1]
            self.hand.undo()
            return last
        if not self.has_bidding or not self.bids:
            raise ValueError(_("nothing has been done in this deal yet: nothing to take back"))
        self.contract = self.hand = None
        word = self.bids[-1]
        self.bids = self.bids[:-1]
        return word

    # -- the score and what carries -----------------------------------------------------------
    def score(self) -> HandScore:
        """The hand's score (:class:`~herzla.hand.HandNotOver` before the end)."""
        if self.hand is None:
            raise HandNotOver(_("the hand is not over: the bidding is still on"))
        return self.hand.score()  # HandNotOver before the end, saying how far the hand is

    def stock_after(self) -> int:
        """The stock the next deal is played for: what the hand's score leaves, else as it
        was."""
        after = self.score().stock
        return self.stock if after is None else after

    def record(self) -> Record:
        """The deal so far as a hand record; ValueError while the bidding is on."""
        if self.hand is None:
            raise ValueError(_("there is no hand record before the bidding chooses the contract"))
        record: Record = self.hand.record()
        return record

    def copy(self) -> Round:
        new = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(new, name, getattr(self, name))
        new.hand = None if self.hand is None else self.hand.copy()
        return new
