"""The simulator on the reference engines: slow, exact, and the yardstick for the batch engine.

It plays any contract, third-party ones included, with the policies of :mod:`herzla.sim.policies`
and the bidding heuristic, drawing its randomness from :mod:`herzla.machinery.streams` exactly as
the batch engine does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from herzla.cards import HEARTS_MASK
from herzla.contracts import Contract, LayoutContract, TrickContract, contract_class, game_of
from herzla.layout import LayoutHand
from herzla.machinery.moves import mark
from herzla.machinery.streams import block_generator, deal_masks, draw_block
from herzla.sim.policies import (
    bidding,
    heuristic_card,
    heuristic_lay,
    random_card,
    random_lay,
)
from herzla.sim.spec import BlockResult, DealSpec, counts_hearts, record_of, spec_contract
from herzla.tricks import TrickHand

__all__ = ["play_block", "play_hand"]


def play_hand(contract: Contract, hands: list[int], dealer: int, uniforms: Sequence[Any],
              policy: str = "random") -> tuple[TrickHand | LayoutHand, list[str]]:
    """Play one hand with a policy; returns the final state and the plays as a record writes them.

    ``uniforms`` are the hand's 32-bit move uniforms (the random policy draws one per card
    played or laid).
    """
    plays: list[str] = []
    k = 0
    heuristic = policy == "heuristic"
    if isinstance(contract, LayoutContract):
        lay = LayoutHand(contract, hands, dealer)
        while not lay.over:
            move = heuristic_lay(lay) if heuristic else random_lay(lay, int(uniforms[k]))
            if move is None:
                lay.pass_turn()
                continue
            k += 1
            plays.append(mark(lay, move))
            lay.lay(move.card, move.end)
        return lay, plays
    assert isinstance(contract, TrickContract)
    st = TrickHand(contract, hands, dealer)
    while not st.over:
        card = heuristic_card(st) if heuristic else random_card(st, int(uniforms[k]))
        k += 1
        st.play(card)
        plays.append(str(card))
    return st, plays


def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0
               ) -> BlockResult:
    """Play ``n`` hands of block ``key`` of ``seed`` on the reference engines."""
    base, bid = spec_contract(spec)
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
    codes = list(game_of(base).bidding)
    cache: dict[tuple[str, int | None], Contract] = {(base.id, None): base}
    for i in range(n):
        hands = deal_masks(cards[i], players, size)
        contract = base
        if bid:
            contract_id, declarer = bidding(hands, spec.dealer, base)
            if (contract_id, declarer) not in cache:
                cls = contract_class(spec.game, contract_id)
                cache[contract_id, declarer] = cls(players, spec.options, declarer)
            contract = cache[contract_id, declarer]
            assert contracts is not None
            contracts[i] = codes.index(contract_id)
        state, plays = play_hand(contract, hands, spec.dealer, uniforms[i], spec.policy)
        result = contract.score(state.outcome(), spec.stock)
        scores[i] = result.scores
        if hearts is not None:
            assert isinstance(state, TrickHand)
            hearts[i] = [(m & HEARTS_MASK).bit_count() for m in state.captured]
        if stock_after is not None:
            stock_after[i] = result.stock if result.stock is not None else spec.stock
        for e in result.events:
            events[e] = events.get(e, 0) + 1
        if i < records:
            out.append(record_of(contract, spec, hands, plays))
    return BlockResult(scores, stock_after, events, contracts, tuple(out), hearts)
