"""Bavarian Herzla (RULES.md §1): the Normal game, Beddl, Mord, Schleichermord and the stock.

Amounts are in cents.  The stock (pot) is an account of its own: every hand is zero-sum over the
players and the stock together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

import attrs

from herzla.cards import ACE_TEN, HEARTS_MASK, NATURAL, PACK_32, Pack, RankOrder
from herzla.contracts.base import HandScore, Outcome, TallyError, TrickContract, seat_list
from herzla.options import Option

if TYPE_CHECKING:
    from herzla.tricks import TrickHand

__all__ = ["Beddl", "HERZLA_OPTIONS", "Mord", "Normal", "Bid", "resolve_bidding"]

HERZLA_OPTIONS: tuple[Option, ...] = (
    Option("heart_unit", 10, doc="cents per heart captured; every heart amount scales with it",
           rule="§1 settlement", minimum=1),
    Option("contract_stake", 80, doc="cents each defender pays or receives in Beddl and Mord; "
           "also the Schleichermord payment per opponent", rule="§1 contracts", minimum=0),
    Option("rank_order", "natural", ("natural", "ace-ten"),
           doc="the order that wins tricks (the source's infobox says ace-ten)", rule="§1"),
    Option("contract_priority", "position", ("position", "mord-over-beddl"),
           doc="bidding: the first announcement wins, or a later Mord outbids an earlier Beddl",
           rule="§1 bidding"),
    Option("heart_lead_ban_tricks", 2, doc="hearts may not be led to this many first tricks",
           rule="§1 heart lead ban", minimum=0),
    Option("heart_lead_ban_in_contracts", True, doc="the heart lead ban applies in Beddl and Mord "
           "too", rule="§1 heart lead ban"),
    Option("no_void", "pay-stock", ("pay-stock", "no-payment"),
           doc="with no void player, every player pays per heart into the stock, or nobody pays",
           rule="§1 settlement, 0 void players"),
    Option("stock_payout", "void", ("void", "never"),
           doc="the stock goes to the void player(s) of the next normal game with 1 or 2 void "
           "players, or is never paid out", rule="§1 stock payout"),
)


class _HerzlaBase(TrickContract):
    game: ClassVar[str] = "herzla"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[tuple[Option, ...]] = HERZLA_OPTIONS
    has_stock: ClassVar[bool] = True

    def pack(self) -> Pack:
        return PACK_32

    def rank_order(self) -> RankOrder:
        return ACE_TEN if self.opts["rank_order"] == "ace-ten" else NATURAL

    def _ban_applies(self) -> bool:
        return True

    def banned(self, state: TrickHand, seat: int, leading: bool) -> tuple[int, str] | None:
        ban = self.opts["heart_lead_ban_tricks"]
        assert isinstance(ban, int)
        if leading and len(state.tricks) < ban and self._ban_applies():
            return HEARTS_MASK, "heart-lead-ban"
        return None

    def score_total(self) -> int | None:
        return 0


class Normal(_HerzlaBase):
    """The normal game: hearts cost a unit each; void players collect; the stock carries over."""

    id: ClassVar[str] = "normal"
    title: ClassVar[str] = "Normal game"
    rule_ref: ClassVar[str] = "RULES.md §1"
    summary: ClassVar[str] = ("every taker pays a unit per heart captured to the void player(s); "
                              "all hearts to one player pay the stock; none void pay the stock")

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        n = self.players
        unit = int(self.opts["heart_unit"])
        stake = int(self.opts["contract_stake"])
        total = 8
        lines: list[str] = []
        scores = [0] * n
        tricks = outcome.tricks
        if tricks is not None:
            slam = [s for s in range(n) if tricks[s] == self.hand_size]
            if slam:
                s = slam[0]
                for o in range(n):
                    scores[o] = stake * (n - 1) if o == s else -stake
                lines.append(
                    f"Seat {s} won all 8 tricks without announcing Mord: Schleichermord, "
                    f"{stake}c from each opponent, {stake * (n - 1)}c in all; it replaces the "
                    f"heart settlement and the stock is untouched (RULES.md §1 Schleichermord)."
                )
                return HandScore(tuple(scores), stock, ("schleichermord",), tuple(lines))
        hearts = outcome.heart_counts()
        if sum(hearts) != total or min(hearts) < 0:
            raise TallyError(f"the hearts captured add up to {sum(hearts)}, not {total}")
        void = [s for s in range(n) if hearts[s] == 0]
        takers = [s for s in range(n) if hearts[s] > 0]
        taken = ", ".join(f"seat {s} {hearts[s]}" for s in takers)
        lines.append(f"Hearts captured: {taken}; {seat_list(void) or 'nobody'} void.")
        new_stock = stock
        events: list[str] = []
        if len(void) == n - 1:
            s = takers[0]
            scores[s] = -total * unit
            new_stock += total * unit
            events.append("all-hearts")
            lines.append(f"Seat {s} captured all {total} hearts and pays {total * unit}c to the "
                         f"stock (RULES.md §1, 3 void players).")
        elif not void:
            events.append("no-void")
            if self.opts["no_void"] == "pay-stock":
                for s in range(n):
                    scores[s] = -hearts[s] * unit
                new_stock += total * unit
                lines.append(f"Nobody is void: every player pays {unit}c per heart into the "
                             f"stock, {total * unit}c in all (RULES.md §1, 0 void players; "
                             f"option no_void=pay-stock).")
            else:
                lines.append("Nobody is void and nobody pays (RULES.md §1, 0 void players; "
                             "option no_void=no-payment).")
        else:
            events.append("one-void" if len(void) == 1 else "two-void")
            pot = 0
            for s in takers:
                scores[s] = -hearts[s] * unit
                pot += hearts[s] * unit
            share = pot // len(void)
            for s in void:
                scores[s] = share
            if len(void) == 1:
                lines.append(f"Every taker pays {unit}c per heart to seat {void[0]}, the only void "
                             f"player: {pot}c (RULES.md §1, 1 void player).")
            else:
                lines.append(f"The takers' {pot}c are pooled and split between "
                             f"{seat_list(void)}: {share}c each (RULES.md §1, 2 void players).")
            if stock and self.opts["stock_payout"] == "void":
                stock_share = stock // len(void)
                for s in void:
                    scores[s] += stock_share
                new_stock = stock - stock_share * len(void)
                events.append("stock-paid")
                if len(void) == 1:
                    lines.append(f"Seat {void[0]} also collects the stock of {stock}c "
                                 f"(RULES.md §1 stock payout).")
                else:
                    left = f"; {new_stock}c stays in the stock" if new_stock else ""
                    lines.append(f"They also split the stock of {stock}c, {stock_share}c each"
                                 f"{left} (RULES.md §1 stock payout).")
            elif stock:
                lines.append(f"The stock of {stock}c stays (option stock_payout=never).")
        lines.append(f"Stock after the hand: {new_stock}c.")
        return HandScore(tuple(scores), new_stock, tuple(events), tuple(lines))


class _Declared(_HerzlaBase):
    needs_declarer: ClassVar[bool] = True
    goal: ClassVar[str] = ""

    def _ban_applies(self) -> bool:
        return bool(self.opts["heart_lead_ban_in_contracts"])

    def made(self, tricks: Sequence[int]) -> bool:
        raise NotImplementedError

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        d = self.declarer if outcome.declarer is None else outcome.declarer
        if d is None:
            raise TallyError(f"{self.id} needs the declarer's seat")
        made = outcome.made
        if made is None:
            if outcome.tricks is None:
                raise TallyError(f"{self.id} needs the tricks won by each seat, or made/lost")
            made = self.made(outcome.tricks)
        stake = int(self.opts["contract_stake"])
        n = self.players
        sign = 1 if made else -1
        scores = [-sign * stake] * n
        scores[d] = sign * stake * (n - 1)
        if made:
            line = (f"Seat {d} made {self.title} ({self.goal}): each defender pays {stake}c, "
                    f"{stake * (n - 1)}c in all (RULES.md §1 contracts won).")
        else:
            line = (f"Seat {d} lost {self.title} ({self.goal}): seat {d} pays each defender "
                    f"{stake}c, {stake * (n - 1)}c in all (RULES.md §1 contracts lost).")
        lines = (line, f"The stock of {stock}c is left alone (RULES.md §1).")
        return HandScore(tuple(scores), stock, ("contract-made" if made else "contract-lost",),
                         lines)


class Beddl(_Declared):
    """Beddl: the declarer must win no trick; the hand ends the moment the declarer wins one."""

    id: ClassVar[str] = "beddl"
    title: ClassVar[str] = "Beddl"
    goal: ClassVar[str] = "win no trick"
    rule_ref: ClassVar[str] = "RULES.md §1"
    summary: ClassVar[str] = "the declarer wins no trick; ends the moment the declarer wins one"

    def made(self, tricks: Sequence[int]) -> bool:
        assert self.declarer is not None
        if tricks[self.declarer] > 0:
            if tricks[self.declarer] > 1:
                raise TallyError(f"Beddl ends the moment the declarer wins a trick, so seat "
                                 f"{self.declarer} cannot have won {tricks[self.declarer]}")
            return False
        if sum(tricks) < self.hand_size:
            raise TallyError("Beddl is made only when all 8 tricks are played without the "
                             "declarer winning one; the tricks given end too soon")
        return True

    def ends_early(self, state: TrickHand) -> bool:
        assert self.declarer is not None
        return state.won[self.declarer] > 0


class Mord(_Declared):
    """Mord: the declarer must win every trick; the hand ends the moment a defender wins one."""

    id: ClassVar[str] = "mord"
    title: ClassVar[str] = "Mord"
    goal: ClassVar[str] = "win every trick"
    rule_ref: ClassVar[str] = "RULES.md §1"
    summary: ClassVar[str] = "the declarer wins every trick; ends the moment a defender wins one"

    def made(self, tricks: Sequence[int]) -> bool:
        assert self.declarer is not None
        if sum(tricks) != tricks[self.declarer]:
            if sum(tricks) - tricks[self.declarer] > 1:
                raise TallyError("Mord ends the moment a defender wins a trick, so the defenders "
                                 f"cannot have won {sum(tricks) - tricks[self.declarer]}")
            return False
        if tricks[self.declarer] < self.hand_size:
            raise TallyError("Mord is made only when the declarer wins all 8 tricks; the "
                             "tricks given end too soon")
        return True

    def ends_early(self, state: TrickHand) -> bool:
        assert self.declarer is not None
        return sum(state.won) != state.won[self.declarer]


@attrs.frozen(slots=True)
class Bid:
    """The result of the bidding: the contract id and the declarer (None for a normal game)."""

    contract: str
    declarer: int | None


def resolve_bidding(announcements: Sequence[str], forehand: int, players: int = 4,
                    priority: str = "position") -> Bid:
    """Resolve announcements made in turn from forehand: ``"pass"``, ``"beddl"`` or ``"mord"``.

    With ``priority="position"`` the first announcement wins outright (RULES.md §1, positional
    priority); with ``"mord-over-beddl"`` a later Mord outbids an earlier Beddl.

    >>> resolve_bidding(["pass", "beddl", "mord", "pass"], forehand=0)
    Bid(contract='beddl', declarer=1)
    >>> resolve_bidding(["pass", "beddl", "mord", "pass"], 0, priority="mord-over-beddl")
    Bid(contract='mord', declarer=2)
    """
    best: Bid | None = None
    for i, word in enumerate(announcements[:players]):
        seat = (forehand + i) % players
        if word not in ("pass", "beddl", "mord"):
            raise ValueError(f"{word!r} is not an announcement (pass, beddl or mord)")
        if word == "pass":
            continue
        if best is None:
            best = Bid(word, seat)
            if priority == "position" or word == "mord":
                break
        elif word == "mord":
            best = Bid(word, seat)
            break
    return best or Bid("normal", None)


CONTRACTS = (Normal, Beddl, Mord)
