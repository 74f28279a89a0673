"""Austrian Herzerln (game ``herzerln``): five trick rounds and Auflegen, in a partie of 6."""

from __future__ import annotations

from typing import ClassVar

from herzla.cards import HEARTS_MASK, NATURAL, PACK_30, PACK_32, Card, Pack, Rank, RankOrder, Suit
from herzla.contracts.base import Contract, LayoutContract, TrickContract
from herzla.contracts.game import Game, Sheet, rule
from herzla.contracts.renege import RENEGE_OPTION
from herzla.contracts.vocabulary import (
    HEART_FREE_FIRST_TRICK,
    CardValue,
    LayoutRules,
    LeadBan,
    Rows,
)
from herzla.i18n import N_, npgettext
from herzla.options import Option

__all__ = ["CONTRACTS", "Herzerln"]

#: rounds 2 and 5: no heart may be led to or discarded on trick 1
HEART_FREE = LeadBan(HEARTS_MASK, 1, discards=True, rule=HEART_FREE_FIRST_TRICK.id)


class _Herzerln(Contract):
    options: ClassVar[tuple[Option, ...]] = (RENEGE_OPTION,)
    game: ClassVar[str] = "herzerln"
    player_counts: ClassVar[tuple[int, ...]] = (4, 3)

    def pack(self) -> Pack:
        return PACK_30 if self.players == 3 else PACK_32

    def rank_order(self) -> RankOrder:
        return NATURAL


class Tricks(_Herzerln, TrickContract):
    id: ClassVar[str] = "tricks"
    tags: ClassVar[tuple[str, ...]] = ("Herzerln",)
    title: ClassVar[str] = N_("Tricks")
    per_trick: ClassVar[int] = -1
    example: ClassVar[str] = N_("Case 36: tricks won 2, 3, 1, 2 score -2, -3, -1, -2.")


class Hearts(_Herzerln, TrickContract):
    id: ClassVar[str] = "hearts"
    tags: ClassVar[tuple[str, ...]] = ("Herzerln",)
    title: ClassVar[str] = N_("Hearts")
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(HEARTS_MASK, -1, N_("heart")),)
    lead_bans: ClassVar[tuple[LeadBan, ...]] = (HEART_FREE,)
    topics: ClassVar[str] = "heart-free"
    example: ClassVar[str] = N_("Case 37: hearts captured 0, 4, 3, 1 score 0, -4, -3, -1.")


class Jacks(_Herzerln, TrickContract):
    id: ClassVar[str] = "jacks"
    tags: ClassVar[tuple[str, ...]] = ("Herzerln",)
    title: ClassVar[str] = N_("Jacks")
    values: ClassVar[tuple[CardValue, ...]] = (
        CardValue(sum(Card(s, Rank.JACK).bit for s in Suit), -2, N_("Jack")),)
    topics: ClassVar[str] = "unter"
    example: ClassVar[str] = N_("Case 38: Jacks captured 1, 0, 2, 1 score -2, 0, -4, -2.")


class RedQueens(_Herzerln, TrickContract):
    id: ClassVar[str] = "red-queens"
    tags: ClassVar[tuple[str, ...]] = ("Herzerln",)
    title: ClassVar[str] = N_("Red queens")
    values: ClassVar[tuple[CardValue, ...]] = (
        CardValue(Card(Suit.H, Rank.QUEEN).bit | Card(Suit.D, Rank.QUEEN).bit, -4,
                  N_("red Queen")),)
    topics: ClassVar[str] = "queens"
    example: ClassVar[str] = N_("Case 39: seat 1 captures HQ and DQ: -8.")


class HeartKing(_Herzerln, TrickContract):
    id: ClassVar[str] = "king-of-hearts"
    tags: ClassVar[tuple[str, ...]] = ("Herzerln",)
    title: ClassVar[str] = N_("King of hearts")
    values: ClassVar[tuple[CardValue, ...]] = (
        CardValue(Card(Suit.H, Rank.KING).bit, -8, N_("King of hearts")),)
    lead_bans: ClassVar[tuple[LeadBan, ...]] = (HEART_FREE,)
    topics: ClassVar[str] = "king hk heart-free"
    example: ClassVar[str] = N_("Case 40: seat 0 captures HK in trick 8: -8.")


class Auflegen(_Herzerln, LayoutContract):
    """Auflegen: HJ opens; rows per suit J up to A and down to 7; no wrap."""

    id: ClassVar[str] = "auflegen"
    tags: ClassVar[tuple[str, ...]] = ("Herzerln",)
    title: ClassVar[str] = N_("Auflegen")
    topics: ClassVar[str] = "rows layout jacks hj pass wrap"
    summary: ClassVar[str] = (N_("HJ opens; per-suit rows grow from their Jack up to A and down to "
                              "7; a seat that cannot lay passes; places 20, 14, 6, 0 (3 "
                              "players: 21, 14, 7)"))
    example: ClassVar[str] = N_("""Case 48: seat 2 holds HJ but lays DJ: illegal,
        must-open-with-heart-jack. Case 49: with the club row at CJ alone, C9 needs CT first:
        not-adjacent. Case 44 (3 players): the black rows end at the 8. Case 41: seats go out 2,
        3, 0, 1 for 20, 14, 6, 0.""")

    def declare(self) -> LayoutRules:
        rows = Rows(tuple(r for r in Rank if r >= Rank.SEVEN), wrap=False, per_suit=True,
                    first=Card(Suit.H, Rank.JACK))
        return LayoutRules(rows, (21, 14, 7) if self.players == 3 else (20, 14, 6, 0))


class Herzerln(Game):
    """Herzerln: a partie of 6 rounds with one dealer; the most points win."""

    id: ClassVar[str] = "herzerln"
    title: ClassVar[str] = N_("Herzerln")
    about: ClassVar[str] = N_("Austrian Herzerln: a partie of {partie} ending in {last}")
    brief: ClassVar[str] = N_("{partie} ending in {last}")
    contracts: ClassVar[tuple[type[Contract], ...]] = (
        Tricks, Hearts, Jacks, RedQueens, HeartKing, Auflegen)
    partie: ClassVar[int] = 6
    sheet: ClassVar[Sheet | str] = Sheet.PARTIE
    hand_name: ClassVar[str] = "round"
    german_suits: ClassVar[tuple[str, str, str, str]] = ("Eichel", "Laub", "Herz", "Schelln")

    def hand_word(self, n: int = 1) -> str:
        """Herzerln's hands are rounds (Runden)."""
        return npgettext("hand of a partie", "round", "rounds", n)

    rules = (
        rule("herzerln/table", N_("Players, pack and rank order"), "players pack cards deal order "
             "rank natural black-sevens", "Herzerln",
             N_("""Herzerln is played by 4 players with 32 cards, 8 each, or by 3 players with 30
             cards (the black sevens C7 and S7 removed), 10 each. The order is natural: 7 8 9 T
             J Q K A (the text's 4-player list omits the 7 but says 32 cards: a typo)."""),
             words="spieler blatt karten geben reihenfolge"),
        rule("herzerln/partie", N_("The partie"), "partie rounds dealer order lead forehand",
             "Herzerln",
             N_("""A partie is {partie} in this fixed order: {partie_order}, with the same dealer;
             the deal passes clockwise only after the partie's last round. Forehand leads."""),
             words="partie runden runde geber vorhand ausspielen"),
        rule("herzerln/heart-free", N_("Heart-free first trick"), "heart-free hearts first-trick "
             "lead discard lead-ban escape king-of-hearts", "Herzerln",
             N_("""In {ban_heart_free_first_trick} no heart may be led to or discarded on trick 1,
             with the escape of rule common/escape: a player holding only hearts must play
             one. Hearts may be led from trick 2 on."""),
             example=N_("""Case 45: forehand leads HT to trick 1 while holding other suits:
             illegal, rule heart-free-first-trick. Case 46: seat 1 discards H7 on trick 1
             although it holds clubs and a diamond: illegal. Case 47: seat 1 holds only hearts,
             so it must discard one on trick 1 (the escape)."""),
             words="herzfrei herz erster-stich abwerfen ausspielen"),
        rule("herzerln/auflegen-rows", N_("Auflegen: the rows"), "auflegen rows layout jacks hj "
             "pass wrap", "Herzerln",
             N_("""The holder of HJ opens by laying it. Play then goes clockwise. Rows are per suit
             in natural order: a Jack opens its suit's row at any time; a row grows up J Q K A
             and down J T 9 8 7 by the next card of the same suit; there is no wrap. A player
             must lay a card if able, else passes."""),
             words="auflegen reihen unter herz-unter"),
        rule("herzerln/auflegen-places", N_("Auflegen: places by going out"), "auflegen places "
             "going-out order score", "Herzerln",
             N_("""Places are taken by going out, as in the domino: 20, 14, 6, 0 (3 players: 21,
             14, 7)."""),
             words="auflegen plätze ausgehen"),
        rule("herzerln/winner", N_("Zero-sum partie and winner"), "winner partie zero-sum totals",
             "Herzerln",
             N_("""A partie is zero-sum: what the trick rounds take, the last round pays back
             (rule herzerln/invariants). The most points wins."""),
             example=N_("""Cases 36-41 form one 4-player partie with totals -6, -15, 12, 9: seat 2
             wins."""),
             words="sieger gewinner partie nullsumme"),
        rule("herzerln/invariants", N_("Invariants"), "invariants totals zero-sum partie",
             "Herzerln",
             N_("""Round totals over all players, {totals}."""),
             words="summen nullsumme"),
    )


GAME = Herzerln()
CONTRACTS = GAME.contracts
