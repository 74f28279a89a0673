"""Bavarian Herzla (game ``herzla``): the Normal game, Beddl, Mord, Schleichermord, the stock and
the bidding.

Amounts are in cents.  The stock (pot) is an account of its own: every hand is zero-sum over the
players and the stock together.  The normal game's settlement and the settlement of Beddl and Mord
are written here once, on arrays (one column per hand), for the reference engine and the batch
engine alike; so is the bidding (:meth:`Herzla.resolve_bids`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import attrs
import numpy as np
import numpy.typing as npt

from herzla.cards import ACE_TEN, HEARTS_MASK, NATURAL, PACK_32, Pack, RankOrder
from herzla.contracts.base import Outcome, TrickContract, seat_list
from herzla.contracts.game import Game, Sheet, rule
from herzla.contracts.renege import RENEGE_OPTION
from herzla.contracts.vocabulary import (
    HEART_LEAD_BAN,
    CardValue,
    Counts,
    EarlyEnd,
    LeadBan,
    Settlement,
    Stock,
    TallyError,
    TrickRules,
    stock_per_hand,
)
from herzla.contracts.words import cents, seat_word, tr
from herzla.i18n import N_, _
from herzla.options import Option
from herzla.quote import quote

__all__ = ["Beddl", "Bid", "HERZLA_OPTIONS", "Herzla", "Mord", "Normal", "resolve_bidding"]

HERZLA_OPTIONS: tuple[Option, ...] = (
    Option("heart_unit", 10, doc=N_("cents per heart captured; every heart amount scales with it"),
           rule="herzla/settlement", names=("herzwert",), minimum=1),
    Option("contract_stake", 80, doc=N_("cents each defender pays or receives in Beddl and Mord; "
           "also the Schleichermord payment per opponent"), rule="herzla/contract-settlement",
           names=("einsatz",), minimum=0),
    Option("rank_order", "natural", ("natural", "ace-ten"),
           doc=N_("the order that wins tricks (a published summary's card box says ace-ten)"),
           rule="herzla/table", names=("reihenfolge",)),
    Option("contract_priority", "position", ("position", "mord-over-beddl"),
           doc=N_("bidding: the first announcement wins, or a later Mord outbids an earlier Beddl"),
           rule="herzla/bidding", names=("vorrang",)),
    Option("heart_lead_ban_tricks", 2, doc=N_("hearts may not be led to this many first tricks"),
           rule="herzla/heart-lead-ban", names=("aufspielverbot",), minimum=0),
    Option("heart_lead_ban_in_contracts", True,
           doc=N_("the heart lead ban applies in Beddl and Mord too"),
           rule="herzla/heart-lead-ban", names=("aufspielverbot_in_ansagen",)),
    Option("no_void", "pay-stock", ("pay-stock", "no-payment"),
           doc=N_("with no void player, every player pays per heart into the stock, or nobody "
                  "pays"),
           rule="herzla/no-void", names=("keiner_herzfrei",)),
    Option("stock_payout", "void", ("void", "never"),
           doc=N_("the stock goes to the void player(s) of the next normal game with 1 or 2 void "
           "players, or is never paid out"), rule="herzla/stock-payout",
           names=("stockauszahlung",)),
    RENEGE_OPTION,
)

HEART = CardValue(HEARTS_MASK, 0, N_("heart"))


class _HerzlaBase(TrickContract):
    game: ClassVar[str] = "herzla"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[tuple[Option, ...]] = HERZLA_OPTIONS
    has_stock: ClassVar[bool] = True
    danger: ClassVar[tuple[int, ...] | None] = (HEARTS_MASK,)

    def pack(self) -> Pack:
        return PACK_32

    def rank_order(self) -> RankOrder:
        return ACE_TEN if self.opts["rank_order"] == "ace-ten" else NATURAL

    def _ban_applies(self) -> bool:
        return True

    def declare(self) -> TrickRules:
        tricks = int(self.opts["heart_lead_ban_tricks"]) if self._ban_applies() else 0
        bans = (LeadBan(HEARTS_MASK, tricks, rule=HEART_LEAD_BAN.id),) if tricks else ()
        return attrs.evolve(super().declare(), lead_bans=bans)

    def score_total(self) -> int | None:
        return 0

    def _stakes(self) -> int:
        """A Schleichermord, Beddl or Mord at worst: the stake from (or to) every opponent,
        paid and received."""
        return 2 * int(self.opts["contract_stake"]) * (self.players - 1)


class Normal(_HerzlaBase):
    """The normal game: hearts cost a unit each; void players collect; the stock carries over."""

    id: ClassVar[str] = "normal"
    tags: ClassVar[tuple[str, ...]] = ("Herzla",)
    title: ClassVar[str] = N_("Normal game")
    names: ClassVar[tuple[str, ...]] = ("Normalspiel", "Normal")
    summary: ClassVar[str] = N_("every taker pays a unit per heart captured to the void "
                                "player(s); all hearts to one player pay the stock; none void "
                                "pay the stock")
    counted: ClassVar[tuple[CardValue, ...]] = (HEART,)
    topics: ClassVar[str] = "hearts void settlement"

    def whole_stake(self, dealt: int) -> int:
        """Every heart at a unit each: what one player pays who captures them all."""
        return (self.pack().mask & HEARTS_MASK & dealt).bit_count() * int(self.opts["heart_unit"])

    def stake_text(self) -> str:
        hearts = (self.pack().mask & HEARTS_MASK).bit_count()
        return _("{hearts} hearts x {unit}, as if it had captured every heart").format(
            hearts=hearts, unit=cents(int(self.opts["heart_unit"])))

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        """The normal game's settlement of each hand (the one scorer of both engines)."""
        n = self.players
        unit = int(self.opts["heart_unit"])
        stake = int(self.opts["contract_stake"])
        hearts_class = self.pack().mask & HEARTS_MASK
        total = hearts_class.bit_count() * unit
        tricks = counts.known_tricks()
        won_all = None if tricks is None else tricks == self.hand_size
        try:
            hearts = counts.card_counts(hearts_class)
        except TallyError:
            if won_all is None or not won_all.any(axis=0).all():
                raise
            hearts = np.zeros((n, counts.hands), dtype=np.int64)  # Schleichermord decides
        if won_all is None and bool(((hearts == hearts_class.bit_count()).any(axis=0)).any()):
            raise TallyError(_("one seat captured every heart, so it may have won every "
                               "trick (a Schleichermord): give the tricks won as well"))
        void = hearts == 0
        nv = void[0].astype(np.intp)  # row by row: much faster than a sum over the seats' axis
        for row in void[1:]:
            nv += row
        np.minimum(nv, n - 1, out=nv)  # all n void: a Schleichermord, decided below
        # per number of void players (0 .. n-1): does every taker pay, what a void player gets,
        # what goes to the stock; and what share of the stock (one for all the hands, or one a
        # hand) each void player collects
        if np.ndim(stock) == 0:
            stock = int(np.asarray(stock))
        pay_stock = self.opts["no_void"] == "pay-stock"
        pays = np.array([pay_stock] + [True] * (n - 1), dtype=np.int64)
        share = np.array([0] + [total // v for v in range(1, n - 1)] + [0], dtype=np.int64)
        to_stock = np.array([total if pay_stock else 0] + [0] * (n - 2) + [total],
                            dtype=np.int64)
        if isinstance(stock, int):
            payout = stock > 0 and self.opts["stock_payout"] == "void"
            stock_share = np.array([0] + [stock // v if payout else 0 for v in range(1, n - 1)]
                                   + [0], dtype=np.int64).take(nv)
        else:
            stock = np.asarray(stock, dtype=np.int64)
            stock_share = self._stock_shares(stock, nv)
        scores = void * (share.take(nv) + stock_share) - hearts * (unit * pays.take(nv))
        new_stock = stock + to_stock.take(nv) - stock_share * nv
        slam = np.zeros(counts.hands, dtype=np.bool_)
        if won_all is not None:
            slam = won_all[0].copy()  # row by row, as nv above
            for row in won_all[1:]:
                slam |= row
            hit = np.flatnonzero(slam)  # the few Schleichermord hands
            if len(hit):
                scores[:, hit] = np.where(won_all[:, hit], stake * (n - 1), -stake)
                new_stock[hit] = stock if isinstance(stock, int) else stock[hit]
        live = ~slam
        events = {
            "schleichermord": slam,
            "no-void": live & (nv == 0),
            "one-void": live & (nv == 1),
            "two-void": live & (nv >= 2) & (nv < n - 1),
            "all-hearts": live & (nv == n - 1),
            "stock-paid": live & (stock_share > 0),
        }
        return Settlement(scores.astype(np.int64, copy=False),
                          new_stock.astype(np.int64, copy=False), events)

    def _stock_shares(self, stock: npt.NDArray[np.int64], nv: npt.NDArray[np.intp]
                      ) -> npt.NDArray[np.int64]:
        """What each void player collects of the stock carried into each hand (``stock``, one a
        hand), with ``nv`` void players (``n - 1`` standing for all hearts to one player): the
        stock split equally among 1 to ``n - 2`` of them, an odd cent staying."""
        if self.opts["stock_payout"] != "void":
            return np.zeros(len(nv), dtype=np.int64)
        n = self.players
        splits = (nv >= 1) & (nv <= n - 2) & (stock > 0)
        out: npt.NDArray[np.int64] = np.where(splits, stock // np.maximum(nv, 1), 0)
        return out.astype(np.int64, copy=False)

    def amount_bound(self) -> int:
        """Every heart paid (to the void players or the stock) and collected, or a
        Schleichermord; a stock paid out is what was carried in."""
        hearts = (self.pack().mask & HEARTS_MASK).bit_count()
        return max(2 * hearts * int(self.opts["heart_unit"]), self._stakes())

    def explain(self, outcome: Outcome, counts: Counts, settled: Settlement,
                stock: int = 0) -> tuple[str, ...]:
        n = self.players
        unit = int(self.opts["heart_unit"])
        stake = int(self.opts["contract_stake"])
        scores, new_stock, events = settled.column(0)
        assert new_stock is not None
        if "schleichermord" in events:
            s = max(range(n), key=lambda i: scores[i])
            return (_("Seat {seat} won all {tricks} tricks without announcing Mord: "
                      "Schleichermord, {stake} from each opponent, {total} in all; it replaces "
                      "the heart settlement and the stock is untouched "
                      "(rule herzla/schleichermord).").format(
                seat=s, tricks=self.hand_size, stake=cents(stake),
                total=cents(stake * (n - 1))),)
        hearts = [int(h) for h in counts.card_counts(self.pack().mask & HEARTS_MASK)[:, 0]]
        total = sum(hearts)
        void = [s for s in range(n) if hearts[s] == 0]
        takers = [s for s in range(n) if hearts[s] > 0]
        taken = ", ".join(f"{seat_word(s)} {hearts[s]}" for s in takers)
        lines = [_("Hearts captured: {taken}; {void} void.").format(
            taken=taken, void=seat_list(void) or _("nobody"))]
        if "all-hearts" in events:
            lines.append(_("Seat {seat} captured all {hearts} hearts and pays {amount} to the "
                           "stock (rule herzla/all-hearts).").format(
                seat=takers[0], hearts=total, amount=cents(total * unit)))
        elif "no-void" in events:
            if self.opts["no_void"] == "pay-stock":
                lines.append(_("Nobody is void: every player pays {unit} per heart into the "
                               "stock, {total} in all (rule herzla/no-void; option "
                               "no_void=pay-stock).").format(unit=cents(unit),
                                                             total=cents(total * unit)))
            else:
                lines.append(_("Nobody is void and nobody pays (rule herzla/no-void; option "
                               "no_void=no-payment)."))
        else:
            pot = total * unit
            if len(void) == 1:
                lines.append(_("Every taker pays {unit} per heart to seat {seat}, the only void "
                               "player: {total} (rule herzla/one-void).").format(
                    unit=cents(unit), seat=void[0], total=cents(pot)))
            else:
                lines.append(_("The takers' {total} are pooled and split between {seats}: "
                               "{each} each (rule herzla/two-void).").format(
                    total=cents(pot), seats=seat_list(void), each=cents(pot // len(void))))
            if "stock-paid" in events:
                paid = stock - new_stock
                if len(void) == 1:
                    lines.append(_("Seat {seat} also collects the stock of {stock} "
                                   "(rule herzla/stock-payout).").format(seat=void[0],
                                                                         stock=cents(stock)))
                elif new_stock:
                    lines.append(_("They also split the stock of {stock}, {each} each; {left} "
                                   "stays in the stock (rule herzla/stock-payout).").format(
                        stock=cents(stock), each=cents(paid // len(void)),
                        left=cents(new_stock)))
                else:
                    lines.append(_("They also split the stock of {stock}, {each} each "
                                   "(rule herzla/stock-payout).").format(
                        stock=cents(stock), each=cents(paid // len(void))))
            elif stock and self.opts["stock_payout"] == "never":
                lines.append(_("The stock of {stock} stays (rule herzla/stock-payout; option "
                               "stock_payout=never).").format(stock=cents(stock)))
            elif stock:
                lines.append(_("The stock of {stock} does not split into whole cents for "
                               "{players} players and stays (rule herzla/stock-payout).").format(
                    stock=cents(stock), players=len(void)))
        lines.append(_("Stock after the hand: {stock}.").format(stock=cents(new_stock)))
        return tuple(lines)


class _Declared(_HerzlaBase):
    needs_declarer: ClassVar[bool] = True

    def _ban_applies(self) -> bool:
        return bool(self.opts["heart_lead_ban_in_contracts"])

    def amount_bound(self) -> int:
        return self._stakes()

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        """Made: each defender pays the declarer the stake; lost: the declarer pays each."""
        assert self.declarer is not None
        n = self.players
        stake = int(self.opts["contract_stake"])
        ended = counts.early_end()
        sign = np.where(ended, -1, 1).astype(np.int64)
        scores = np.repeat((-sign * stake)[None, :], n, axis=0)
        scores[self.declarer] = sign * stake * (n - 1)
        return Settlement(scores, stock_per_hand(stock, counts.hands),
                          {"contract-made": ~ended, "contract-lost": ended})

    def explain(self, outcome: Outcome, counts: Counts, settled: Settlement,
                stock: int = 0) -> tuple[str, ...]:
        d = self.declarer
        assert d is not None and self.early_end is not None
        stake = int(self.opts["contract_stake"])
        n = self.players
        goal = self.early_end.words()
        if "contract-made" in settled.column(0)[2]:
            line = _("Seat {seat} made {contract} ({goal}): each defender pays {stake}, {total} "
                     "in all (rule herzla/contract-settlement).")
        else:
            line = _("Seat {seat} lost {contract} ({goal}): seat {seat} pays each defender "
                     "{stake}, {total} in all (rule herzla/contract-settlement).")
        return (line.format(seat=d, contract=tr(self.title), goal=goal, stake=cents(stake),
                            total=cents(stake * (n - 1))),
                _("The stock of {stock} is left alone (rule herzla/contract-settlement).").format(
                    stock=cents(stock)))


class Beddl(_Declared):
    """Beddl: the declarer must win no trick; the hand ends the moment the declarer wins one."""

    id: ClassVar[str] = "beddl"
    tags: ClassVar[tuple[str, ...]] = ("Herzla",)
    title: ClassVar[str] = N_("Beddl")
    names: ClassVar[tuple[str, ...]] = ("Bettel",)
    early_end: ClassVar[EarlyEnd | None] = EarlyEnd.DECLARER_WINS
    topics: ClassVar[str] = "declarer contract"
    summary: ClassVar[str] = N_("the declarer wins no trick; ends the moment the declarer wins one")


class Mord(_Declared):
    """Mord: the declarer must win every trick; the hand ends the moment a defender wins one."""

    id: ClassVar[str] = "mord"
    tags: ClassVar[tuple[str, ...]] = ("Herzla",)
    title: ClassVar[str] = N_("Mord")
    early_end: ClassVar[EarlyEnd | None] = EarlyEnd.DEFENDER_WINS
    topics: ClassVar[str] = "declarer contract"
    summary: ClassVar[str] = N_("the declarer wins every trick; ends the moment a defender wins "
                                "one")


@attrs.frozen(slots=True)
class Bid:
    """The result of the bidding: the contract id and the declarer (None for a normal game)."""

    contract_id: str
    declarer: int | None


def resolve_bidding(announcements: Sequence[str], forehand: int, players: int = 4,
                    priority: str = "position") -> Bid:
    """Resolve announcements made in turn from forehand: ``"pass"``, ``"beddl"`` or ``"mord"``.

    With ``priority="position"`` the first announcement wins outright (positional priority); with
    ``"mord-over-beddl"`` a later Mord outbids an earlier Beddl.

    >>> resolve_bidding(["pass", "beddl", "mord", "pass"], forehand=0)
    Bid(contract_id='beddl', declarer=1)
    >>> resolve_bidding(["pass", "beddl", "mord", "pass"], 0, priority="mord-over-beddl")
    Bid(contract_id='mord', declarer=2)
    """
    words = list(Herzla.bidding)
    wants = []
    for word in announcements[:players]:
        want = 0 if word == "pass" else words.index(word) if word in words[1:] else -1
        if want < 0:
            raise ValueError(_("{word} is not an announcement (pass, beddl or mord)").format(
                word=quote(word)))
        wants.append(np.array([want], dtype=np.int8))
    code, turn = GAME.resolve_bids(wants, {"contract_priority": priority})
    if not code[0]:
        return Bid("normal", None)
    return Bid(words[int(code[0])], (forehand + int(turn[0])) % players)


class Herzla(Game):
    """Bavarian Herzla: 4 players; a session of hands with the stock carried along."""

    id: ClassVar[str] = "herzla"
    title: ClassVar[str] = N_("Herzla")
    about: ClassVar[str] = N_("Bavarian Herzla: {players} players; the normal game with its "
                              "stock, Beddl, Mord and Schleichermord")
    brief: ClassVar[str] = N_("{bidding}")
    contracts: ClassVar[tuple[type[TrickContract], ...]] = (Normal, Beddl, Mord)
    sheet: ClassVar[Sheet | str] = Sheet.SESSION
    bidding: ClassVar[tuple[str, ...]] = ("normal", "beddl", "mord")

    def resolve_bids(self, wants: Sequence[npt.NDArray[np.int8]], opts: Mapping[str, Any]
                     ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """The first announcement wins outright; with ``contract_priority=mord-over-beddl`` a
        later Mord (code 2) outbids an earlier Beddl (code 1)."""
        size = len(wants[0])
        code = np.zeros(size, dtype=np.int8)
        turn = np.full(size, -1, dtype=np.int64)
        mord_code = np.zeros(size, dtype=np.int8)
        mord_turn = np.full(size, -1, dtype=np.int64)
        for i, want in enumerate(wants):
            new = (code == 0) & (want != 0)
            code = np.where(new, want, code).astype(np.int8)
            turn = np.where(new, i, turn)
            first_mord = (mord_code == 0) & (want == 2)
            mord_code = np.where(first_mord, 2, mord_code).astype(np.int8)
            mord_turn = np.where(first_mord, i, mord_turn)
        if opts.get("contract_priority") == "mord-over-beddl":
            later = mord_code == 2
            code = np.where(later, mord_code, code).astype(np.int8)
            turn = np.where(later, mord_turn, turn)
        return code, turn

    rules = (
        rule("herzla/table", N_("Players, pack and rank order"),
             "players pack cards deal order rank natural ace-ten", "Herzla",
             N_("""Herzla is played by 4 players with a 32-card German-suited pack (7 to A), in
             natural order (A K Q J T 9 8 7), 8 cards each. The Herzla text says the cards rank
             in their natural order; a published summary's card box lists an ace-ten order,
             which a table can play with rank_order=ace-ten."""), options="rank_order",
             words="spieler blatt karten geben reihenfolge sau-zehner"),
        rule("herzla/contracts", N_("Contracts: normal, beddl, mord"),
             "contracts normal beddl mord declarer defenders", "Herzla",
             N_("""There are three contracts: normal, beddl (the declarer wins no trick) and mord
             (the declarer wins every trick). The successful bidder is the declarer against 3
             defenders; if nobody bids, a normal game is played."""),
             words="spiele normalspiel bettel beddl mord spieler gegenspieler"),
        rule("herzla/bidding", N_("Bidding"), "bidding bid announce priority beddl mord declarer "
             "pass", "Herzla ruling",
             N_("""Starting with forehand and going clockwise, each player may announce Beddl or
             Mord or pass. The first announcement wins outright (positional priority); the
             procedure is a ruling. With contract_priority=mord-over-beddl a later Mord outbids
             an earlier Beddl."""), options="contract_priority",
             words="ansagen ansage reizen vorrang bettel beddl mord passen"),
        rule("herzla/lead", N_("Forehand leads"), "lead forehand first-trick normal beddl mord",
             "Herzla ruling",
             N_("""Forehand leads to the first trick in every contract (the Herzla text; a ruling
             for the contracts)."""),
             words="ausspielen vorhand erster-stich"),
        rule("herzla/heart-lead-ban", N_("Heart lead ban"), "hearts lead lead-ban heart-lead-ban "
             "discard first-trick beddl mord", "Herzla",
             N_("""Hearts may not be led to trick 1 or trick 2, in every contract; discarding hearts
             is allowed. A player who holds nothing but hearts must lead one all the same (the
             escape, rule common/escape)."""),
             options="heart_lead_ban_tricks heart_lead_ban_in_contracts",
             example=N_("""Case 07: seat 0 holds nothing but hearts when it leads trick 2, so it
             leads one. Case 13: seat 1 leads a heart to trick 2 while holding clubs, spades and
             diamonds: illegal, rule heart-lead-ban."""),
             words="herz ausspielen aufspielverbot sperre erster-stich"),
        rule("herzla/early-end", N_("Early end"), "early-end end early beddl mord normal made lost "
             "hand-over", "Herzla",
             N_("""Beddl ends the moment the declarer wins a trick (lost). Mord ends the moment a
             defender wins a trick (lost). Otherwise the contract is made after trick 8. A
             normal game is always played out."""),
             example=N_("""Case 09: Beddl by seat 3 ends when seat 3 wins trick 7. Case 11: Mord by
             seat 1 ends when seat 2, a defender, wins trick 4."""),
             words="ende vorzeitig gewonnen verloren"),
        rule("herzla/settlement", N_("Normal-game settlement"), "settlement normal hearts void "
             "takers cents stock payment", "Herzla",
             N_("""The normal game is settled in cents, with the stock (pot) as an account of its
             own. The void players are those who captured no heart, the takers the others;
             every taker pays 10c per heart captured. Where the payments go depends on the
             number of void players (1, 2, 3 or 0)."""), options="heart_unit",
             words="abrechnung normalspiel herzen herzfrei zahler cent stock"),
        rule("herzla/one-void", N_("Settlement with 1 void player"), "one-void void settlement "
             "normal hearts", "Herzla",
             N_("""With 1 void player, the takers' payments go to the void player (80c in all)."""),
             options="heart_unit",
             example=N_("""Case 02: seat 0 alone is void and collects the takers' 30c + 30c + 20c =
             80c, and the stock of 80c besides: 160, -30, -30, -20."""),
             words="herzfrei abrechnung"),
        rule("herzla/two-void", N_("Settlement with 2 void players"), "two-void void settlement "
             "normal hearts split", "Herzla",
             N_("""With 2 void players, the takers' payments are pooled and split equally: 40c
             each."""), options="heart_unit",
             example=N_("""Case 01: seats 0 and 3 are void and split the takers' 30c + 50c, 40c
             each: 40, -30, -50, 40."""),
             words="herzfrei abrechnung teilen"),
        rule("herzla/all-hearts", N_("All hearts to one player (3 void players)"), "all-hearts "
             "three-void void settlement normal hearts stock", "Herzla",
             N_("""With 3 void players (one player captured all 8 hearts), that player pays 80c to
             the stock."""), options="heart_unit",
             example=N_("""Case 04: seat 2 captures all 8 hearts without winning every trick: 0, 0,
             -80, 0, and the stock grows from 0c to 80c."""),
             words="alle-herzen herzfrei stock"),
        rule("herzla/no-void", N_("No void player"), "no-void void settlement normal hearts stock",
             "ruling",
             N_("""With 0 void players, every player pays 10c per heart into the stock (80c in
             all). This is a ruling, after the Hearts "Jack"; with no_void=no-payment nobody
             pays."""), options="no_void heart_unit",
             example=N_("""Case 05: every seat captures 2 hearts and pays 20c into the stock, which
             grows from 80c to 160c."""),
             words="herzfrei stock"),
        rule("herzla/stock-payout", N_("Stock payout"), "stock pot payout carry void normal",
             "ruling",
             N_("""The stock carries over. In the next normal game with exactly 1 void player, that
             player also collects the whole stock; with 2 void players they split it equally
             (an odd cent stays in the stock). With stock_payout=never the stock is left
             untouched. Beddl, Mord and Schleichermord leave the stock alone."""),
             options="stock_payout",
             example=N_("""Case 03: with 160c in the stock, the two void players split the takers'
             80c and the stock: 120, -30, -50, 120, and the stock is 0c. Case 18: with
             stock_payout=never the lone void player collects only the takers' 80c and the
             stock stays at 80c."""),
             words="stock kasse auszahlung herzfrei"),
        rule("herzla/schleichermord", N_("Schleichermord"), "schleichermord sneaky mord normal "
             "slam stock", "Herzla ruling",
             N_("""Schleichermord ("sneaky Mord"): in a normal game, a player who wins all 8 tricks
             without having announced it collects 80c from each opponent; this replaces the
             heart settlement (and the all-hearts-to-stock payment). The 80c from each opponent
             is a ruling, since 80c does not split three ways."""), options="contract_stake",
             example=N_("""Case 06: forehand wins all 8 tricks unannounced: 240, -80, -80, -80; the
             stock of 80c is untouched."""),
             words="schleichermord mord normalspiel alle-stiche"),
        rule("herzla/contract-settlement", N_("Contracts won and lost"),
             "beddl mord settlement made lost declarer defenders stake stock", "Herzla",
             N_("""Beddl or Mord made: each defender pays the declarer 80c. Lost: the declarer pays
             each defender 80c. The stock is left alone."""), options="contract_stake",
             example=N_("""Case 08: Beddl made by seat 3: -80, -80, -80, 240. Case 09: Beddl lost by
             seat 3: 80, 80, 80, -240. Case 11: Mord lost by seat 1: 80, -240, 80, 80."""),
             words="abrechnung bettel beddl mord gewonnen verloren spieler gegenspieler"),
        rule("herzla/amounts", N_("Amounts: heart unit and contract stake"), "amounts unit cents "
             "stake options", "ruling",
             N_("""heart_unit (10): every heart amount scales with it, so the all-hearts payment is
             8 units. contract_stake (80): what each defender pays or receives in Beddl and
             Mord, and also the Schleichermord payment per opponent."""),
             options="heart_unit contract_stake",
             words="beträge herzpreis spielpreis cent"),
        rule("herzla/session", N_("A session and its winner"), "session sheet winner stock carry "
             "balance", "ruling",
             N_("""A list of Herzla hands is a session: the stock is carried from hand to hand, and
             each player's net balance is the sum of their amounts. The seat with the highest
             balance wins the session (a ruling; the Herzla text names no winner)."""),
             words="abend block sieger stock"),
        rule("herzla/invariants", N_("Invariants"), "invariants zero-sum stock hearts beddl mord",
             "Herzla",
             N_("""Every hand is zero-sum over the players and the stock together. In a normal game
             8 hearts are captured, and players + stock sum to 0 in every hand. Beddl and Mord:
             the declarer scores ±240, each defender ∓80."""),
             words="nullsumme stock"),
    )


GAME = Herzla()
CONTRACTS = (Normal, Beddl, Mord)
