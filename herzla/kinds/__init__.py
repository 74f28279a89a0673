"""The kinds of deal, each a package of its own: where a new kind of deal goes.

A deal is played in tricks (:mod:`herzla.kinds.tricks`) or by laying cards out in rows
(:mod:`herzla.kinds.layout`).  What differs between the two is written once, in its kind's
package: the engine, the seat's view, the move marks, what a replay shows of the hand and how
a report words it, what the table shows an observer and how an observation encodes it.  The
kind's :class:`KindOfDeal` object holds these; :func:`register_kind` files it under its name
(a contract's ``kind``; the facade registers the two built in), and the layers above ask
:func:`kind_of` for what they need instead of asking which kind of deal they hold.

A third kind of deal is a contract class whose ``kind`` names it, an engine that plays the
one hand interface (:class:`herzla.hand.Hand`), and a :class:`KindOfDeal` registered for it:
it plays, replays and is drawn (move by move) with no other change; the solver and the batch
engine, which read one kind's own state each, refuse it with one line.

>>> from herzla.contracts import contract_class
>>> kind = kind_of(contract_class("herzeln", "domino")())
>>> kind.name, kind.words
('layout', 'layout deal')
>>> [k.name for k in kinds()][:2]  # the two built in, then any a plug-in registered
['tricks', 'layout']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

import attrs

from herzla.cards import Card, Rank
from herzla.hand import Hand, Move, Trick, register_engine

__all__ = ["KindOfDeal", "OnTable", "Plane", "Replayed", "kind_of", "kinds", "register_kind",
           "written_move"]


@attrs.frozen(slots=True)
class Replayed:
    """What a replay shows of a hand, as its kind reads it: the tricks (the one in progress last,
    without a winner) or the order the seats went out in (None where the kind has none), the
    cards each seat captured (None: the kind captures none) and the lines that say where the
    hand stands."""

    tricks: tuple[Trick, ...] | None = None
    order: tuple[int, ...] | None = None
    captured: tuple[int, ...] | None = None
    lines: tuple[str, ...] = ()


@attrs.frozen
class OnTable:
    """What a hand shows the table, for the observers (OpenSpiel's and the environments')."""

    hands: tuple[int, ...]
    #: trick deals: each trick begun, as its leader and its cards (the trick in progress last);
    #: the leader of the trick in progress (or to be led) and its cards; each seat's captured cards
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    leader: int = 0
    trick: tuple[Card, ...] = ()
    captured: tuple[int, ...] = ()
    #: layout deals: the cards laid; per row, its cards from the lower end to the upper end and
    #: the ranks its (upper, lower) ends ask for (None: not open); the seats that went out
    laid: tuple[Card, ...] = ()
    rows: tuple[tuple[Card, ...], ...] = ()
    ends: tuple[tuple[Rank | None, Rank | None] | None, ...] = ()
    out: tuple[int, ...] = ()


#: one block of an observation: its name, its shape, its lowest and highest value
Plane = tuple[str, tuple[int, ...], float, float]


class KindOfDeal(Protocol):
    """A kind of deal, as the layers above the engines ask it.

    ``name`` is the contracts' ``kind`` (``tricks``, ``layout``); ``words`` the kind in words in
    the current language; ``engine(contract, hands, dealer, stock=...)`` deals a hand on the
    kind's reference engine.  ``view`` is the view of the seat to move (``stock`` and the
    bidding's ``announcements`` where the kind reads them); ``written`` a move as a person names
    it; ``shown`` what a replay shows of a hand; ``report`` the lines of ``herzla replay`` for what
    was shown; ``json`` the kind's part of a replay's JSON answer (its ``tricks`` and ``order``);
    ``table`` what a hand shows an observer, ``rows`` the keys of the rows a deal of
    ``contract`` lays out (none where the kind lays out none).  ``planes`` are the blocks the
    kind adds to an observation of ``players`` seats over ``cards`` (the ``contracts`` of a
    table that are of the kind), and ``observe`` writes them for a hand: card sets at ``rows``
    (where each starts, the set), single entries at ``at`` (``values``), seats counted by
    ``rel`` from the observer.
    """

    @property
    def name(self) -> str: ...
    @property
    def words(self) -> str: ...
    @property
    def engine(self) -> Callable[..., Hand]: ...

    def view(self, hand: Hand, uniform: int, stock: int = 0,
             announcements: tuple[str, ...] = ()) -> Any: ...
    def written(self, hand: Hand, move: Move) -> str: ...
    def shown(self, hand: Hand) -> Replayed: ...
    def report(self, shown: Replayed) -> list[str]: ...
    def json(self, shown: Replayed) -> dict[str, Any]: ...
    def table(self, hand: Hand) -> OnTable: ...
    def rows(self, contract: Any) -> tuple[int, ...]: ...
    def planes(self, players: int, cards: int, contracts: Sequence[Any]) -> list[Plane]: ...
    def observe(self, hand: Hand, blocks: Mapping[str, tuple[int, tuple[int, ...]]],
                cards: Sequence[Card], rel: Callable[[int], int], rows: list[tuple[int, int]],
                at: list[int], values: list[float]) -> None: ...


_KINDS: dict[str, KindOfDeal] = {}


def register_kind(kind: KindOfDeal) -> None:
    """File ``kind`` under its name, and its engine with the hands (:func:`herzla.hand.new_hand`):
    the facade registers the built-in kinds; a plug-in's kind is registered the same way."""
    _KINDS[kind.name] = kind
    register_engine(kind.name, kind.engine)


def kind_of(of: Any) -> KindOfDeal:
    """The kind of deal of a contract (or contract class), a hand or a seat's view (anything with
    a ``kind`` or a ``contract``), or a kind's name; ``LookupError`` for a kind nobody
    registered."""
    try:  # a hand or a view (asked at every move: the cheap way first)
        name = of.contract.kind
    except AttributeError:
        name = of if isinstance(of, str) else of.kind
    kind = _KINDS.get(name)  # a DealKind is the string of its name
    if kind is None:
        raise LookupError(f"no kind of deal {name!s} is registered")
    return kind


def kinds() -> tuple[KindOfDeal, ...]:
    """Every registered kind of deal, in the order registered."""
    return tuple(_KINDS.values())


def written_move(hand: Hand, move: Move) -> str:
    """A move of ``hand`` as a person names it (a lay's end only where the card fits both ends of
    its row), as its kind writes it."""
    return kind_of(hand).written(hand, move)
