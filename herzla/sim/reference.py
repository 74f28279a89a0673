"""The simulator on the reference engines: slow, exact, and the yardstick for the batch engine."""

from __future__ import annotations

from typing import Any

import numpy as np

from herzla.cards import cards_of
from herzla.contracts import get_contract
from herzla.contracts.base import Contract, LayoutContract, TrickContract
from herzla.layout import LayoutHand
from herzla.records import sort_hand
from herzla.sim.engine import BlockResult, DealSpec
from herzla.sim.streams import block_generator, deal_masks, draw_block, pick
from herzla.tricks import TrickHand

__all__ = ["play_block", "play_hand"]


def _rules(spec: DealSpec) -> Contract:
    cls = get_contract(spec.game, spec.contract or "normal")
    return cls(spec.players, spec.options, spec.declarer if cls.needs_declarer else None)


def play_hand(rules: Contract, hands: list[int], dealer: int, uniforms: Any
              ) -> tuple[TrickHand | LayoutHand, list[str]]:
    """Play one hand with the random policy; returns the final state and the plays written."""
    plays: list[str] = []
    k = 0
    if isinstance(rules, LayoutContract):
        lay = LayoutHand(rules, hands, dealer)
        while not lay.over:
            moves = lay.legal_moves()
            if not moves:
                lay.pass_turn()
                plays.append("pass")
                continue
            move = moves[pick(float(uniforms[k]), len(moves))]
            k += 1
            lay.lay(move.card, move.end)
            plays.append(str(move))
        return lay, plays
    assert isinstance(rules, TrickContract)
    st = TrickHand(rules, hands, dealer)
    while not st.over:
        legal = cards_of(st.legal_mask())
        card = legal[pick(float(uniforms[k]), len(legal))]
        k += 1
        st.play(card)
        plays.append(str(card))
    return st, plays


def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0
               ) -> BlockResult:
    rules = _rules(spec)
    pack = [c.index for c in rules.pack().cards]
    gen = block_generator(seed, key)
    perm, uniforms = draw_block(gen, n, len(pack), len(pack) * 2)
    scores = np.zeros((n, spec.players), dtype=np.int64)
    stock_after = np.zeros(n, dtype=np.int64) if rules.has_stock else None
    events: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    for i in range(n):
        hands = deal_masks(perm[i], pack, spec.players, rules.hand_size)
        state, plays = play_hand(rules, hands, spec.dealer, uniforms[i])
        result = rules.score(state.outcome(), spec.stock)
        scores[i] = result.scores
        if stock_after is not None:
            stock_after[i] = result.stock if result.stock is not None else spec.stock
        for e in result.events:
            events[e] = events.get(e, 0) + 1
        if i < records:
            out.append({
                "game": spec.game, "contract": rules.id, "players": spec.players,
                "dealer": spec.dealer, "declarer": rules.declarer, "stock": spec.stock,
                "options": dict(spec.options),
                "hands": [[str(c) for c in sort_hand(cards_of(h), rules)] for h in hands],
                "plays": plays,
            })
    return BlockResult(scores, stock_after, events, None, tuple(out))
