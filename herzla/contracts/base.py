"""The contract model: the base classes every deal type subclasses, and what scoring works on.

A contract is a small class with class-level metadata and a few hooks.  The hooks are documented
once, here; a game module only overrides the ones it needs.

Metadata (class attributes):

``game``, ``id``, ``title``
    The game id (``herzla``), the contract id within it (``beddl``) and a display title.
``kind``
    ``"tricks"`` (played by :mod:`herzla.tricks`) or ``"layout"`` (played by :mod:`herzla.layout`).
``player_counts``
    The numbers of seats the contract can be played with.
``options``
    The game's rule options (:class:`herzla.options.Option`), with typed defaults.  Every contract
    of one game lists the same options, so a record's options are checked against the game.
``needs_declarer``, ``has_stock``
    Whether a record names a declarer, and whether the game keeps a stock (cents).
``rule_ref``, ``summary``
    The RULES.md section and a one-line statement of the contract.

Hooks for trick deals (:class:`TrickContract`):

``pack()``, ``rank_order()``
    The cards in play for this number of players, and the order that wins tricks.
``banned(state, seat, leading)``
    Cards the seat may not lead (``leading``) or discard (not following suit) now, with the rule id;
    or ``None``.  The engine applies the escape of RULES.md §0: a ban never leaves no legal card.
``ends_early(state)``
    Called after each trick; True ends the hand before all cards are played.

Hooks for layout deals (:class:`LayoutContract`): ``sequence()``, ``wrap()``, ``row_of(card)``,
``first_card()`` and ``places()``; see that class.

The scoring hook, for both kinds:

``score(outcome, stock)``
    A :class:`HandScore` from an :class:`Outcome` (what each seat took, or the order of going out).
    It names the rule behind each amount in its explanation sentences.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from herzla.cards import (
    HEARTS_MASK,
    NATURAL,
    PACK_32,
    Card,
    Pack,
    Rank,
    RankOrder,
    cards_of,
)
from herzla.options import Option, OptionError, resolve_options

if TYPE_CHECKING:
    from herzla.tricks import TrickHand

__all__ = ["Contract", "HandScore", "LayoutContract", "Outcome", "TallyError", "TrickContract"]


class TallyError(ValueError):
    """Tallies that do not add up, or that lack what the contract needs to score."""


@attrs.frozen(slots=True)
class Outcome:
    """What happened in a hand, as far as scoring needs to know.

    ``captured`` holds each seat's captured cards as a bit set (trick deals); ``tricks`` the tricks
    each seat won; ``hearts`` the hearts each seat captured (derived from ``captured`` when that is
    known); ``last_winner`` the winner of the last trick; ``order`` the seats in the order they went
    out (layout deals); ``made`` says whether a declarer's contract was made, when only that is
    known (for ``herzla score``).
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

    def heart_counts(self) -> tuple[int, ...]:
        if self.hearts is not None:
            return self.hearts
        if self.captured is not None:
            return tuple((m & HEARTS_MASK).bit_count() for m in self.captured)
        raise TallyError("this contract needs the hearts (or captured cards) of each seat")

    def trick_counts(self) -> tuple[int, ...]:
        if self.tricks is None:
            raise TallyError("this contract needs the tricks won by each seat")
        return self.tricks

    def captured_cards(self) -> tuple[int, ...]:
        if self.captured is None:
            raise TallyError("this contract needs the cards each seat captured")
        return self.captured

    def going_out_order(self) -> tuple[int, ...]:
        if self.order is None:
            raise TallyError("this contract needs the order in which the seats went out")
        return self.order


@attrs.frozen(slots=True)
class HandScore:
    """The score of one hand: each seat's amount, the stock after it, events and explanation."""

    scores: tuple[int, ...]
    stock: int | None = None
    events: tuple[str, ...] = ()
    explanation: tuple[str, ...] = ()


def seat_list(seats: Sequence[int]) -> str:
    names = [f"seat {s}" for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def card_list(mask: int) -> str:
    return " ".join(str(c) for c in cards_of(mask))


class Contract:
    """Base of every contract.  Instances are cheap, immutable once built, and hashable by value."""

    game: ClassVar[str] = ""
    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    kind: ClassVar[str] = "tricks"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[tuple[Option, ...]] = ()
    needs_declarer: ClassVar[bool] = False
    has_stock: ClassVar[bool] = False
    rule_ref: ClassVar[str] = ""
    summary: ClassVar[str] = ""

    __slots__ = ("players", "opts", "declarer")

    def __init__(
        self,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        declarer: int | None = None,
    ) -> None:
        if players is None:
            players = self.player_counts[0]
        problem = self.player_count_problem(players)
        if problem:
            raise OptionError(problem)
        self.players: int = players
        self.opts: dict[str, bool | int | str] = resolve_options(
            self.options, options, f" for {self.game}"
        )
        self.check_options()
        if self.needs_declarer:
            if declarer is None:
                raise OptionError(f"{self.game} {self.id} needs a declarer")
            if not 0 <= declarer < players:
                raise OptionError(f"declarer {declarer} is not a seat of {players} players")
        elif declarer is not None:
            raise OptionError(f"{self.game} {self.id} has no declarer")
        self.declarer: int | None = declarer

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.players}, declarer={self.declarer})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, Contract)
            and (self.players, self.opts, self.declarer)
            == (other.players, other.opts, other.declarer)
        )

    def __hash__(self) -> int:
        return hash((type(self), self.players, tuple(sorted(self.opts.items())), self.declarer))

    @classmethod
    def player_count_problem(cls, players: int) -> str | None:
        """None if the contract is played by ``players`` seats, else a sentence saying so."""
        if players in cls.player_counts:
            return None
        counts = [str(c) for c in sorted(cls.player_counts)]
        said = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " or " + counts[-1]
        return f"{cls.game} {cls.id} is played by {said} players, not {players}"

    @classmethod
    def key(cls) -> str:
        return f"{cls.game}/{cls.id}"

    # -- hooks shared by both kinds ---------------------------------------------------------
    def check_options(self) -> None:
        """Refuse option combinations that cannot be played (raise OptionError)."""

    def pack(self) -> Pack:
        """The cards in play for ``self.players``."""
        return PACK_32

    def rank_order(self) -> RankOrder:
        return NATURAL

    @property
    def hand_size(self) -> int:
        return len(self.pack()) // self.players

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        """Score a finished hand.  ``stock`` is the stock before the hand (games with a stock)."""
        raise NotImplementedError

    def score_total(self) -> int | None:
        """What the scores of a hand always add up to over the seats (and stock), if fixed."""
        return None


class TrickContract(Contract):
    """A deal played in tricks."""

    kind: ClassVar[str] = "tricks"

    def banned(self, state: TrickHand, seat: int, leading: bool) -> tuple[int, str] | None:
        """Cards (bit set) ``seat`` may not lead or discard now, and the rule id; None for none."""
        return None

    def ends_early(self, state: TrickHand) -> bool:
        """After each trick: True ends the hand before all cards are played."""
        return False


class LayoutContract(Contract):
    """A deal played by laying cards in rows (Herzeln domino, Herzerln Auflegen).

    Rows grow from an opening Jack by the next rank up or down ``sequence()`` (low to high).
    ``row_of(card)`` names the row a card belongs to (one row for all cards, or one per suit);
    ``wrap()`` lets a row turn the corner from the highest rank to the lowest; ``first_card()``
    is the card that must open the deal (its holder moves first), or None when forehand moves first
    and any Jack opens; ``places()`` gives the points for first, second, ... place out.
    """

    kind: ClassVar[str] = "layout"
    opening_rank: ClassVar[Rank] = Rank.JACK

    def sequence(self) -> tuple[Rank, ...]:
        raise NotImplementedError

    def wrap(self) -> bool:
        return False

    def row_of(self, card: Card) -> int:
        return int(card.suit)

    def first_card(self) -> Card | None:
        return None

    def places(self) -> tuple[int, ...]:
        raise NotImplementedError

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        order = outcome.going_out_order()
        if sorted(order) != list(range(self.players)):
            raise TallyError(
                f"the order of going out must name each of the {self.players} seats once"
            )
        table = self.places()
        scores = [0] * self.players
        lines = []
        for place, seat in enumerate(order):
            scores[seat] = table[place]
            points = f"{table[place]:+d}" if table[place] else "0"
            lines.append(f"Seat {seat} went out {_ordinal(place + 1)}: {points} "
                         f"({self.rule_ref}, places by going out).")
        return HandScore(tuple(scores), None, (), tuple(lines))

    def score_total(self) -> int | None:
        return sum(self.places())


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")
