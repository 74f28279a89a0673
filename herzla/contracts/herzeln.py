"""Austrian Herzeln (RULES.md §3): seven trick deals and the domino deal, in a partie of 8."""

from __future__ import annotations

from typing import ClassVar

from herzla.cards import (
    ACE_TEN,
    HEARTS_MASK,
    PACK_24,
    PACK_32,
    Card,
    Pack,
    Rank,
    RankOrder,
    Suit,
    cards_of,
)
from herzla.contracts.base import (
    HandScore,
    LayoutContract,
    Outcome,
    TallyError,
    TrickContract,
)
from herzla.options import Option, OptionError

__all__ = ["HERZELN_OPTIONS", "CONTRACTS"]

HERZELN_OPTIONS: tuple[Option, ...] = (
    Option("dealer_rotation", "per-deal", ("per-deal", "per-partie"),
           doc="the deal passes clockwise after each deal, or only after the partie",
           rule="§3 partie"),
    Option("domino_suits", "any-suit", ("any-suit", "same-suit"),
           doc="the domino is one row regardless of suit, or four rows, one per suit",
           rule="§3 domino"),
    Option("domino_wrap", True, doc="Aces turn the corner in the domino (false only with "
           "same-suit rows)", rule="§3 domino"),
)


class _HerzelnTricks(TrickContract):
    game: ClassVar[str] = "herzeln"
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)
    options: ClassVar[tuple[Option, ...]] = HERZELN_OPTIONS
    rule_ref: ClassVar[str] = "RULES.md §3"
    number: ClassVar[int] = 0

    def pack(self) -> Pack:
        return PACK_24 if self.players == 3 else PACK_32

    def rank_order(self) -> RankOrder:
        return ACE_TEN

    def check_options(self) -> None:
        if self.opts["domino_wrap"] is False and self.opts["domino_suits"] == "any-suit":
            raise OptionError("option domino_wrap=false needs domino_suits=same-suit: one row "
                              "regardless of suit would block (RULES.md §3 domino)")

    #: points per trick won (every-trick, no-tricks), or for the last trick (last-trick, ...)
    per_trick: ClassVar[int] = 0
    last: ClassVar[int] = 0

    def values(self) -> dict[Card, int]:
        """The points of each card that counts when captured (card-counting deals)."""
        return {}

    def score_total(self) -> int | None:
        """RULES.md §5: the fixed total of a deal over all seats."""
        return (sum(self.values().values()) + self.per_trick * self.hand_size + self.last)

    def _per_trick(self, outcome: Outcome, points: int, what: str) -> HandScore:
        tricks = outcome.trick_counts()
        if sum(tricks) != self.hand_size:
            raise TallyError(f"the tricks won add up to {sum(tricks)}, not {self.hand_size}")
        scores = tuple(points * t for t in tricks)
        lines = tuple(f"Seat {s} won {t} trick{'s' if t != 1 else ''}: {points * t:+d} "
                      f"({points:+d} per trick, {self.rule_ref} deal {self.number}, {what})."
                      for s, t in enumerate(tricks) if t)
        return HandScore(scores, None, (), lines)

    def _last(self, outcome: Outcome, points: int) -> HandScore:
        w = outcome.last_winner
        if w is None or not 0 <= w < self.players:
            raise TallyError("this contract needs the winner of the last trick")
        scores = [0] * self.players
        scores[w] = points
        line = (f"Seat {w} won the last trick: {points:+d} ({self.rule_ref} deal {self.number}, "
                f"{self.id}).")
        return HandScore(tuple(scores), None, (), (line,))

    def _cards(self, outcome: Outcome, values: dict[Card, int], what: str) -> HandScore:
        captured = outcome.captured_cards()
        scores = [0] * self.players
        lines = []
        for s, m in enumerate(captured):
            got = [c for c in cards_of(m) if c in values]
            if got:
                scores[s] = sum(values[c] for c in got)
                lines.append(f"Seat {s} captured {' '.join(map(str, got))}: {scores[s]:+d} "
                             f"({what}, {self.rule_ref} deal {self.number}).")
        return HandScore(tuple(scores), None, (), tuple(lines))


_HEART_VALUES = {Rank.ACE: -11, Rank.TEN: -10, Rank.KING: -4, Rank.QUEEN: -3, Rank.JACK: -2,
                 Rank.NINE: -1, Rank.EIGHT: -1, Rank.SEVEN: -1}


class NoHearts(_HerzelnTricks):
    id: ClassVar[str] = "no-hearts"
    title: ClassVar[str] = "No hearts"
    number: ClassVar[int] = 1
    summary: ClassVar[str] = "each heart captured: A -11, T -10, K -4, Q -3, J -2, 9/8/7 -1"

    def values(self) -> dict[Card, int]:
        return {c: _HEART_VALUES[c.rank] for c in cards_of(self.pack().mask & HEARTS_MASK)}

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        return self._cards(outcome, self.values(),
                           "hearts A -11, T -10, K -4, Q -3, J -2, others -1")


class EveryTrick(_HerzelnTricks):
    id: ClassVar[str] = "every-trick"
    title: ClassVar[str] = "Every trick"
    number: ClassVar[int] = 2
    summary: ClassVar[str] = "+10 per trick won"
    per_trick: ClassVar[int] = 10

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        return self._per_trick(outcome, self.per_trick, "every trick")


class NoTricks(_HerzelnTricks):
    id: ClassVar[str] = "no-tricks"
    title: ClassVar[str] = "No tricks"
    number: ClassVar[int] = 3
    summary: ClassVar[str] = "-10 per trick won"
    per_trick: ClassVar[int] = -10

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        return self._per_trick(outcome, self.per_trick, "no tricks")


class NoQueens(_HerzelnTricks):
    id: ClassVar[str] = "no-queens"
    title: ClassVar[str] = "No queens"
    number: ClassVar[int] = 4
    summary: ClassVar[str] = "-20 per Queen/Ober captured"

    def values(self) -> dict[Card, int]:
        return {Card(s, Rank.QUEEN): -20 for s in Suit}

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        return self._cards(outcome, self.values(), "-20 per Queen")


class KingOfHearts(_HerzelnTricks):
    id: ClassVar[str] = "king-of-hearts"
    title: ClassVar[str] = "King of hearts"
    number: ClassVar[int] = 5
    summary: ClassVar[str] = "-40 to whoever captures HK"

    def values(self) -> dict[Card, int]:
        return {Card(Suit.H, Rank.KING): -40}

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        return self._cards(outcome, self.values(), "-40 for HK")


class LastTrick(_HerzelnTricks):
    id: ClassVar[str] = "last-trick"
    title: ClassVar[str] = "Last trick"
    number: ClassVar[int] = 6
    summary: ClassVar[str] = "+40 to the winner of trick 8"
    last: ClassVar[int] = 40

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        return self._last(outcome, self.last)


class NoLastTrick(_HerzelnTricks):
    id: ClassVar[str] = "no-last-trick"
    title: ClassVar[str] = "No last trick"
    number: ClassVar[int] = 7
    summary: ClassVar[str] = "-40 to the winner of trick 8"
    last: ClassVar[int] = -40

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        return self._last(outcome, self.last)


class Domino(LayoutContract):
    """Unteranlegen: one row regardless of suit from any Jack; Aces turn the corner."""

    game: ClassVar[str] = "herzeln"
    id: ClassVar[str] = "domino"
    title: ClassVar[str] = "Domino (Unteranlegen)"
    number: ClassVar[int] = 8
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)
    options: ClassVar[tuple[Option, ...]] = HERZELN_OPTIONS
    rule_ref: ClassVar[str] = "RULES.md §3 domino"
    summary: ClassVar[str] = ("lay cards in one row regardless of suit from a Jack, next rank up "
                              "or down, Aces turn the corner; places 0, -10, -20, -30")

    check_options = _HerzelnTricks.check_options

    def pack(self) -> Pack:
        return PACK_24 if self.players == 3 else PACK_32

    def rank_order(self) -> RankOrder:
        return ACE_TEN

    def sequence(self) -> tuple[Rank, ...]:
        low = Rank.NINE if self.players == 3 else Rank.SEVEN
        return tuple(r for r in reversed(ACE_TEN.high_to_low) if r >= low)

    def wrap(self) -> bool:
        return bool(self.opts["domino_wrap"])

    def row_of(self, card: Card) -> int:
        return int(card.suit) if self.opts["domino_suits"] == "same-suit" else 0

    def places(self) -> tuple[int, ...]:
        return (0, -10, -20) if self.players == 3 else (0, -10, -20, -30)


CONTRACTS = (NoHearts, EveryTrick, NoTricks, NoQueens, KingOfHearts, LastTrick, NoLastTrick,
             Domino)
