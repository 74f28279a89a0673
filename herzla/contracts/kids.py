"""The children's Herzla (game ``herzla-kids``): 3 to 8 players, 36 cards, a penalty point per
heart, a match to a target or over a number of hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs

from herzla.cards import HEARTS_MASK, NATURAL, PACK_36, Pack, RankOrder
from herzla.contracts.base import Outcome, TrickContract
from herzla.contracts.game import Game, Sheet, rule
from herzla.contracts.renege import RENEGE_OPTION
from herzla.contracts.vocabulary import (
    HEART_LEAD_BAN,
    CardValue,
    Counts,
    LeadBan,
    Settlement,
    Stock,
    TrickRules,
)
from herzla.contracts.words import plural
from herzla.i18n import N_
from herzla.options import Option

__all__ = ["KIDS_OPTIONS", "Kids", "KidsNormal"]

KIDS_OPTIONS: tuple[Option, ...] = (
    Option("heart_lead_ban_tricks", 2, doc=N_("hearts may not be led to this many first tricks"),
           rule="herzla-kids/play", names=("aufspielverbot",), minimum=0),
    Option("target", 50, doc=N_("a match ends when someone reaches this many penalty points"),
           rule="herzla-kids/match", names=("ziel",), minimum=1),
    Option("hands", 0, doc=N_("a match of this many hands instead (0: play to the target)"),
           rule="herzla-kids/match", names=("spiele",), minimum=0),
    RENEGE_OPTION,
)


class KidsNormal(TrickContract):
    """The only deal of the children's game: one penalty point per heart captured."""

    game: ClassVar[str] = "herzla-kids"
    id: ClassVar[str] = "normal"
    title: ClassVar[str] = N_("Children's Herzla")
    player_counts: ClassVar[tuple[int, ...]] = (3, 4, 5, 6, 7, 8)
    options: ClassVar[tuple[Option, ...]] = KIDS_OPTIONS
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(HEARTS_MASK, 1, N_("heart")),)
    tags: ClassVar[tuple[str, ...]] = ("Herzla",)
    topics: ClassVar[str] = "hearts penalty"
    summary: ClassVar[str] = (N_("1 penalty point per heart captured; the leftover cards lie aside "
                              "and count for nobody"))

    def pack(self) -> Pack:
        return PACK_36

    def rank_order(self) -> RankOrder:
        return NATURAL

    def declare(self) -> TrickRules:
        tricks = int(self.opts["heart_lead_ban_tricks"])
        bans = (LeadBan(HEARTS_MASK, tricks, rule=HEART_LEAD_BAN.id),) if tricks else ()
        return attrs.evolve(super().declare(), lead_bans=bans)

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        """Penalty points from the declaration; the event ``all-hearts``: one player took every
        heart that was captured."""
        settled = super().settle(counts, stock)
        hearts = counts.card_counts(HEARTS_MASK & self.pack().mask)
        taken = hearts.sum(axis=0)
        return attrs.evolve(settled, events={
            "all-hearts": (taken > 0) & (hearts.max(axis=0) == taken)})

    def explain(self, outcome: Outcome, counts: Counts, settled: Settlement,
                stock: int = 0) -> tuple[str, ...]:
        hearts = [int(h) for h in counts.card_counts(HEARTS_MASK & self.pack().mask)[:, 0]]
        lines = [f"Seat {s} captured {plural(h, 'heart')}: {plural(h, 'penalty point')} "
                 f"(rule herzla-kids/scoring)." for s, h in enumerate(hearts) if h]
        left = (HEARTS_MASK & self.pack().mask).bit_count() - sum(hearts)
        if left:
            lines.append(f"{plural(left, 'heart')} {'lie' if left != 1 else 'lies'} aside with "
                         f"the leftovers and count{'' if left != 1 else 's'} for nobody "
                         f"(rule herzla-kids/table).")
        return tuple(lines)


class Kids(Game):
    """The children's Herzla: a match to a target, or over a number of hands."""

    id: ClassVar[str] = "herzla-kids"
    title: ClassVar[str] = N_("Herzla for children")
    about: ClassVar[str] = N_("{players} players, {cards} cards, a penalty point per heart")
    brief: ClassVar[str] = N_("{players} players")
    contracts: ClassVar[tuple[type[TrickContract], ...]] = (KidsNormal,)
    sheet: ClassVar[Sheet | str] = Sheet.MATCH
    lowest_wins: ClassVar[bool] = True

    def match_over(self, totals: Sequence[int], hands: int, opts: Mapping[str, Any]) -> bool:
        if int(opts["hands"]):
            return hands >= int(opts["hands"])
        return max(totals) >= int(opts["target"])

    def match_text(self, opts: Mapping[str, Any]) -> str:
        length = f"{opts['hands']} hands" if int(opts["hands"]) else f"to {opts['target']} points"
        return f"Match: {length}; fewest points win (rule herzla-kids/match)."

    rules = (
        rule("herzla-kids/table", N_("Players, pack and leftovers"), "players pack cards deal "
             "leftovers order", "Herzla",
             N_("""The children's variant is played by {players} players with a {cards}-card pack
             (6 to A), in natural order with the 6 lowest. The cards are dealt evenly:
             {hand_sizes}. The leftovers ({leftovers}) lie aside face down and count for
             nobody."""),
             example=N_("""Case 20: 5 players, 7 cards each; HA is left over, so 8 points are taken.
             Case 21: 8 players, 4 cards each; C6 S6 H6 H7 are left over, so 7 points are
             taken."""),
             words="kinder spieler blatt karten übrige"),
        rule("herzla-kids/play", N_("Normal game only, with the heart lead ban"), "normal play "
             "bidding lead hearts lead-ban heart-lead-ban", "Herzla",
             N_("""Only the normal game is played (no bidding), with the heart lead ban: hearts may
             not be led to trick 1 or trick 2 (option heart_lead_ban_tricks), with the escape of
             rule common/escape."""), options="heart_lead_ban_tricks",
             words="normalspiel ausspielen aufspielverbot"),
        rule("herzla-kids/scoring", N_("Penalty points"), "scoring points penalty hearts normal",
             "Herzla",
             N_("""1 penalty point per heart captured. Scores are penalty points, written as
             positive numbers."""),
             example=N_("""Case 19: 3 players each capture 3 hearts: 3, 3, 3 (9 in all)."""),
             words="strafpunkte punkte herzen"),
        rule("herzla-kids/match", N_("The match"), "match target hands winner ties",
             "Herzla ruling",
             N_("""A match runs a fixed number of hands (hands) or until someone reaches the target
             (target, default 50). The fewest points win; equal totals share the win (a ruling
             on ties)."""), options="target hands",
             words="match ziel sieger"),
        rule("herzla-kids/invariants", N_("Invariants"), "invariants hearts leftovers", "Herzla",
             N_("""Hearts captured = 9 − hearts among the leftovers."""),
             words="summen"),
    )


GAME = Kids()
CONTRACTS = (KidsNormal,)
