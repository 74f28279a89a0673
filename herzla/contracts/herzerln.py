"""Austrian Herzerln (RULES.md §4): five trick rounds and Auflegen, in a partie of 6."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from herzla.cards import HEARTS_MASK, NATURAL, PACK_30, PACK_32, Card, Pack, Rank, RankOrder, Suit
from herzla.contracts.base import HandScore, LayoutContract, Outcome, TallyError, TrickContract

if TYPE_CHECKING:
    from herzla.tricks import TrickHand

__all__ = ["CONTRACTS"]


class _HerzerlnTricks(TrickContract):
    game: ClassVar[str] = "herzerln"
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)
    rule_ref: ClassVar[str] = "RULES.md §4"
    number: ClassVar[int] = 0
    heart_free_first_trick: ClassVar[bool] = False
    #: points per counted card, and the counted card's name (see ``counted``)
    penalty: ClassVar[int] = -1
    unit: ClassVar[str] = "card"

    def pack(self) -> Pack:
        return PACK_30 if self.players == 3 else PACK_32

    def rank_order(self) -> RankOrder:
        return NATURAL

    def banned(self, state: TrickHand, seat: int, leading: bool) -> tuple[int, str] | None:
        if self.heart_free_first_trick and not state.tricks:
            return HEARTS_MASK, "heart-free-first-trick"
        return None

    def counted(self) -> frozenset[Card]:
        """The cards this round counts."""
        return frozenset()

    def score_total(self) -> int | None:
        """RULES.md §5: every counted card is captured by someone."""
        return self.penalty * len(self.counted())

    def counts(self, outcome: Outcome) -> tuple[int, ...]:
        """How many counted cards each seat captured."""
        counted = self.counted()
        return tuple(sum(1 for c in counted if m >> c.index & 1)
                     for m in outcome.captured_cards())

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        counted = self.counted()
        what = f"{self.penalty} per {self.unit}, {self.rule_ref} round {self.number}"
        counts = self.counts(outcome)
        if sum(counts) > len(counted):
            raise TallyError(f"the {self.unit}s captured add up to {sum(counts)}, "
                             f"but the pack has {len(counted)}")
        scores = tuple(self.penalty * k for k in counts)
        lines = tuple(f"Seat {s} captured {k} {self.unit}{'s' if k != 1 else ''}: "
                      f"{self.penalty * k:+d} ({what})." for s, k in enumerate(counts) if k)
        return HandScore(scores, None, (), lines)


def _cards(*codes: str) -> frozenset[Card]:
    return frozenset(Card.from_str(c) for c in codes)


class Tricks(_HerzerlnTricks):
    id: ClassVar[str] = "tricks"
    title: ClassVar[str] = "Tricks"
    number: ClassVar[int] = 1
    summary: ClassVar[str] = "-1 per trick won"

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        tricks = outcome.trick_counts()
        if sum(tricks) != self.hand_size:
            raise TallyError(f"the tricks won add up to {sum(tricks)}, not {self.hand_size}")
        lines = tuple(f"Seat {s} won {t} trick{'s' if t != 1 else ''}: {-t:+d} (-1 per trick, "
                      f"{self.rule_ref} round 1)." for s, t in enumerate(tricks) if t)
        return HandScore(tuple(-t for t in tricks), None, (), lines)

    def score_total(self) -> int | None:
        return -self.hand_size


class Hearts(_HerzerlnTricks):
    id: ClassVar[str] = "hearts"
    title: ClassVar[str] = "Hearts"
    number: ClassVar[int] = 2
    heart_free_first_trick: ClassVar[bool] = True
    unit: ClassVar[str] = "heart"
    summary: ClassVar[str] = "-1 per heart captured; trick 1 is heart-free"

    def counted(self) -> frozenset[Card]:
        return frozenset(c for c in self.pack().cards if c.suit == Suit.H)

    def counts(self, outcome: Outcome) -> tuple[int, ...]:
        return outcome.heart_counts()  # a tally of hearts per seat is enough


class Jacks(_HerzerlnTricks):
    id: ClassVar[str] = "jacks"
    title: ClassVar[str] = "Jacks"
    number: ClassVar[int] = 3
    penalty: ClassVar[int] = -2
    unit: ClassVar[str] = "Jack"
    summary: ClassVar[str] = "-2 per Jack captured"

    def counted(self) -> frozenset[Card]:
        return frozenset(Card(s, Rank.JACK) for s in Suit)


class RedQueens(_HerzerlnTricks):
    id: ClassVar[str] = "red-queens"
    title: ClassVar[str] = "Red queens"
    number: ClassVar[int] = 4
    penalty: ClassVar[int] = -4
    unit: ClassVar[str] = "red Queen"
    summary: ClassVar[str] = "-4 per red Queen (HQ, DQ) captured"

    def counted(self) -> frozenset[Card]:
        return _cards("HQ", "DQ")


class KingOfHearts(_HerzerlnTricks):
    id: ClassVar[str] = "king-of-hearts"
    title: ClassVar[str] = "King of hearts"
    number: ClassVar[int] = 5
    penalty: ClassVar[int] = -8
    heart_free_first_trick: ClassVar[bool] = True
    unit: ClassVar[str] = "King of hearts"
    summary: ClassVar[str] = "-8 to whoever captures HK; trick 1 is heart-free"

    def counted(self) -> frozenset[Card]:
        return _cards("HK")


class Auflegen(LayoutContract):
    """Auflegen: HJ opens; rows per suit J up to A and down to 7; no wrap."""

    game: ClassVar[str] = "herzerln"
    id: ClassVar[str] = "auflegen"
    title: ClassVar[str] = "Auflegen"
    number: ClassVar[int] = 6
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)
    rule_ref: ClassVar[str] = "RULES.md §4 Auflegen"
    summary: ClassVar[str] = ("HJ opens; per-suit rows grow from their Jack up to A and down to 7; "
                              "places 20, 14, 6, 0 (3 players: 21, 14, 7)")

    def pack(self) -> Pack:
        return PACK_30 if self.players == 3 else PACK_32

    def sequence(self) -> tuple[Rank, ...]:
        return tuple(r for r in Rank if r >= Rank.SEVEN)

    def first_card(self) -> Card | None:
        return Card(Suit.H, Rank.JACK)

    def places(self) -> tuple[int, ...]:
        return (21, 14, 7) if self.players == 3 else (20, 14, 6, 0)


CONTRACTS = (Tricks, Hearts, Jacks, RedQueens, KingOfHearts, Auflegen)
