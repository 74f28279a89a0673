"""Conformance checks that every contract, herzla's own and third parties', must pass.

``check_contract`` deals seeded random hands, plays them with uniformly random legal moves on the
reference engine, and checks the invariants every contract must keep: the play never gets stuck,
every card stays in exactly one place, undo and copy restore the state exactly, the hand ends, the
score has one whole number per seat (adding up to ``score_total()`` where the contract fixes one,
the stock included), and a hand record of the hand replays to the same score.

>>> from herzla.contracts import contract_class
>>> report = check_contract(contract_class("herzeln", "domino"), players=3, hands=20)
>>> report.hands
20
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from herzla.contracts.base import Contract
from herzla.hand import PASS, Hand, Move, written
from herzla.i18n import _
from herzla.records import read_record, replay
from herzla.support.streams import seeded_deal

__all__ = ["ConformanceError", "ConformanceReport", "check_contract", "random_hand"]


class ConformanceError(AssertionError):
    """A contract broke an invariant; the message says which, in which hand."""


@attrs.frozen(slots=True)
class ConformanceReport:
    """What ``check_contract`` played: hands, moves, and the totals it saw per seat."""

    contract_id: str
    players: int
    hands: int
    moves: int
    totals: tuple[int, ...]
    early_ends: int


def _deal(contract: Contract, rnd: random.Random) -> list[int]:
    return seeded_deal(contract.pack(), contract.players, contract.hand_size,
                       rnd.getrandbits(63))


def _play(contract: Contract, dealt: list[int], dealer: int, rnd: random.Random,
          after: Callable[[Hand, Move], None] | None = None) -> Hand:
    """Play a dealt hand with random legal moves, calling ``after(state, move)`` after each."""
    state = contract.new_hand(dealt, dealer)
    limit = 4 * len(contract.pack()) + 4 * contract.players
    while not state.over:
        limit -= 1
        if limit < 0:
            raise ConformanceError(_("{game} {id}: the hand did not end").format(
                game=contract.game, id=contract.id))
        legal = state.legal_moves()
        if not legal:
            raise ConformanceError(_("{game} {id}: seat {turn} has no "
                                     "legal move").format(
                game=contract.game, id=contract.id, turn=state.turn))
        move = PASS if legal == [PASS] else rnd.choice(legal)
        state.play(move)
        if after is not None:
            after(state, move)
    return state


def random_hand(contract: Contract, rnd: random.Random, dealer: int | None = None
                ) -> tuple[list[int], Hand, list[str]]:
    """Deal and play one hand with random legal moves; (dealt hands, final state, plays)."""
    dealer = contract.players - 1 if dealer is None else dealer
    dealt = _deal(contract, rnd)
    state = _play(contract, dealt, dealer, rnd)
    return dealt, state, [str(m) for m in state.moves]


def _check_views(state: Hand, contract: Contract, h: int) -> None:
    """The legal moves agree with check()."""
    legal = state.legal_moves()
    if not legal:
        raise _fail(_("seat {turn} has no legal move").format(turn=state.turn), contract, h)
    for move in legal:
        if state.check(move) is not None:
            raise _fail(_("{move} is a legal move but check() refuses it").format(
                move=move), contract, h)


def _fail(what: str, contract: Contract, hand: int) -> ConformanceError:
    return ConformanceError(_("{game} {id} ({players} players), "
                              "hand {hand}: {what}").format(
        game=contract.game, id=contract.id, players=contract.players, hand=hand, what=what))


def _snapshot(st: Hand) -> tuple[Any, ...]:
    return (tuple(st.hands), st.moves, st.turn, st.over, tuple(st.legal_moves()), st.outcome())


def _conserved(st: Hand, dealt_mask: int) -> bool:
    """Every card is in exactly one place, a hand or played, and (trick deals) every card
    captured was played and is captured once."""
    seen = 0
    for m in st.hands:
        if seen & m:
            return False
        seen |= m
    played = 0
    for move in st.moves:
        if move.card is not None:
            if (seen | played) & move.card.bit:
                return False
            played |= move.card.bit
    took = 0
    for m in st.outcome().captured or ():
        if took & m:
            return False
        took |= m
    return seen | played == dealt_mask and took & ~played == 0


def check_contract(
    contract_cls: type[Contract],
    players: int | None = None,
    hands: int = 200,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    declarer: int | None = None,
    stock: int = 0,
) -> ConformanceReport:
    """Play ``hands`` random legal hands of ``contract`` and check its invariants.

    Raises :class:`ConformanceError` naming the broken invariant and the hand.  The contract
    class need not be registered.
    """
    n = players if players is not None else contract_cls.player_counts[0]
    if contract_cls.needs_declarer and declarer is None:
        declarer = 0
    contract = contract_cls(n, options, declarer if contract_cls.needs_declarer else None)
    rnd = random.Random(seed)
    totals = [0] * n
    moves = 0
    early = 0
    for h in range(hands):
        dealer = rnd.randrange(n)
        dealt = _deal(contract, rnd)
        dealt_mask = 0
        for m in dealt:
            dealt_mask |= m
        count = [0]

        def after(state: Hand, move: Move, h: int = h,
                  dealt_mask: int = dealt_mask, count: list[int] = count) -> None:
            count[0] += 1
            if not _conserved(state, dealt_mask):
                raise _fail(_("after {move} a card is lost or in two places").format(
                    move=move), contract, h)
            if not state.over:
                _check_views(state, contract, h)
            if not move.is_pass and rnd.random() < 0.1:
                now = _snapshot(state)
                copy = state.copy()
                state.undo()
                if state.check(move) is not None:
                    raise _fail(_("{move} was played but check() refuses it").format(
                        move=move), contract, h)
                state.play(move)
                if _snapshot(state) != now or _snapshot(copy) != now:
                    raise _fail(_("undo/copy around {move} did not restore the state").format(
                        move=move), contract, h)

        state = _play(contract, dealt, dealer, rnd, after)
        moves += count[0]
        played = state.outcome().tricks_played
        if played is not None and played < contract.hand_size:
            early += 1
        result = contract.score(state.outcome(), stock)
        if len(result.scores) != n or not all(isinstance(v, int) for v in result.scores):
            raise _fail(_("the score {scores} is not one whole number per seat").format(
                scores=result.scores), contract, h)
        fixed = contract.score_total()
        stock_change = (result.stock - stock) if result.stock is not None else 0
        if fixed is not None and sum(result.scores) + stock_change != fixed:
            raise _fail(_("the scores {scores} (stock change {stock_change}) add up to "
                          "{total}, not {fixed}").format(
                scores=result.scores, stock_change=stock_change,
                total=sum(result.scores) + stock_change, fixed=fixed), contract, h)
        record = {**written(state), "stock": stock, "options": dict(options or {})}
        again = replay(read_record(record, type(contract)))
        if again.illegal is not None or not again.complete or again.scores != result.scores:
            raise _fail(_("the hand record does not replay to the same score "
                          "({value})").format(value=again.illegal or again.scores), contract, h)
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
    return ConformanceReport(contract.id, n, hands, moves, tuple(totals), early)
