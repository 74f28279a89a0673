"""One hand interface for every deal: whose turn it is, what may be played, play, undo, copy.

Every deal of every game, whether it is played in tricks
(:class:`herzla.kinds.tricks.TrickHand`) or by laying cards out in rows
(:class:`herzla.kinds.layout.LayoutHand`), is a :class:`Hand`.  Whatever
plays, checks, draws or learns from a hand (the record replay, the simulator's reference engine,
the players' views, the OpenSpiel games, the environments, the table app) asks it through this
interface and never needs to know which engine it holds.

A :class:`Move` is one entry of a hand record's ``plays``: a card, a card laid at an end of its
row (``+`` the upper end, ``-`` the lower end) or the pass.  ``contract.new_hand(hands, dealer)``
deals a hand; ``record.start()`` does it for a record.

>>> from herzla.contracts import contract_class
>>> normal = contract_class("herzla", "normal")()
>>> hand = normal.new_hand(["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...                         "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"], dealer=3)
>>> hand.turn, [str(m) for m in hand.legal_moves()][:3]
(0, ['C7', 'CT', 'CJ'])
>>> hand.check("HA").rule
'not-in-hand'
>>> for code in "C7 CA C8 C9 SA".split():
...     _ = hand.play(code)
>>> hand.check("HA").rule, hand.turn
('follow-suit', 2)
>>> [str(m) for m in hand.moves]
['C7', 'CA', 'C8', 'C9', 'SA']
>>> _ = hand.undo(); len(hand.moves)
4
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, Self

import attrs

from herzla.cards import Card, CardError, as_card, cards_of
from herzla.errors import HerzlaError
from herzla.i18n import _

__all__ = ["PASS", "Hand", "HandNotOver", "HandScore", "Illegal", "IllegalMove", "LayoutPlay",
           "Move", "Outcome", "Trick", "TrickPlay", "as_move", "new_hand", "record_json",
           "record_of", "refuse", "register_engine", "register_reader", "written"]


@attrs.frozen(slots=True)
class Move:
    """One move: a card (``end`` None), a card laid at an end of its row (``end`` ``+`` or
    ``-``), or the pass (``card`` None).  ``str()`` writes it as a hand record does."""

    card: Card | None
    end: str | None = None

    @property
    def is_pass(self) -> bool:
        return self.card is None

    def __str__(self) -> str:
        if self.card is None:
            return "pass"
        return f"{self.card}{self.end or ''}"


#: the pass of a layout deal
PASS = Move(None)


def as_move(move: Move | Card | str) -> Move:
    """A :class:`Move` from a Move, a Card, or text as records write it (``HA``, ``D7-``,
    ``pass``); :class:`~herzla.cards.CardError` names text that is none of these."""
    if isinstance(move, Move):
        return move
    if isinstance(move, Card):
        return Move(move)
    if not isinstance(move, str):
        return Move(as_card(move))  # the TypeError that names what a card is
    text = move.strip()
    if text.lower() == "pass":
        return PASS
    if text[-1:] in ("+", "-") and len(text) > 1:
        return Move(as_card(text[:-1]), text[-1])
    try:
        return Move(as_card(text))
    except CardError:
        raise CardError(_("{text!r} is not a move (a card code, a card code with an end mark "
                          "+ or -, or pass)").format(text=text)) from None


@attrs.frozen(slots=True)
class Illegal:
    """Why a move is not allowed: the id of the illegal-play rule it breaks (one of
    :data:`herzla.contracts.vocabulary.ILLEGAL_PLAYS`, or a contract's own lead ban) and a
    sentence."""

    rule: str
    message: str


class IllegalMove(HerzlaError, ValueError):
    """A move the seat to move may not make, refused by ``play``: ``illegal`` is the
    :class:`Illegal` that ``check`` gives for it (``rule``, ``message``), ``seat`` the seat to
    move (None once the hand is over) and ``move`` the move refused.  The hand is unchanged.

    >>> from herzla.contracts import contract_class
    >>> hand = contract_class("herzla", "normal")().new_hand(
    ...     ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
    ...      "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"], dealer=3)
    >>> try:
    ...     hand.play("HA")
    ... except IllegalMove as exc:
    ...     print(exc.rule, "|", exc)
    not-in-hand | seat 0 does not hold HA (rule not-in-hand)
    >>> hand.moves
    ()
    """

    def __init__(self, illegal: Illegal, seat: int | None, move: Move) -> None:
        super().__init__(_("{message} (rule {rule})").format(message=illegal.message,
                                                             rule=illegal.rule))
        self.illegal = illegal
        self.seat = seat
        self.move = move

    @property
    def rule(self) -> str:
        """The id of the rule the move breaks (``not-in-hand``, ``follow-suit``, ...)."""
        return self.illegal.rule

    def __reduce__(self) -> tuple[Any, ...]:
        return (IllegalMove, (self.illegal, self.seat, self.move))


class HandNotOver(HerzlaError, ValueError):
    """A hand's score asked for before the hand is over."""


def refuse(hand: Hand, move: Move | Card | str, illegal: Illegal | None) -> None:
    """Raise :class:`IllegalMove` for ``move`` when ``illegal`` (what ``hand.check(move)``
    gave) names a rule it breaks: how every engine's public ``play`` refuses a move."""
    if illegal is not None:
        raise IllegalMove(illegal, None if hand.over else hand.turn, as_move(move))


@attrs.frozen(slots=True)
class Trick:
    """A trick: who led, the cards in the order played, and who won it (None while it is still
    in progress)."""

    leader: int
    cards: tuple[Card, ...]
    winner: int | None

    def to_dict(self) -> dict[str, object]:
        return {"leader": self.leader, "cards": [str(c) for c in self.cards], "winner": self.winner}


@attrs.frozen(slots=True)
class Outcome:
    """What happened in one hand, as far as scoring needs to know.

    ``captured`` holds each seat's captured cards as a bit set (trick deals); ``tricks`` the tricks
    each seat won; ``hearts`` the hearts each seat captured (derived from ``captured`` when that is
    known); ``last_winner`` the winner of the last trick; ``order`` the seats in the order they went
    out (layout deals); ``made`` says whether a declarer's contract was made, when only that is
    known (for ``herzla score``); ``out`` the seats out so far (layout deals, the deal over or
not).  A tally may give only some of these.
    """

    players: int
    captured: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None
    hearts: tuple[int, ...] | None = None
    last_winner: int | None = None
    order: tuple[int, ...] | None = None
    declarer: int | None = None
    tricks_played: int | None = None
    made: bool | None = None
    out: tuple[int, ...] | None = None


@attrs.frozen(slots=True)
class HandScore:
    """The score of one hand: each seat's amount, the stock after it, events and explanation."""

    scores: tuple[int, ...]
    stock: int | None = None
    events: tuple[str, ...] = ()
    explanation: tuple[str, ...] = ()

    def __repr__(self) -> str:
        stock = "" if self.stock is None else f", stock {self.stock}c"
        events = f", events {' '.join(self.events)}" if self.events else ""
        return (f"<HandScore scores {' '.join(f'{v:+d}' if v else '0' for v in self.scores)}"
                f"{stock}{events}>")


class Hand(Protocol):
    """A hand in progress, whatever the deal (trick or layout).

    ``hands`` are the seats' cards now and ``dealt`` those they were dealt (bit sets, seat 0
    first); ``stock`` is the stock the hand is played for (games with a stock).  ``moves`` are
    the moves made so far as a hand record writes them (a layout deal's passes written out).
    ``check`` names the rule a move breaks (None: legal); ``play`` makes a move, and refuses
    one that breaks a rule with :class:`IllegalMove` (the hand unchanged); ``legal_moves()``
    lists every legal move (the pass, where it is the only one).  ``score()`` is the finished
    hand's score (:class:`HandNotOver` before the end).  ``_play`` makes a move without checking
    it: herzla's own engines use it where the move is known to be legal (not a public name).
    ``holding(seat, cards)`` is a copy in which ``seat`` holds ``cards`` (a bit set) instead of
    its own: what a move would be with other cards, for what samples hidden cards.
    """

    @property
    def contract(self) -> Any:
        """The :class:`~herzla.contracts.Contract` the hand is played by (typed loosely here:
        the contracts sit above the hand, which they deal)."""
        ...
    @property
    def players(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def stock(self) -> int: ...
    @property
    def hands(self) -> Sequence[int]: ...
    @property
    def dealt(self) -> tuple[int, ...]: ...
    @property
    def turn(self) -> int: ...
    @property
    def over(self) -> bool: ...
    @property
    def moves(self) -> tuple[Move, ...]: ...
    @property
    def must_pass(self) -> bool:
        """True when the seat to move must pass (it has no other legal move): what
        ``check(PASS) is None`` says, cheaply."""
        ...
    @property
    def trick_place(self) -> tuple[int, int] | None:
        """Where the next card falls: its trick and its place in the trick, counted from 1
        (None in a deal without tricks)."""
        ...

    def legal_moves(self) -> list[Move]: ...
    def check(self, move: Move | Card | str) -> Illegal | None: ...
    def play(self, move: Move | Card | str) -> object: ...
    def _play(self, move: Move | Card | str) -> Trick | None:
        """:meth:`play` unchecked; the trick the move finished, if any."""
        ...
    def undo(self) -> object: ...
    def copy(self) -> Self: ...
    def holding(self, seat: int, cards: int) -> Self: ...
    def outcome(self) -> Outcome: ...
    def score(self) -> HandScore: ...
    def record(self) -> Any:
        """The hand so far as a :class:`~herzla.records.Record` (the records sit above the
        hand, which they replay)."""
        ...


class TrickPlay(Hand, Protocol):
    """A hand of a trick deal, as the contracts' hooks of play read it: the finished tricks,
    the trick in progress (led by ``leader``), the tricks each seat won and the cards it
    captured."""

    @property
    def tricks(self) -> Sequence[Trick]: ...
    @property
    def trick(self) -> Sequence[Card]: ...
    @property
    def leader(self) -> int: ...
    @property
    def won(self) -> Sequence[int]: ...
    @property
    def captured(self) -> Sequence[int]: ...

    def current_winner(self) -> int | None: ...


class LayoutPlay(Hand, Protocol):
    """A hand of a layout deal, as readers of its rows see it: the ends of its row a card may
    be laid at now (``+``, ``-``; none: it fits nowhere yet)."""

    def fits(self, card: Card) -> list[str]: ...


# -- the engines and the record reader, each registered by its own module ------------------------

_ENGINES: dict[str, Callable[..., Hand]] = {}
_READER: list[Callable[[dict[str, Any]], Any]] = []


def register_engine(kind: str, engine: Callable[..., Hand]) -> None:
    """The engine that plays deals of ``kind`` (a :class:`~herzla.contracts.DealKind`):
    :func:`herzla.kinds.register_kind` registers each kind's."""
    _ENGINES[str(kind)] = engine


def new_hand(contract: Any, hands: Sequence[Any], dealer: int | None = None,
             stock: int = 0) -> Hand:
    """A fresh hand of ``contract`` (:meth:`herzla.contracts.Contract.new_hand`)."""
    engine = _ENGINES.get(str(contract.kind))
    if engine is None:  # the facade imports both engines, so this means a broken install
        raise RuntimeError(f"no engine plays {contract.kind} deals")
    if dealer is None:
        dealer = contract.players - 1
    return engine(contract, hands, dealer, stock=stock)


def register_reader(reader: Callable[[dict[str, Any]], Any]) -> None:
    """How :meth:`Hand.record` reads the record it writes (:mod:`herzla.records` registers)."""
    _READER[:] = [reader]


def written(hand: Hand) -> dict[str, Any]:
    """The hand so far as the JSON object of a hand record (:func:`record_json`)."""
    return record_json(hand.contract, hand.dealer, hand.stock, hand.dealt, hand.moves)


def sort_hand(cards: Sequence[Card], contract: Any) -> list[Card]:
    """Cards sorted as the worked cases write them: by suit C S H D, high rank first (by the
    ``contract``'s rank order)."""
    st = contract.rank_order().strength
    return sorted(cards, key=lambda c: (c.suit, -st[c.rank]))


def record_json(contract: Any, dealer: int, stock: int | None, dealt: Sequence[int],
                plays: Sequence[Move | str], options: Mapping[str, Any] | None = None
                ) -> dict[str, Any]:
    """The JSON object of a hand record: the one writer of records (a hand's, a round's, the
    simulator's sample hands, an OpenSpiel state's).  ``contract`` is the contract played,
    ``dealt`` each seat's cards as dealt (bit sets), ``plays`` as records write them; its
    ``options`` as given (default: those that differ from their defaults), its stock is
    written where the game keeps one."""
    if options is None:
        defaults = {o.name: o.default for o in contract.options}
        options = {k: v for k, v in contract.opts.items() if defaults.get(k) != v}
    hands = [[str(c) for c in sort_hand(cards_of(mask), contract)] for mask in dealt]
    out: dict[str, Any] = {"game": contract.game, "contract": contract.id,
                           "players": contract.players, "dealer": dealer,
                           "declarer": contract.declarer}
    if contract.has_stock:
        out["stock"] = stock or 0
    out.update(options=dict(options), hands=hands, plays=[str(m) for m in plays])
    return out


def record_of(hand: Hand) -> Any:
    """The hand so far as a checked :class:`~herzla.records.Record`."""
    if not _READER:
        raise RuntimeError("herzla.records is not loaded")
    return _READER[0](written(hand))
