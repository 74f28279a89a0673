"""The children's Herzla (RULES.md §2): 3 to 8 players, 36 cards, penalty points per heart."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from herzla.cards import HEARTS_MASK, NATURAL, PACK_36, Pack, RankOrder
from herzla.contracts.base import HandScore, Outcome, TallyError, TrickContract
from herzla.options import Option

if TYPE_CHECKING:
    from herzla.tricks import TrickHand

__all__ = ["KIDS_OPTIONS", "KidsNormal"]

KIDS_OPTIONS: tuple[Option, ...] = (
    Option("heart_lead_ban_tricks", 2, doc="hearts may not be led to this many first tricks",
           rule="§2 (as §1 heart lead ban)", minimum=0),
    Option("target", 50, doc="a match ends when someone reaches this many penalty points",
           rule="§2 match", minimum=1),
    Option("hands", 0, doc="a match of this many hands instead (0: play to the target)",
           rule="§2 match", minimum=0),
)


class KidsNormal(TrickContract):
    """The only deal of the children's game: one penalty point per heart captured."""

    game: ClassVar[str] = "herzla-kids"
    id: ClassVar[str] = "normal"
    title: ClassVar[str] = "Children's Herzla"
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5, 6, 7, 8)
    options: ClassVar[tuple[Option, ...]] = KIDS_OPTIONS
    rule_ref: ClassVar[str] = "RULES.md §2"
    summary: ClassVar[str] = ("1 penalty point per heart captured; the leftover cards lie aside "
                              "and count for nobody")

    def pack(self) -> Pack:
        return PACK_36

    def rank_order(self) -> RankOrder:
        return NATURAL

    def banned(self, state: TrickHand, seat: int, leading: bool) -> tuple[int, str] | None:
        if leading and len(state.tricks) < int(self.opts["heart_lead_ban_tricks"]):
            return HEARTS_MASK, "heart-lead-ban"
        return None

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        hearts = outcome.heart_counts()
        aside = len(self.pack()) % self.players
        if sum(hearts) > 9 or min(hearts) < 0 or sum(hearts) < 9 - aside:
            lie = f"{aside} card{'s lie' if aside != 1 else ' lies'} aside"
            least = f"at least {9 - aside} (only {lie})" if aside else "9 (no card lies aside)"
            raise TallyError(f"the hearts captured add up to {sum(hearts)}; with "
                             f"{self.players} players they add up to {least}")
        lines = [f"Seat {s} captured {h} heart{'s' if h != 1 else ''}: {h} penalty point"
                 f"{'s' if h != 1 else ''} (RULES.md §2)." for s, h in enumerate(hearts) if h]
        left = 9 - sum(hearts)
        if left:
            lines.append(f"{left} heart{'s lie' if left != 1 else ' lies'} aside with the "
                         f"leftovers and count{'' if left != 1 else 's'} for nobody (RULES.md §2).")
        taken = sum(hearts)
        events = ("all-hearts",) if taken and max(hearts) == taken else ()
        return HandScore(tuple(hearts), None, events, tuple(lines))


CONTRACTS = (KidsNormal,)
