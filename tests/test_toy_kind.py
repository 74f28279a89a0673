"""A third kind of deal, plugged in through registration alone (no change to herzla): a climbing
game.  The seat to move plays a card higher than the last one played, or passes; once every other
seat has passed after a card, the table clears and that card's seat leads anything.  Seats go out
in the order they empty their hands and are scored by their places (the declaration of a layout
deal's places; the rows are never laid).

The kind is a contract class whose ``kind`` names it, an engine that plays the one hand interface
and a :class:`herzla.kinds.KindOfDeal` registered for it; then shipped policies play it, its
record is written, read back and replayed, and it is drawn (text and HTML), the solver and the
batch engine declining it with one line each.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Self

import attrs
import pytest

from herzla.analysis.solve import SolveError, solve
from herzla.cards import Card, Rank, cards_of, hand_mask
from herzla.contracts import LayoutContract, Rows
from herzla.draw.course import course
from herzla.draw.html import hand_html
from herzla.draw.text import draw_text
from herzla.hand import (
    PASS,
    HandNotOver,
    HandScore,
    Illegal,
    Move,
    Outcome,
    Trick,
    as_move,
    record_of,
    refuse,
    written,
)
from herzla.kinds import OnTable, Plane, Replayed, kind_of, register_kind
from herzla.players.registry import policy_of
from herzla.players.views import view_of
from herzla.records import Record, replay
from herzla.sim.batch.block import unsupported
from herzla.sim.spec import DealSpec
from herzla.support.streams import seeded_deal

KIND = "climb"


class Climb(LayoutContract):
    """The toy's contract: places 0, -1, -2, -3 by going out."""

    game: ClassVar[str] = "toy"
    id: ClassVar[str] = "climb"
    title: ClassVar[str] = "Climb"
    kind: ClassVar[str] = KIND
    rows = Rows(tuple(Rank))  # declared for the scoring by places; never laid
    places = (0, -1, -2, -3)


class ClimbHand:
    """The toy's engine: a :class:`herzla.hand.Hand`."""

    def __init__(self, contract: Climb, hands: Sequence[Any], dealer: int,
                 stock: int = 0) -> None:
        self.contract = contract
        self.players = contract.players
        self.dealer = dealer
        self.stock = stock
        self.hands = [hand_mask(h) for h in hands]
        self.dealt = tuple(self.hands)
        self.turn = (dealer + 1) % self.players
        self.top: tuple[int, Card] | None = None  # the last card and its seat
        self.passes = 0
        self.order: list[int] = []
        self.over = False
        self.moves: tuple[Move, ...] = ()
        self._undo: list[tuple[Any, ...]] = []

    @property
    def must_pass(self) -> bool:
        return self.legal_moves() == [PASS]

    @property
    def trick_place(self) -> None:
        return None

    def _strength(self, card: Card) -> int:
        return self.contract.rank_order().strength[card.rank] * 4 + card.suit

    def legal_moves(self) -> list[Move]:
        if self.over:
            return []
        held = cards_of(self.hands[self.turn])
        if self.top is None:
            return [Move(c) for c in held]
        top = self._strength(self.top[1])
        return [Move(c) for c in held if self._strength(c) > top] + [PASS]

    def check(self, move: Move | Card | str) -> Illegal | None:
        if self.over:
            return Illegal("hand-over", "the hand is over")
        if as_move(move) in self.legal_moves():
            return None
        return Illegal("must-climb", f"seat {self.turn} must play higher than the last card")

    def play(self, move: Move | Card | str) -> None:
        refuse(self, move, self.check(move))
        self._play(move)

    def _play(self, move: Move | Card | str) -> Trick | None:
        m = as_move(move)
        self._undo.append((self.turn, self.top, self.passes, len(self.order), self.over))
        seat = self.turn
        if m.card is None:
            self.passes += 1
        else:
            self.hands[seat] &= ~m.card.bit
            self.top, self.passes = (seat, m.card), 0
            if not self.hands[seat]:
                self.order.append(seat)
        self.moves = (*self.moves, m)
        still = [s for s in range(self.players) if s not in self.order]
        if len(still) == 1:
            self.order.append(still[0])
            self.over = True
            return None
        assert self.top is not None
        if self.passes >= len(still) - (self.top[0] in still):  # all the others passed
            leader = self.top[0]
            self.top, self.passes = None, 0
            while leader in self.order:
                leader = (leader + 1) % self.players
            self.turn = leader
            return None
        self.turn = (seat + 1) % self.players
        while self.turn in self.order:
            self.turn = (self.turn + 1) % self.players
        return None

    def undo(self) -> Move:
        m = self.moves[-1]
        self.turn, self.top, self.passes, out, self.over = self._undo.pop()
        del self.order[out:]
        if m.card is not None:
            self.hands[self.turn] |= m.card.bit
        self.moves = self.moves[:-1]
        return m

    def copy(self) -> Self:
        other = type(self)(self.contract, self.dealt, self.dealer, self.stock)
        for m in self.moves:
            other._play(m)
        return other

    def holding(self, seat: int, cards: int) -> Self:
        other = self.copy()
        other.hands[seat] = cards
        return other

    def outcome(self) -> Outcome:
        return Outcome(self.players, order=tuple(self.order), out=tuple(self.order))

    def score(self) -> HandScore:
        if not self.over:
            raise HandNotOver("the hand is not over")
        return self.contract.score(self.outcome(), self.stock)

    def record(self) -> Any:
        return record_of(self)


@attrs.frozen
class ClimbView:
    """What the seat to move sees: its hand, the last card, the legal moves."""

    contract: Climb
    seat: int
    hand: int
    dealer: int
    top: Card | None
    legal: tuple[Move, ...]
    uniform: int = 0

    @property
    def players(self) -> int:
        return self.contract.players

    @property
    def turn(self) -> int:
        return self.seat

    @property
    def options(self) -> Mapping[str, Any]:
        return self.contract.opts

    def legal_moves(self) -> list[Move]:
        return list(self.legal)


class ClimbKind:
    """The toy's :class:`herzla.kinds.KindOfDeal`."""

    name = KIND
    words = "climbing deal"
    engine = ClimbHand

    def view(self, hand: Any, uniform: int, stock: int = 0,
             announcements: tuple[str, ...] = ()) -> ClimbView:
        return ClimbView(hand.contract, hand.turn, hand.hands[hand.turn], hand.dealer,
                         hand.top[1] if hand.top else None, tuple(hand.legal_moves()), uniform)

    def written(self, hand: Any, move: Move) -> str:
        return str(move)

    def shown(self, hand: Any) -> Replayed:
        order = tuple(hand.order)
        return Replayed(order=order, lines=() if hand.over else (f"{len(order)} seats out",))

    def report(self, shown: Replayed) -> list[str]:
        return [f"  out in order: {' '.join(map(str, shown.order or ()))}"]

    def json(self, shown: Replayed) -> dict[str, Any]:
        return {"tricks": None, "order": list(shown.order or ())}

    def table(self, hand: Any) -> OnTable:
        return OnTable(tuple(hand.hands), out=tuple(hand.order))

    def rows(self, contract: Any) -> tuple[int, ...]:
        return ()

    def planes(self, players: int, cards: int, contracts: Sequence[Any]) -> list[Plane]:
        return []

    def observe(self, hand: Any, blocks: Mapping[str, tuple[int, tuple[int, ...]]],
                cards: Sequence[Card], rel: Callable[[int], int], rows: list[tuple[int, int]],
                at: list[int], values: list[float]) -> None:
        return None


register_kind(ClimbKind())


def _played(seed: int, policies: Sequence[str]) -> Record:
    """A deal of the toy played out by shipped policies, through the views of its kind."""
    climb = Climb()
    hand = climb.new_hand(seeded_deal(climb.pack(), 4, climb.hand_size, seed), dealer=3)
    assert isinstance(hand, ClimbHand)  # the engine its kind registered
    seats = [policy_of(p) for p in policies]
    k = 0
    while not hand.over:
        view = view_of(hand, uniform=(seed * 7919 + k) % 2 ** 32)
        assert isinstance(view, ClimbView)
        hand.play(seats[hand.turn].move(view))
        k += 1
    return Record.from_json(written(hand), Climb)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_toy_kind_plays_replays_and_is_drawn(seed: int) -> None:
    assert kind_of(Climb).name == KIND
    rec = _played(seed, ["random", "heuristic", "random", "random"])
    # replays: the record read back is the same, and its replay scores the places
    again = Record.from_json(rec.to_json(), Climb)
    assert again == rec
    result = replay(again)
    assert result.complete and result.illegal is None
    assert sorted(result.order or ()) == [0, 1, 2, 3] and result.tricks is None
    assert sorted(result.scores or ()) == [-3, -2, -1, 0]
    assert result.to_dict()["order"] == list(result.order or ())
    assert "out in order" in result.report()
    # an illegal play is named by the engine's own rule
    plays = rec.to_json()["plays"]
    bad = replay(Record.from_json({**rec.to_json(), "plays": [plays[0], plays[0]]}, Climb))
    assert bad.illegal is not None and bad.illegal.rule in ("must-climb", "not-in-hand")
    # drawn move by move
    drawn = draw_text(course(again))
    assert "Result: complete" in drawn
    assert all(str(m.card) in drawn for m in again.plays if m.card is not None)
    assert "pass" in hand_html(course(again))


def test_the_layers_that_read_one_kind_decline_the_toy() -> None:
    rec = _played(4, ["random"] * 4)
    with pytest.raises(SolveError, match="climbing deal"):
        solve(Record.from_json({**rec.to_json(), "plays": []}, Climb))
    spec = DealSpec.at(Climb(), 3, [policy_of("random") for _ in range(4)])
    assert "neither a trick nor a layout deal" in (unsupported(spec) or "")
