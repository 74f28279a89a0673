"""The rule book as data, and ``herzla rules [GAME] [TOPIC]``.

Every rule of RULES.md §0-§5 is a :class:`Rule`: its game (or ``common``), the topic words it
answers to, a title, the rule text, its source tags and the names of the options that change it.
The options themselves (values, default, effect) are read from the contract classes' ``options``,
so the rule book and the engine cannot drift apart.  Contracts that a plug-in adds get an entry
made from their class metadata (``title``, ``summary``, ``rule_ref``, ``options``).

>>> [r.title for r in find("herzeln", "corner")]
['Domino: Aces turn the corner', 'Domino options: suits and wrap']
>>> [r.id for r in find("herzla", "schleichermord")]
['herzla/schleichermord']
>>> find("herzla", "trumps")[0].id
'common/trick-play'
"""

from __future__ import annotations

import contextlib
import difflib
import json
import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Any

import attrs
import click

from herzla.clitools import fail
from herzla.contracts import BUILTIN_MODULES, Contract, contracts_of, game_options, games
from herzla.options import Option

__all__ = [
    "BOOK",
    "COMMON",
    "GAMES",
    "Rule",
    "UnknownTopic",
    "entries",
    "find",
    "known_games",
    "option_json",
    "resolve_option",
    "rule_json",
    "rules_command",
    "topics_of",
]

COMMON = "common"
WIDTH = 79

#: the source tags of RULES.md, as printed
SOURCES = {
    "Herzla": "[Herzla]",
    "Herzeln": "[Herzeln]",
    "Herzerln": "[Herzerln]",
    "family": "[family]",
    "ruling": "[ruling]",
    "plug-in": "[plug-in]",
}


class UnknownTopic(LookupError):
    """No rule of the game answers to the topic."""


@attrs.frozen(slots=True)
class Rule:
    """One rule of the book.

    ``options`` names the options that change the rule: ``name`` for an option of the rule's own
    game, ``game:name`` for another game's (the common ground names the games' options that way).
    ``example`` gives worked numbers (from the worked cases and RULES.md §5), or is empty.
    """

    id: str
    game: str
    section: str
    title: str
    topics: tuple[str, ...]
    text: str
    sources: tuple[str, ...]
    options: tuple[str, ...] = ()
    example: str = ""
    origin: str = "RULES.md"

    def option_refs(self) -> list[tuple[str, str]]:
        """(game, option name) for each option named."""
        out = []
        for ref in self.options:
            game, sep, name = ref.partition(":")
            out.append((game, name) if sep else (self.game, ref))
        return out


def _r(id: str, section: str, title: str, topics: str, sources: str, text: str,
       options: str = "", example: str = "") -> Rule:
    game, _, _ = id.partition("/")
    return Rule(id, game, section, title, tuple(topics.split()), " ".join(text.split()),
                tuple(sources.split()), tuple(options.split()), " ".join(example.split()))


# -- the book ---------------------------------------------------------------------------------
# The texts follow RULES.md sentence by sentence; the numbers are RULES.md's.  Topic words are
# what a player might type: contract ids, the rule's own words, and the words of its options.

_COMMON = (
    _r("common/suits", "§0", "Cards: suits and faces", "cards suits faces german french "
       "acorns leaves bells eichel gras schellen clubs spades diamonds", "family",
       """Suits map between the German and French faces as in Skat: Acorns/Eichel = Clubs/Kreuz
       (C), Leaves/Gras/Grün = Spades/Pik (S), Hearts/Herz (H), Bells/Schellen = Diamonds/Karo
       (D). Ranks: Ace/Sau/Daus (A), King (K), Ober/Queen/Dame (Q), Unter/Jack/Bube (J), Ten (T),
       9, 8, 7, 6."""),
    _r("common/card-codes", "§0", "Card codes", "cards codes spelling input", "ruling",
       """Card codes are suit then rank: HA, CT, SQ, D7 (spec/cards.md). Output always uses the
       canonical upper-case code. Input is case-insensitive, accepts 10 for T, and also full names
       in English or German and the suit symbols, as long as none is ambiguous. A list of cards is
       written with spaces or commas: "HA HT SK". Anything else is an error that names the
       offending text."""),
    _r("common/rank-orders", "§0", "Rank orders", "order rank natural ace-ten",
       "Herzla Herzeln Herzerln",
       """Rank orders, high to low, for winning tricks: natural is A K Q J T 9 8 7 (6), used by
       Herzla and Herzerln; ace-ten is A T K Q J 9 8 7, used by Herzeln.""",
       options="herzla:rank_order"),
    _r("common/seats", "§0", "Seats, dealer and forehand", "seats dealer forehand clockwise deal",
       "Herzla Herzeln Herzerln",
       """Seats are numbered 0 .. n-1 clockwise. The dealer is a seat; forehand is the seat after
       the dealer and plays first. Dealing and play go clockwise. A hand record names the dealer;
       without one, the dealer is the last seat."""),
    _r("common/trick-play", "§0", "Trick play", "tricks play lead follow farbzwang "
       "stichzwang trumps winner", "Herzla Herzeln Herzerln",
       """There are no trumps. The leader may lead any card unless a lead ban applies. The others
       must follow the led suit if they can (Farbzwang); a player who cannot follow may play any
       card. There is no obligation to win the trick (no Stichzwang). The highest card of the led
       suit wins; the winner leads the next trick."""),
    _r("common/escape", "§0", "Lead bans have an escape", "escape lead-ban lead hearts discard "
       "only-hearts heart-lead-ban heart-free", "family ruling",
       """Wherever a rule forbids leading (or discarding) hearts and the player holds nothing but
       hearts, the player must play a heart. A ban never leaves a player without a legal
       card."""),
    _r("common/options", "§0", "Rule options", "options rulings", "ruling",
       """Every ruling has a named option so a table that plays it differently can say so. Option
       names are the ones users type: --option name=value on the command line, "options":
       {"name": value} in a hand record. Where an option lists its values (name=a|b), the first
       is the default. Booleans are JSON true/false (or "true"/"false" on the command line). An
       unknown option name or value is malformed input."""),
    _r("common/conservation", "§5", "Cards are conserved", "invariants conservation cards "
       "leftovers", "ruling",
       """Cards are conserved: every card of the pack is in exactly one place (a hand, a trick,
       the row, the leftovers)."""),
)

_HERZLA = (
    _r("herzla/table", "§1", "Players, pack and rank order", "players pack cards deal order rank "
       "natural ace-ten", "Herzla",
       """Herzla is played by 4 players with a 32-card German-suited pack (7 to A), in natural
       order (A K Q J T 9 8 7), 8 cards each. The Herzla body text gives the natural order; its
       infobox's ace-ten order is an error, which a table can still play with
       rank_order=ace-ten.""", options="rank_order"),
    _r("herzla/contracts", "§1", "Contracts: normal, beddl, mord", "contracts normal beddl mord "
       "declarer defenders", "Herzla",
       """There are three contracts: normal, beddl (the declarer wins no trick) and mord (the
       declarer wins every trick). The successful bidder is the declarer against 3 defenders; if
       nobody bids, a normal game is played."""),
    _r("herzla/bidding", "§1", "Bidding", "bidding bid announce priority beddl mord "
       "declarer pass", "Herzla ruling",
       """Starting with forehand and going clockwise, each player may announce Beddl or Mord or
       pass. The first announcement wins outright (positional priority); the procedure is a
       ruling. With contract_priority=mord-over-beddl a later Mord outbids an earlier Beddl.""",
       options="contract_priority"),
    _r("herzla/lead", "§1", "Forehand leads", "lead forehand first-trick normal beddl mord",
       "Herzla ruling",
       """Forehand leads to the first trick in every contract (Herzla; a ruling for the
       contracts)."""),
    _r("herzla/heart-lead-ban", "§1", "Heart lead ban", "hearts lead lead-ban heart-lead-ban "
       "discard first-trick beddl mord", "Herzla",
       """Hearts may not be led to trick 1 or trick 2, in every contract; discarding hearts is
       allowed. A player who holds nothing but hearts must lead one all the same (the escape of
       §0).""", options="heart_lead_ban_tricks heart_lead_ban_in_contracts",
       example="""Case 07: seat 0 holds nothing but hearts when it leads trick 2, so it leads
       one. Case 13: seat 1 leads a heart to trick 2 while holding clubs, spades and diamonds:
       illegal, rule heart-lead-ban."""),
    _r("herzla/early-end", "§1", "Early end", "early-end end early beddl mord normal made lost "
       "hand-over", "Herzla",
       """Beddl ends the moment the declarer wins a trick (lost). Mord ends the moment a defender
       wins a trick (lost). Otherwise the contract is made after trick 8. A normal game is always
       played out.""",
       example="""Case 09: Beddl by seat 3 ends when seat 3 wins trick 7. Case 11: Mord by seat 1
       ends when seat 2, a defender, wins trick 4."""),
    _r("herzla/settlement", "§1", "Normal-game settlement", "settlement normal hearts void takers "
       "cents stock payment", "Herzla",
       """The normal game is settled in cents, with the stock (pot) as an account of its own. The
       void players are those who captured no heart, the takers the others; every taker pays 10c
       per heart captured. Where the payments go depends on the number of void players (1, 2, 3
       or 0).""", options="heart_unit"),
    _r("herzla/one-void", "§1", "Settlement with 1 void player",
       "one-void void settlement normal hearts",
       "Herzla",
       """With 1 void player, the takers' payments go to the void player (80c in all).""",
       options="heart_unit",
       example="""Case 02: seat 0 alone is void and collects the takers' 30c + 30c + 20c = 80c,
       and the stock of 80c besides: 160, -30, -30, -20."""),
    _r("herzla/two-void", "§1", "Settlement with 2 void players", "two-void void settlement "
       "normal hearts split", "Herzla",
       """With 2 void players, the takers' payments are pooled and split equally: 40c each.""",
       options="heart_unit",
       example="""Case 01: seats 0 and 3 are void and split the takers' 30c + 50c, 40c each:
       40, -30, -50, 40."""),
    _r("herzla/all-hearts", "§1", "All hearts to one player (3 void players)", "all-hearts "
       "three-void void settlement normal hearts stock", "Herzla",
       """With 3 void players (one player captured all 8 hearts), that player pays 80c to the
       stock.""", options="heart_unit",
       example="""Case 04: seat 2 captures all 8 hearts without winning every trick: 0, 0, -80,
       0, and the stock grows from 0c to 80c."""),
    _r("herzla/no-void", "§1", "No void player", "no-void void settlement normal hearts stock",
       "ruling",
       """With 0 void players, every player pays 10c per heart into the stock (80c in all). This
       is a ruling, after the Hearts "Jack"; with no_void=no-payment nobody pays.""",
       options="no_void heart_unit",
       example="""Case 05: every seat captures 2 hearts and pays 20c into the stock, which grows
       from 80c to 160c."""),
    _r("herzla/stock-payout", "§1", "Stock payout", "stock pot payout carry void normal", "ruling",
       """The stock carries over. In the next normal game with exactly 1 void player, that player
       also collects the whole stock; with 2 void players they split it equally (an odd cent stays
       in the stock). With stock_payout=never the stock is left untouched. Beddl, Mord and
       Schleichermord leave the stock alone.""", options="stock_payout",
       example="""Case 03: with 160c in the stock, the two void players split the takers' 80c
       and the stock: 120, -30, -50, 120, and the stock is 0c. Case 18: with stock_payout=never
       the lone void player collects only the takers' 80c and the stock stays at 80c."""),
    _r("herzla/schleichermord", "§1", "Schleichermord", "schleichermord sneaky mord normal "
       "slam stock", "Herzla ruling",
       """Schleichermord ("sneaky Mord"): in a normal game, a player who wins all 8 tricks without
       having announced it collects 80c from each opponent; this replaces the heart settlement
       (and the all-hearts-to-stock payment). The 80c from each opponent is a ruling, since 80c
       does not split three ways.""", options="contract_stake",
       example="""Case 06: forehand wins all 8 tricks unannounced: 240, -80, -80, -80; the
       stock of 80c is untouched."""),
    _r("herzla/contract-settlement", "§1", "Contracts won and lost", "beddl mord settlement made "
       "lost declarer defenders stake stock", "Herzla",
       """Beddl or Mord made: each defender pays the declarer 80c. Lost: the declarer pays each
       defender 80c. The stock is left alone.""", options="contract_stake",
       example="""Case 08: Beddl made by seat 3: -80, -80, -80, 240. Case 09: Beddl lost by
       seat 3: 80, 80, 80, -240. Case 11: Mord lost by seat 1: 80, -240, 80, 80."""),
    _r("herzla/amounts", "§1", "Amounts: heart unit and contract stake",
       "amounts unit cents stake "
       "options", "ruling",
       """heart_unit (10): every heart amount scales with it, so the all-hearts payment is 8
       units. contract_stake (80): what each defender pays or receives in Beddl and Mord, and
       also the Schleichermord payment per opponent.""", options="heart_unit contract_stake"),
    _r("herzla/invariants", "§5", "Invariants", "invariants zero-sum stock hearts beddl mord",
       "Herzla",
       """Every hand is zero-sum over the players and the stock together. In a normal game 8
       hearts are captured, and players + stock sum to 0 in every hand. Beddl and Mord: the
       declarer scores ±240, each defender ∓80."""),
)

_KIDS = (
    _r("herzla-kids/table", "§2", "Players, pack and leftovers",
       "players pack cards deal leftovers order",
       "Herzla",
       """The children's variant is played by 3 to 8 players with a 36-card pack (6 to A), in
       natural order with the 6 lowest. The cards are dealt evenly: 12 each with 3 players, 9
       with 4, 7 with 5, 6 with 6, 5 with 7 and 4 with 8. The leftovers (with 5, 7 and 8 players:
       1, 1 and 4 cards) lie aside face down and count for nobody.""",
       example="""Case 20: 5 players, 7 cards each; HA is left over, so 8 points are taken.
       Case 21: 8 players, 4 cards each; C6 S6 H6 H7 are left over, so 7 points are taken."""),
    _r("herzla-kids/play", "§2", "Normal game only, with the heart lead ban",
       "normal play bidding "
       "lead hearts lead-ban heart-lead-ban", "Herzla",
       """Only the normal game is played (no bidding), with the heart lead ban: hearts may not be
       led to trick 1 or trick 2 (option heart_lead_ban_tricks), with the escape of §0.""",
       options="heart_lead_ban_tricks"),
    _r("herzla-kids/scoring", "§2", "Penalty points", "scoring points penalty hearts normal",
       "Herzla",
       """1 penalty point per heart captured. Scores are penalty points, written as positive
       numbers.""",
       example="""Case 19: 3 players each capture 3 hearts: 3, 3, 3 (9 in all)."""),
    _r("herzla-kids/match", "§2", "The match", "match target hands winner ties", "Herzla ruling",
       """A match runs a fixed number of hands (hands) or until someone reaches the target
       (target, default 50). The fewest points win; equal totals share the win (a ruling on
       ties).""", options="target hands"),
    _r("herzla-kids/invariants", "§5", "Invariants", "invariants hearts leftovers",
       "Herzla",
       """Hearts captured = 9 − hearts among the leftovers."""),
)

_HERZELN = (
    _r("herzeln/table", "§3", "Players, pack and rank order", "players pack cards deal order rank "
       "ace-ten faces", "Herzeln",
       """Herzeln is played by 3 players with 24 French cards (A T K Q J 9), or by 4 players with
       32 cards (7 to A), German or French faces. The rank order is ace-ten (A T K Q J 9 8 7).
       8 cards each."""),
    _r("herzeln/partie", "§3", "The partie", "partie deals dealer rotation order lead "
       "forehand", "Herzeln ruling",
       """A partie is 8 deals in this fixed order: no-hearts, every-trick, no-tricks, no-queens,
       king-of-hearts, last-trick, no-last-trick, domino. Forehand leads. The deal passes
       clockwise after each deal (a ruling; with dealer_rotation=per-partie it passes after the
       partie). There are no lead restrictions. Every deal is played out.""",
       options="dealer_rotation"),
    _r("herzeln/no-hearts", "§3", "Deal 1: no-hearts", "no-hearts 1 hearts",
       "Herzeln",
       """Each heart captured scores: A −11, T −10, K −4, Q −3, J −2, 9/8/7 −1.""",
       example="""Case 22: seat 0 takes HA H7 (-12), seat 1 HT (-10), seat 2 HK HQ HJ (-9),
       seat 3 H9 H8 (-2)."""),
    _r("herzeln/every-trick", "§3", "Deal 2: every-trick", "every-trick 2 tricks",
       "Herzeln", """+10 per trick won.""",
       example="""Case 23: tricks won 3, 2, 2, 1 score 30, 20, 20, 10."""),
    _r("herzeln/no-tricks", "§3", "Deal 3: no-tricks", "no-tricks 3 tricks", "Herzeln",
       """−10 per trick won.""",
       example="""Case 24: tricks won 0, 4, 1, 3 score 0, -40, -10, -30."""),
    _r("herzeln/no-queens", "§3", "Deal 4: no-queens", "no-queens 4 queens ober",
       "Herzeln", """−20 per Queen/Ober captured.""",
       example="""Case 25: seat 2 takes DQ and HQ (-40), seat 1 CQ, seat 0 SQ (-20 each)."""),
    _r("herzeln/king-of-hearts", "§3", "Deal 5: king-of-hearts", "king-of-hearts 5 king hk",
       "Herzeln", """−40 to whoever captures HK.""",
       example="""Case 26: seat 1 wins HK in trick 2: -40."""),
    _r("herzeln/last-trick", "§3", "Deal 6: last-trick", "last-trick 6 last",
       "Herzeln", """+40 to the winner of trick 8.""",
       example="""Case 27: seat 3 wins trick 8: +40."""),
    _r("herzeln/no-last-trick", "§3", "Deal 7: no-last-trick", "no-last-trick 7 last",
       "Herzeln", """−40 to the winner of trick 8.""",
       example="""Case 28: seat 0 wins trick 8: -40."""),
    _r("herzeln/domino", "§3", "Deal 8: the domino (Unteranlegen)", "domino 8 unteranlegen row "
       "layout jacks", "Herzeln",
       """The domino (Unteranlegen) is a single row built regardless of suit (the Herzeln text:
       "cards of any suit"; the German text: "ohne Rücksicht auf" the suit). Forehand moves first.
       The row is opened with any Jack; a player who holds no Jack passes. After that, a card may
       be laid at the upper end if its rank is the next higher rank than that end's card, or at
       the lower end if it is the next lower rank, in the game's rank order (7 8 9 J Q K T A).""",
       options="domino_suits"),
    _r("herzeln/domino-corner", "§3", "Domino: Aces turn the corner", "domino corner wrap aces "
       "cycle block", "Herzeln",
       """Aces "turn the corner": the order is a cycle, so above an Ace comes the lowest rank (7,
       or 9 with 3 players) and below the lowest rank comes an Ace. With every card dealt the row
       cannot block.""", options="domino_wrap",
       example="""Case 29 (4 players): SA is laid below H7, and sevens above Aces. Case 31 (3
       players): the cycle is 9 J Q K T A, and an Ace goes below a 9."""),
    _r("herzeln/domino-ends", "§3", "Domino: choosing the end", "domino ends marks upper lower",
       "Herzeln",
       """When both ends ask for the same rank, the player chooses the end. A hand record writes
       + for the upper end or - for the lower end after the card (e.g. "C7-"); with no mark the
       card goes to the upper end. A mark naming an end the card does not fit is illegal
       (not-adjacent).""",
       example="""Case 57: C7 is the 8th card of the row 8 9 J Q K T A and fits both ends;
       written C7- it goes below the 8 and the seats go out 3, 1, 2, 0. Case 58: D8+ names the
       upper end, which an 8 does not fit: not-adjacent."""),
    _r("herzeln/domino-must-lay", "§3", "Domino: lay if able, else pass", "domino pass "
       "must-play-if-able", "ruling",
       """A player must lay a card if able, else passes (a ruling).""",
       example="""Case 34: after DJ opens the row, seat 1 passes although it holds HQ and H9:
       illegal, rule must-play-if-able."""),
    _r("herzeln/domino-places", "§3", "Domino: places by going out", "domino places "
       "going-out order score", "Herzeln ruling",
       """The first player out takes first place; play goes on until one player is left, who
       takes last place. Places score 0, −10, −20, −30 (3 players: 0, −10, −20, a ruling).""",
       example="""Case 29: seats go out 2, 0, 3, 1, scoring -10, -30, 0, -20 for seats 0 to
       3."""),
    _r("herzeln/domino-options", "§3", "Domino options: suits and wrap", "domino options suits "
       "same-suit any-suit rows wrap corner malformed", "ruling",
       """domino_suits=any-suit|same-suit: with same-suit there are four rows, one per suit, each
       opened by its Jack, and a row's cards follow suit. domino_wrap=true|false: false is only
       allowed with same-suit rows, where a row then ends at the Ace and at the lowest card; with
       one row regardless of suit it would block, so that combination is refused as
       malformed.""", options="domino_suits domino_wrap"),
    _r("herzeln/winner", "§3", "Winning the partie", "winner partie totals ties zero-sum",
       "Herzeln",
       """The partie's winner has the highest total; equal totals share. Totals are not
       zero-sum.""",
       example="""Cases 22-29 form one 4-player partie with totals -52, -120, -39, -2: seat 3
       wins."""),
    _r("herzeln/invariants", "§5", "Invariants", "invariants totals partie",
       "Herzeln",
       """Deal totals over all players, 4 players: −33, +80, −80, −80, −40, +40, −40, −60 (partie
       −213); 3 players: −31, +80, −80, −80, −40, +40, −40, −30 (partie −181)."""),
)

_HERZERLN = (
    _r("herzerln/table", "§4", "Players, pack and rank order", "players pack cards deal order "
       "rank natural black-sevens", "Herzerln",
       """Herzerln is played by 4 players with 32 cards, 8 each, or by 3 players with 30 cards
       (the black sevens C7 and S7 removed), 10 each. The order is natural: 7 8 9 T J Q K A (the
       text's 4-player list omits the 7 but says 32 cards: a typo)."""),
    _r("herzerln/partie", "§4", "The partie", "partie rounds dealer order lead forehand",
       "Herzerln",
       """A partie is 6 rounds in this fixed order: tricks, hearts, jacks, red-queens,
       king-of-hearts, auflegen, with the same dealer; the deal passes clockwise only after the
       6th round. Forehand leads."""),
    _r("herzerln/tricks", "§4", "Round 1: tricks", "tricks 1", "Herzerln",
       """−1 per trick won.""",
       example="""Case 36: tricks won 2, 3, 1, 2 score -2, -3, -1, -2."""),
    _r("herzerln/hearts", "§4", "Round 2: hearts", "hearts 2 heart-free", "Herzerln",
       """−1 per heart captured; trick 1 is heart-free.""",
       example="""Case 37: hearts captured 0, 4, 3, 1 score 0, -4, -3, -1."""),
    _r("herzerln/jacks", "§4", "Round 3: jacks", "jacks 3 unter", "Herzerln",
       """−2 per Jack captured.""",
       example="""Case 38: Jacks captured 1, 0, 2, 1 score -2, 0, -4, -2."""),
    _r("herzerln/red-queens", "§4", "Round 4: red-queens", "red-queens 4 queens",
       "Herzerln", """−4 per red Queen (HQ, DQ) captured.""",
       example="""Case 39: seat 1 captures HQ and DQ: -8."""),
    _r("herzerln/king-of-hearts", "§4", "Round 5: king-of-hearts", "king-of-hearts 5 king hk "
       "heart-free", "Herzerln", """−8 to whoever captures HK; trick 1 is heart-free.""",
       example="""Case 40: seat 0 captures HK in trick 8: -8."""),
    _r("herzerln/heart-free", "§4", "Heart-free first trick", "heart-free hearts first-trick "
       "lead discard lead-ban escape king-of-hearts", "Herzerln",
       """In rounds 2 and 5 (hearts, king-of-hearts) no heart may be led to or discarded on
       trick 1, with the escape of §0: a player holding only hearts must play one. Hearts may be
       led from trick 2 on.""",
       example="""Case 45: forehand leads HT to trick 1 while holding other suits: illegal, rule
       heart-free-first-trick. Case 46: seat 1 discards H7 on trick 1 although it holds clubs and
       a diamond: illegal. Case 47:
       seat 1 holds only hearts, so it must discard one on trick 1 (the escape)."""),
    _r("herzerln/auflegen", "§4", "Round 6: Auflegen", "auflegen 6 rows layout jacks hj "
       "pass wrap", "Herzerln",
       """The holder of HJ opens by laying it. Play then goes clockwise. Rows are per suit in
       natural order: a Jack opens its suit's row at any time; a row grows up J Q K A and down
       J T 9 8 7 by the next card of the same suit; there is no wrap. A player must lay a card if
       able, else passes.""",
       example="""Case 48: seat 2 holds HJ but lays DJ: illegal, must-open-with-heart-jack.
       Case 49: with the club row at CJ alone, C9 needs CT first: not-adjacent. Case 44 (3
       players): the black rows end at the 8."""),
    _r("herzerln/auflegen-places", "§4", "Auflegen: places by going out", "auflegen places "
       "going-out order score", "Herzerln",
       """Places are taken by going out, as in the domino: 20, 14, 6, 0 (3 players: 21, 14,
       7).""",
       example="""Case 41: seats go out 2, 3, 0, 1 for 20, 14, 6, 0."""),
    _r("herzerln/winner", "§4", "Zero-sum partie and winner", "winner partie zero-sum totals",
       "Herzerln",
       """A partie is zero-sum: rounds 1-5 take 40 points (3 players: 42) that round 6 pays back.
       The most points wins.""",
       example="""Cases 36-41 form one 4-player partie with totals -6, -15, 12, 9: seat 2
       wins."""),
    _r("herzerln/invariants", "§5", "Invariants", "invariants totals zero-sum partie",
       "Herzerln",
       """Round totals, 4 players: −8 ×5, then +40; 3 players: −10, −8, −8, −8, −8, then +42:
       each partie sums to 0."""),
)

#: every hand-written rule, in RULES.md order (the common ground first)
BOOK: tuple[Rule, ...] = _COMMON + _HERZLA + _KIDS + _HERZELN + _HERZERLN

#: the built-in games: title, section, one-line description
GAMES: dict[str, tuple[str, str, str]] = {
    "herzla": ("Herzla", "§1", "Bavarian Herzla: 4 players; the normal game with its stock, "
               "Beddl, Mord and Schleichermord"),
    "herzla-kids": ("Herzla for children", "§2", "3 to 8 players, 36 cards, a penalty point "
                    "per heart"),
    "herzeln": ("Herzeln", "§3", "Austrian Herzeln: a partie of 8 deals ending in the domino"),
    "herzerln": ("Herzerln", "§4", "Austrian Herzerln: a partie of 6 rounds ending in "
                 "Auflegen"),
}
_COMMON_INFO = ("Common ground", "§0", "what every game shares: cards, rank orders, seats, "
                "trick play, the lead-ban escape")


# -- queries ----------------------------------------------------------------------------------
def _norm(word: str) -> str:
    return re.sub(r"[\s_]+", "-", word.strip().lower())


def _is_builtin(cls: type[Contract]) -> bool:
    return cls.__module__ in BUILTIN_MODULES


def _plugin_rule(cls: type[Contract]) -> Rule:
    words = [cls.id, *(w for w in re.findall(r"[a-z0-9-]+", cls.title.lower()) if len(w) > 2)]
    counts = ", ".join(map(str, cls.player_counts))
    kind = "layout deal" if cls.kind == "layout" else "trick deal"
    text = (f"{cls.summary or cls.title}. A {kind} for {counts} players"
            f"{'; its rules: ' + cls.rule_ref if cls.rule_ref else ''}.")
    return Rule(f"{cls.game}/{cls.id}", cls.game, "", cls.title or cls.id,
                tuple(dict.fromkeys(words)), text, ("plug-in",),
                tuple(o.name for o in cls.options), origin=f"plug-in {cls.__module__}")


def known_games() -> list[str]:
    """Every game the registry knows, and ``common``."""
    return [*games(), COMMON]


def entries(game: str | None = None, common: bool = True) -> list[Rule]:
    """The rules of ``game`` (its own first, then the common ground), or of every game."""
    if game is None:
        out = list(BOOK)
        for g in games():
            out += [_plugin_rule(c) for c in contracts_of(g) if not _is_builtin(c)]
        return out
    if game == COMMON:
        return list(_COMMON)
    out = [r for r in BOOK if r.game == game]
    out += [_plugin_rule(c) for c in contracts_of(game) if not _is_builtin(c)]
    if common:
        out += list(_COMMON)
    return out


def _keys(rule: Rule) -> set[str]:
    keys = {_norm(t) for t in rule.topics}
    keys |= {_norm(name) for _, name in rule.option_refs()}
    keys.add(rule.id.partition("/")[2])
    return keys


def topics_of(game: str) -> list[str]:
    """The topic words a game's own rules answer to (contract ids first)."""
    rules = entries(game, common=False)
    ids = [c.id for c in contracts_of(game)] if game != COMMON else []
    words = sorted({_norm(t) for r in rules for t in r.topics if not t.isdigit()} - set(ids))
    return [*ids, *words]


def find(game: str, topic: str) -> list[Rule]:
    """The rules of ``game`` (common ground included) that answer to ``topic``.

    A topic is a contract id, a topic word or an option name, case-insensitive; failing an exact
    match, a singular or plural form, then a word that starts with it.  UnknownTopic otherwise.
    """
    pool = entries(game)
    want = _norm(topic)
    if not want:
        raise UnknownTopic("an empty topic")
    tests = (
        lambda k: k == want,
        lambda k: k in (want + "s", want.removesuffix("s"), want + "es", want.removesuffix("es")),
        lambda k: len(want) >= 3 and k.startswith(want),
    )
    for test in tests:
        found = [r for r in pool if any(test(k) for k in _keys(r))]
        if found:
            return found
    own = topics_of(game)
    known = list(dict.fromkeys(own + (topics_of(COMMON) if game != COMMON else [])))
    close = difflib.get_close_matches(want, known, n=3, cutoff=0.7)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    where = "the common ground" if game == COMMON else game
    more = "" if game == COMMON else "; and those of 'herzla rules common'"
    raise UnknownTopic(f"no rule of {where} is about {topic!r}; {hint}"
                       f"topics: {', '.join(own)}{more}")


# -- options ----------------------------------------------------------------------------------
def resolve_option(game: str, name: str) -> Option | None:
    """The option ``name`` of ``game``, as its contract classes declare it."""
    if game not in games():
        return None
    for opt in game_options(game):
        if opt.name == name:
            return opt
    return None


def _values(opt: Option) -> str:
    if opt.choices:
        return "|".join(opt.choices)
    if isinstance(opt.default, bool):
        return "true|false" if opt.default else "false|true"
    return "N"


def _default(opt: Option) -> str:
    return str(opt.default).lower() if isinstance(opt.default, bool) else str(opt.default)


def option_json(game: str, opt: Option) -> dict[str, Any]:
    """An option as JSON: its game, name, type, values, default and effect."""
    kind = "choice" if opt.choices else opt.type.__name__
    values: list[Any] | None = None
    if opt.choices:
        values = list(opt.choices)
    elif isinstance(opt.default, bool):
        values = [True, False]
    return {"game": game, "name": opt.name, "type": kind, "values": values,
            "minimum": opt.minimum, "default": opt.default, "doc": opt.doc, "rule": opt.rule}


def _options_of(rule: Rule) -> list[tuple[str, Option]]:
    out = []
    for game, name in rule.option_refs():
        opt = resolve_option(game, name)
        if opt is not None:
            out.append((game, opt))
    return out


def rule_json(rule: Rule) -> dict[str, Any]:
    """A rule as JSON, its options spelled out from the contract classes."""
    return {
        "id": rule.id,
        "game": rule.game,
        "section": rule.section or None,
        "origin": rule.origin,
        "title": rule.title,
        "topics": list(rule.topics),
        "sources": list(rule.sources),
        "text": rule.text,
        "example": rule.example or None,
        "options": [option_json(g, o) for g, o in _options_of(rule)],
    }


# -- text -------------------------------------------------------------------------------------
def _wrap(text: str, indent: str = "  ", first: str | None = None) -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent if first is None else first,
                         subsequent_indent=indent, break_on_hyphens=False,
                         break_long_words=False)


def render_rule(rule: Rule, game: str | None = None) -> list[str]:
    """A rule as readable lines: title and tags, text, example, options, topics."""
    tags = " ".join(SOURCES.get(s, f"[{s}]") for s in rule.sources)
    where = f"{rule.origin} {rule.section}".strip()
    lines = [f"{rule.title}  {tags}  ({where})"]
    lines += _wrap(rule.text)
    if rule.example:
        lines += _wrap(f"Example: {rule.example}")
    for g, opt in _options_of(rule):
        prefix = f"{g} option" if g != (game or rule.game) or rule.game == COMMON else "Option"
        kind = ""
        if not opt.choices and not isinstance(opt.default, bool):
            kind = "a whole number" + (f" >= {opt.minimum}" if opt.minimum is not None else "")
            kind += ", "
        lines += _wrap(f"{prefix} {opt.name}={_values(opt)} ({kind}default {_default(opt)}): "
                       f"{opt.doc}.", indent="      ", first="  ")
    words = [t for t in rule.topics if not t.isdigit()]
    lines += _wrap(f"Topics: {', '.join(words)}", indent="      ", first="  ")
    return lines


def _title_section(game: str) -> tuple[str, str]:
    title, section, _ = _COMMON_INFO if game == COMMON else GAMES.get(game, (game, "", ""))
    return title, section


def _game_header(game: str) -> list[str]:
    if game == COMMON:
        title, section, about = _COMMON_INFO
        return [f"{title} (RULES.md {section}): {about}."]
    title, section, about = GAMES.get(game, (game, "", "a game added by a plug-in"))
    head = f"{title} (game {game}" + (f", RULES.md {section}" if section else "") + ")"
    lines = [head, *_wrap(f"{about}.", indent="")]
    cs = contracts_of(game)
    counts = sorted({n for c in cs for n in c.player_counts})
    lines += _wrap(f"Players: {', '.join(map(str, counts))}. Contracts: "
                   + ", ".join(c.id for c in cs) + ".", indent="")
    opts = game_options(game)
    if opts:
        lines += _wrap("Options (defaults): " + ", ".join(f"{o.name}={_default(o)}"
                                                          for o in opts) + ".", indent="")
    return lines


def _print(lines: Iterable[str]) -> None:
    for line in lines:
        click.echo(line)


def _print_rules(rules: Sequence[Rule], game: str | None) -> None:
    shown_common = False
    for i, rule in enumerate(rules):
        if rule.game == COMMON and game not in (None, COMMON) and not shown_common:
            shown_common = True
            click.echo("")
            click.echo("Common ground (RULES.md §0), for every game:")
        if i:
            click.echo("")
        _print(render_rule(rule, game))


def _listing() -> list[str]:
    lines = ["The rule book (RULES.md), by game and topic:",
             "  herzla rules GAME          every rule of a game, the common ground at the end",
             "  herzla rules GAME TOPIC    the rules about a topic: a contract id, a word or an",
             "                             option name (--json: the entries as JSON)",
             "", "Games:"]
    for g in known_games():
        _title, section, about = GAMES.get(g, _COMMON_INFO if g == COMMON else
                                          (g, "", "a game added by a plug-in"))
        tail = f" ({section})" if section else ""
        lines += _wrap(f"{g:<12} {about}{tail}", indent=" " * 15, first="  ")
    lines += ["", "Topics:"]
    for g in known_games():
        lines += _wrap(f"{g}: {', '.join(topics_of(g))}", indent="      ", first="  ")
    return lines


def _suggest_game(game: str) -> str:
    known = known_games()
    close = difflib.get_close_matches(game.lower(), known, n=2, cutoff=0.6)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    return f"unknown game {game!r} ({hint}known: {', '.join(known)})"


@click.command("rules")
@click.argument("game", required=False)
@click.argument("topic", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the entries as JSON.")
def rules_command(game: str | None, topic: str | None, as_json: bool) -> None:
    """The rule text, with its source and the option that changes it.

    \b
    herzla rules                  the games and the topics the rule book knows
    herzla rules GAME             every rule of a game (herzla, herzla-kids, herzeln,
                                  herzerln, common), the common ground at the end
    herzla rules GAME TOPIC       the rules about a topic: a contract id (domino, beddl),
                                  a word (stock, lead, corner) or an option name
    herzla rules TOPIC            the rules about a topic in every game
    """
    if game is None:
        if as_json:
            click.echo(json.dumps({
                "game": None, "topic": None,
                "games": [_game_json(g) for g in known_games()],
                "topics": {g: topics_of(g) for g in known_games()},
                "entries": [rule_json(r) for r in entries()],
            }, indent=1, ensure_ascii=False))
        else:
            _print(_listing())
        return
    name = game.strip().lower()
    rules: list[Rule]
    if name not in known_games():
        if topic is not None:
            fail(_suggest_game(game))
        rules = []
        for g in known_games():
            with contextlib.suppress(UnknownTopic):
                rules += [r for r in find(g, name) if r not in rules]
        if not rules:
            fail(_suggest_game(game))
        if as_json:
            click.echo(json.dumps({"game": None, "topic": game,
                                   "entries": [rule_json(r) for r in rules]},
                                  indent=1, ensure_ascii=False))
        else:
            click.echo(f"The rules about {game!r} in every game:")
            for rule in rules:
                click.echo("")
                _print(render_rule(rule))
        return
    if topic is None:
        rules = entries(name)
    else:
        try:
            rules = find(name, topic)
        except UnknownTopic as exc:
            fail(str(exc))
    if as_json:
        out = {"game": name, "topic": topic, **({} if topic else {"about": _game_json(name)}),
               "entries": [rule_json(r) for r in rules]}
        click.echo(json.dumps(out, indent=1, ensure_ascii=False))
        return
    if topic is None:
        _print(_game_header(name))
    else:
        n = len(rules)
        title, section = _title_section(name)
        where = f"{title} ({'RULES.md ' + section + ', ' if section else ''}game {name})"
        click.echo(f"{where}: {n} rule{'s' if n != 1 else ''} about {topic!r}")
    click.echo("")
    _print_rules(rules, name)


def _game_json(game: str) -> dict[str, Any]:
    if game == COMMON:
        title, section, about = _COMMON_INFO
        return {"id": game, "title": title, "section": section, "about": about,
                "players": None, "contracts": [], "options": []}
    title, section, about = GAMES.get(game, (game, "", "a game added by a plug-in"))
    cs = contracts_of(game)
    return {
        "id": game, "title": title, "section": section or None, "about": about,
        "players": sorted({n for c in cs for n in c.player_counts}),
        "contracts": [{"id": c.id, "title": c.title, "summary": c.summary,
                       "rule_ref": c.rule_ref, "kind": c.kind,
                       "players": list(c.player_counts), "plugin": not _is_builtin(c)}
                      for c in cs],
        "options": [option_json(game, o) for o in game_options(game)],
    }
