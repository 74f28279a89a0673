"""Austrian Herzeln (game ``herzeln``): seven trick deals and the domino, in a partie of 8."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from herzla.cards import ACE_TEN, HEARTS_MASK, PACK_24, PACK_32, Card, Pack, Rank, RankOrder, Suit
from herzla.contracts.base import Contract, LayoutContract, TrickContract
from herzla.contracts.game import Game, Sheet, rule
from herzla.contracts.renege import RENEGE_OPTION
from herzla.contracts.vocabulary import CardValue, LayoutRules, Rows
from herzla.i18n import N_, _
from herzla.options import Option, OptionError

__all__ = ["CONTRACTS", "HERZELN_OPTIONS", "Herzeln"]

HERZELN_OPTIONS: tuple[Option, ...] = (
    Option("dealer_rotation", "per-deal", ("per-deal", "per-partie"),
           doc=N_("the deal passes clockwise after each deal, or only after the partie"),
           rule="herzeln/partie", names=("geberwechsel",)),
    Option("domino_suits", "any-suit", ("any-suit", "same-suit"),
           doc=N_("the domino is one row regardless of suit, or four rows, one per suit"),
           rule="herzeln/domino-options", names=("dominofarben",)),
    Option("domino_wrap", True, doc=N_("Aces turn the corner in the domino (false only with "
           "same-suit rows)"), rule="herzeln/domino-options", names=("domino_ums_eck",)),
    RENEGE_OPTION,
)


def _heart(rank: Rank) -> int:
    return Card(Suit.H, rank).bit


def _check(opts: Mapping[str, Any]) -> None:
    if opts["domino_wrap"] is False and opts["domino_suits"] == "any-suit":
        raise OptionError(_("option domino_wrap=false needs domino_suits=same-suit: one row "
                            "regardless of suit would block (rule herzeln/domino-options)"))


class _Herzeln(Contract):
    game: ClassVar[str] = "herzeln"
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)
    options: ClassVar[tuple[Option, ...]] = HERZELN_OPTIONS

    def pack(self) -> Pack:
        return PACK_24 if self.players == 3 else PACK_32

    def rank_order(self) -> RankOrder:
        return ACE_TEN

    def check_options(self) -> None:
        _check(self.opts)


class NoHearts(_Herzeln, TrickContract):
    id: ClassVar[str] = "no-hearts"
    tags: ClassVar[tuple[str, ...]] = ("Herzeln",)
    title: ClassVar[str] = N_("No hearts")
    values: ClassVar[tuple[CardValue, ...]] = (
        CardValue(_heart(Rank.ACE), -11, N_("heart")),
        CardValue(_heart(Rank.TEN), -10, N_("heart")),
        CardValue(_heart(Rank.KING), -4, N_("heart")),
        CardValue(_heart(Rank.QUEEN), -3, N_("heart")),
        CardValue(_heart(Rank.JACK), -2, N_("heart")),
        CardValue(HEARTS_MASK & ~(_heart(Rank.ACE) | _heart(Rank.TEN) | _heart(Rank.KING)
                                  | _heart(Rank.QUEEN) | _heart(Rank.JACK)), -1, N_("heart")),
    )
    topics: ClassVar[str] = "hearts"
    example: ClassVar[str] = N_("""Case 22: seat 0 takes HA H7 (-12), seat 1 HT (-10), seat 2 HK HQ
        HJ (-9), seat 3 H9 H8 (-2).""")


class EveryTrick(_Herzeln, TrickContract):
    id: ClassVar[str] = "every-trick"
    tags: ClassVar[tuple[str, ...]] = ("Herzeln",)
    title: ClassVar[str] = N_("Every trick")
    per_trick: ClassVar[int] = 10
    topics: ClassVar[str] = "tricks"
    example: ClassVar[str] = N_("Case 23: tricks won 3, 2, 2, 1 score 30, 20, 20, 10.")


class NoTricks(_Herzeln, TrickContract):
    id: ClassVar[str] = "no-tricks"
    tags: ClassVar[tuple[str, ...]] = ("Herzeln",)
    title: ClassVar[str] = N_("No tricks")
    per_trick: ClassVar[int] = -10
    topics: ClassVar[str] = "tricks"
    example: ClassVar[str] = N_("Case 24: tricks won 0, 4, 1, 3 score 0, -40, -10, -30.")


class NoQueens(_Herzeln, TrickContract):
    id: ClassVar[str] = "no-queens"
    tags: ClassVar[tuple[str, ...]] = ("Herzeln",)
    title: ClassVar[str] = N_("No queens")
    values: ClassVar[tuple[CardValue, ...]] = (
        CardValue(sum(Card(s, Rank.QUEEN).bit for s in Suit), -20, N_("Queen")),)
    topics: ClassVar[str] = "queens ober"
    example: ClassVar[str] = (N_("Case 25: seat 2 takes DQ and HQ (-40), seat 1 CQ, seat 0 SQ (-20 "
                              "each)."))


class KingOfHearts(_Herzeln, TrickContract):
    id: ClassVar[str] = "king-of-hearts"
    tags: ClassVar[tuple[str, ...]] = ("Herzeln",)
    title: ClassVar[str] = N_("King of hearts")
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(_heart(Rank.KING), -40,
                                                         N_("King of hearts")),)
    topics: ClassVar[str] = "king hk"
    example: ClassVar[str] = N_("Case 26: seat 1 wins HK in trick 2: -40.")


class LastTrick(_Herzeln, TrickContract):
    id: ClassVar[str] = "last-trick"
    tags: ClassVar[tuple[str, ...]] = ("Herzeln",)
    title: ClassVar[str] = N_("Last trick")
    last_trick: ClassVar[int] = 40
    topics: ClassVar[str] = "last"
    example: ClassVar[str] = N_("Case 27: seat 3 wins trick 8: +40.")


class NoLastTrick(_Herzeln, TrickContract):
    id: ClassVar[str] = "no-last-trick"
    tags: ClassVar[tuple[str, ...]] = ("Herzeln",)
    title: ClassVar[str] = N_("No last trick")
    last_trick: ClassVar[int] = -40
    topics: ClassVar[str] = "last"
    example: ClassVar[str] = N_("Case 28: seat 0 wins trick 8: -40.")


class Domino(_Herzeln, LayoutContract):
    """Unteranlegen: one row regardless of suit from any Jack; Aces turn the corner."""

    id: ClassVar[str] = "domino"
    tags: ClassVar[tuple[str, ...]] = ("Herzeln",)
    title: ClassVar[str] = N_("Domino (Unteranlegen)")
    topics: ClassVar[str] = "unteranlegen row layout jacks"
    summary: ClassVar[str] = N_("lay cards in one row regardless of suit from a Jack, next rank "
                                "up or down in the order 7 8 9 J Q K T A (3 players: from the "
                                "9), Aces turn the corner; a seat that cannot lay passes; "
                                "places by going out")
    example: ClassVar[str] = N_("""Case 29: seats go out 2, 0, 3, 1, scoring -10, -30, 0, -20 for
        seats 0 to 3.""")

    def declare(self) -> LayoutRules:
        low = Rank.NINE if self.players == 3 else Rank.SEVEN
        sequence = tuple(r for r in reversed(ACE_TEN.high_to_low) if r >= low)
        rows = Rows(sequence, wrap=bool(self.opts["domino_wrap"]),
                    per_suit=self.opts["domino_suits"] == "same-suit")
        return LayoutRules(rows, (0, -10, -20) if self.players == 3 else (0, -10, -20, -30))


class Herzeln(Game):
    """Herzeln: a partie of 8 deals in fixed order; the highest total wins."""

    id: ClassVar[str] = "herzeln"
    title: ClassVar[str] = N_("Herzeln")
    about: ClassVar[str] = N_("Austrian Herzeln: a partie of {partie} ending in the {last}")
    brief: ClassVar[str] = N_("{partie} ending in the {last}")
    contracts: ClassVar[tuple[type[Contract], ...]] = (
        NoHearts, EveryTrick, NoTricks, NoQueens, KingOfHearts, LastTrick, NoLastTrick, Domino)
    partie: ClassVar[int] = 8
    sheet: ClassVar[Sheet | str] = Sheet.PARTIE
    german_suits: ClassVar[tuple[str, str, str, str]] = ("Eichel", "Laub", "Herz", "Schelln")

    def dealer(self, first: int, index: int, players: int, opts: Mapping[str, Any]) -> int:
        if opts.get("dealer_rotation", "per-deal") == "per-deal":
            return (first + index) % players
        return first

    def rotation_text(self, opts: Mapping[str, Any]) -> str:
        """The option that names the rotation."""
        return f"dealer_rotation={opts.get('dealer_rotation', 'per-deal')}"

    rules = (
        rule("herzeln/table", N_("Players, pack and rank order"), "players pack cards deal order "
             "rank ace-ten faces", "Herzeln",
             N_("""Herzeln is played by 3 players with 24 French cards (A T K Q J 9), or by 4
             players with 32 cards (7 to A), German or French faces. The rank order is ace-ten
             (A T K Q J 9 8 7). 8 cards each."""),
             words="spieler blatt karten geben reihenfolge sau-zehner"),
        rule("herzeln/partie", N_("The partie"), "partie deals dealer rotation order lead forehand",
             "Herzeln ruling",
             N_("""A partie is {partie} in this fixed order: {partie_order}. Forehand leads. The
             deal passes clockwise after each deal (a ruling; with dealer_rotation=per-partie it
             passes after the partie). There are no lead restrictions. Every deal is played
             out."""), options="dealer_rotation",
             words="partie touren tour geber vorhand ausspielen"),
        rule("herzeln/domino-row", N_("Domino: one row regardless of suit"), "domino row layout "
             "jacks unteranlegen", "Herzeln",
             N_("""The domino (Unteranlegen) is a single row built regardless of suit: a card
             fits an end by its rank alone, whatever its suit. Forehand moves first. The row is
             opened with any Jack; a player who holds no Jack passes. After that, a card may be
             laid at the upper end if its rank is the next higher rank than that end's card, or
             at the lower end if it is the next lower rank, in the game's rank order (7 8 9 J Q K
             T A)."""),
             options="domino_suits",
             words="domino unteranlegen reihe unter auslegen"),
        rule("herzeln/domino-corner", N_("Domino: Aces turn the corner"), "domino corner wrap aces "
             "cycle block", "Herzeln",
             N_("""Aces "turn the corner": the order is a cycle, so above an Ace comes the lowest
             rank (7, or 9 with 3 players) and below the lowest rank comes an Ace. With every
             card dealt the row cannot block."""), options="domino_wrap",
             example=N_("""Case 29 (4 players): SA is laid below H7, and sevens above Aces. Case 31
             (3 players): the cycle is 9 J Q K T A, and an Ace goes below a 9."""),
             words="domino ecke sau kreis"),
        rule("herzeln/domino-ends", N_("Domino: choosing the end"), "domino ends marks upper lower",
             "Herzeln",
             N_("""When both ends ask for the same rank, the player chooses the end. A hand record
             writes + for the upper end or - for the lower end after the card (e.g. "C7-"); with
             no mark the card goes to the upper end. A mark naming an end the card does not fit
             is illegal (not-adjacent); a mark on the Jack that opens the row has no effect."""),
             example=N_("""Case 57: C7 is the 8th card of the row 8 9 J Q K T A and fits both ends;
             written C7- it goes below the 8 and the seats go out 3, 1, 2, 0. Case 58: D8+ names
             the upper end, which an 8 does not fit: not-adjacent."""),
             words="domino ende enden"),
        rule("herzeln/domino-must-lay", N_("Domino: lay if able, else pass"), "domino pass "
             "must-play-if-able", "ruling",
             N_("""A player must lay a card if able, else passes (a ruling)."""),
             example=N_("""Case 34: after DJ opens the row, seat 1 passes although it holds HQ and
             H9: illegal, rule must-play-if-able."""),
             words="domino legen passen"),
        rule("herzeln/domino-places", N_("Domino: places by going out"), "domino places going-out "
             "order score", "Herzeln ruling",
             N_("""The first player out takes first place; play goes on until one player is left,
             who takes last place. Places score 0, −10, −20, −30 (3 players: 0, −10, −20, a
             ruling)."""),
             words="domino plätze ausgehen"),
        rule("herzeln/domino-options", N_("Domino options: suits and wrap"), "domino options suits "
             "same-suit any-suit rows wrap corner malformed", "ruling",
             N_("""domino_suits=any-suit|same-suit: with same-suit there are four rows, one per
             suit, each opened by its Jack, and a row's cards follow suit.
             domino_wrap=true|false: false is only allowed with same-suit rows, where a row then
             ends at the Ace and at the lowest card; with one row regardless of suit it would
             block, so that combination is refused as malformed."""),
             options="domino_suits domino_wrap",
             words="domino optionen farben ecke"),
        rule("herzeln/winner", N_("Winning the partie"), "winner partie totals ties zero-sum",
             "Herzeln",
             N_("""The partie's winner has the highest total; equal totals share. Totals are not
             zero-sum."""),
             example=N_("""Cases 22-29 form one 4-player partie with totals -52, -120, -39, -2: seat
             3 wins."""),
             words="sieger gewinner partie summen"),
        rule("herzeln/invariants", N_("Invariants"), "invariants totals partie", "Herzeln",
             N_("""Deal totals over all players, {totals}."""),
             words="summen nullsumme"),
    )


GAME = Herzeln()
CONTRACTS = GAME.contracts
