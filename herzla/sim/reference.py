"""The simulator on the reference engines: slow, exact, and the yardstick for the batch engine.

It plays any contract, third-party ones included, with the policies of :mod:`herzla.sim.policies`
and the Herzla bidding heuristic, drawing its randomness from :mod:`herzla.sim.streams` exactly as
the batch engine does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from herzla.cards import HEARTS_MASK, cards_of
from herzla.contracts import contracts_of, get_contract
from herzla.contracts.base import Contract, LayoutContract, TrickContract
from herzla.layout import LayoutHand
from herzla.records import sort_hand
from herzla.sim.engine import BlockResult, DealSpec, counts_hearts
from herzla.sim.policies import (
    POLICIES,
    bidding,
    heuristic_card,
    heuristic_lay,
    mark,
    random_card,
    random_lay,
)
from herzla.sim.streams import block_generator, deal_masks, draw_block
from herzla.tricks import TrickHand

__all__ = ["CONTRACT_CODES", "play_block", "play_hand", "spec_rules"]

#: BlockResult.contracts codes of the Herzla bidding
CONTRACT_CODES = ("normal", "beddl", "mord")


def spec_rules(spec: DealSpec) -> tuple[Contract, bool]:
    """The contract a spec plays (the normal game when bidding) and whether it bids each hand.

    ``contract=None`` means bidding in Herzla, and the only contract of a game that has one;
    Beddl and Mord without a declarer are played by forehand.
    """
    if spec.policy not in POLICIES:
        raise ValueError(f"unknown policy {spec.policy!r} (known: {', '.join(POLICIES)})")
    bid = False
    if spec.contract is None:
        if spec.game == "herzla":
            bid = True
            cls = get_contract("herzla", "normal")
        else:
            classes = contracts_of(spec.game)
            if len(classes) != 1:
                raise ValueError(f"{spec.game} needs a contract (bidding is Herzla's alone)")
            cls = classes[0]
    else:
        cls = get_contract(spec.game, spec.contract)
    if not 0 <= spec.dealer < spec.players:
        raise ValueError(f"dealer {spec.dealer} is not a seat of {spec.players} players")
    declarer = None
    if cls.needs_declarer:
        declarer = (spec.dealer + 1) % spec.players if spec.declarer is None else spec.declarer
    return cls(spec.players, spec.options, declarer), bid


def play_hand(rules: Contract, hands: list[int], dealer: int, uniforms: Sequence[Any],
              policy: str = "random") -> tuple[TrickHand | LayoutHand, list[str]]:
    """Play one hand with a policy; returns the final state and the plays as a record writes them.

    ``uniforms`` are the hand's 32-bit move uniforms (the random policy draws one per card
    played or laid).
    """
    plays: list[str] = []
    k = 0
    heuristic = policy == "heuristic"
    if isinstance(rules, LayoutContract):
        lay = LayoutHand(rules, hands, dealer)
        while not lay.over:
            move = heuristic_lay(lay) if heuristic else random_lay(lay, int(uniforms[k]))
            if move is None:
                lay.pass_turn()
                continue
            k += 1
            plays.append(mark(lay, move))
            lay.lay(move.card, move.end)
        return lay, plays
    assert isinstance(rules, TrickContract)
    st = TrickHand(rules, hands, dealer)
    while not st.over:
        card = heuristic_card(st) if heuristic else random_card(st, int(uniforms[k]))
        k += 1
        st.play(card)
        plays.append(str(card))
    return st, plays


def record_of(rules: Contract, spec: DealSpec, hands: Sequence[int], plays: list[str]
              ) -> dict[str, Any]:
    """A sample hand as a hand record (spec/hand-record.md)."""
    return {
        "game": rules.game, "contract": rules.id, "players": spec.players,
        "dealer": spec.dealer, "declarer": rules.declarer, "stock": spec.stock,
        "options": dict(spec.options),
        "hands": [[str(c) for c in sort_hand(cards_of(h), rules)] for h in hands],
        "plays": plays,
    }


def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0
               ) -> BlockResult:
    """Play ``n`` hands of block ``key`` of ``seed`` on the reference engines."""
    base, bid = spec_rules(spec)
    players = spec.players
    size = base.hand_size
    pack = [c.index for c in base.pack().cards]
    cards, uniforms = draw_block(block_generator(seed, key), n, pack, players * size)
    scores = np.zeros((n, players), dtype=np.int64)
    stock_after = np.zeros(n, dtype=np.int64) if base.has_stock else None
    contracts = np.zeros(n, dtype=np.int8) if bid else None
    hearts = np.zeros((n, players), dtype=np.int64) if counts_hearts(base, bid) else None
    events: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    cache: dict[tuple[str, int | None], Contract] = {("normal", None): base}
    for i in range(n):
        hands = deal_masks(cards[i], players, size)
        rules = base
        if bid:
            b = bidding(hands, spec.dealer, base)
            if (b.contract, b.declarer) not in cache:
                cls = get_contract("herzla", b.contract)
                cache[b.contract, b.declarer] = cls(players, spec.options, b.declarer)
            rules = cache[b.contract, b.declarer]
            assert contracts is not None
            contracts[i] = CONTRACT_CODES.index(b.contract)
        state, plays = play_hand(rules, hands, spec.dealer, uniforms[i], spec.policy)
        result = rules.score(state.outcome(), spec.stock)
        scores[i] = result.scores
        if hearts is not None:
            assert isinstance(state, TrickHand)
            hearts[i] = [(m & HEARTS_MASK).bit_count() for m in state.captured]
        if stock_after is not None:
            stock_after[i] = result.stock if result.stock is not None else spec.stock
        for e in result.events:
            events[e] = events.get(e, 0) + 1
        if i < records:
            out.append(record_of(rules, spec, hands, plays))
    return BlockResult(scores, stock_after, events, contracts, tuple(out), hearts)
