"""The simulator on the reference engines: slow, exact, and the yardstick for the batch engine.

It plays any contract, third-party ones included, with any policy (:mod:`herzla.players`), one a
seat, each deciding on its own view of the hand, and draws its randomness from
:mod:`herzla.support.streams` exactly as the batch engine does.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from herzla.cards import HEARTS_MASK
from herzla.contracts import Contract, game_of
from herzla.hand import Hand
from herzla.players.bidding import announcements
from herzla.players.registry import PolicyLike, seats_of
from herzla.players.seats import play_out
from herzla.round import Round, make_contract
from herzla.sim.spec import BlockResult, DealSpec, counts_hearts, sample_record, spec_contract
from herzla.support.streams import block_generator, deal_masks, draw_block

__all__ = ["play_block", "play_hand"]


def play_hand(contract: Contract, hands: list[int], dealer: int, uniforms: Sequence[Any],
              policy: PolicyLike = "random", stock: int = 0,
              announced: tuple[str, ...] = ()) -> tuple[Hand, list[str]]:
    """Play one hand with a policy (or one a seat); returns the final hand and the plays as a
    record writes them (a layout seat's passes left out).

    ``uniforms`` are the hand's 32-bit move uniforms (move ``k`` is handed uniform ``k``; the
    random policy draws its card with it).  Each seat decides on its own view and is asked
    through :func:`herzla.players.seats.play_out`: PolicyError names a policy that chose an
    illegal move, answered what is not a move, or raised.
    """
    seats = seats_of(policy, contract.players)
    deal = Round(contract, hands, dealer, stock, bids=announced)
    plays = play_out(deal, seats, lambda k: int(uniforms[k]))
    assert deal.hand is not None
    return deal.hand, plays


def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0,
               stock: npt.NDArray[np.int64] | None = None) -> BlockResult:
    """Play ``n`` hands of block ``key`` of ``seed`` on the reference engines; ``stock`` the
    stock before each hand (n,) where each has its own (the evenings of a session), else the
    spec's for all."""
    base, bid = spec_contract(spec)
    players = spec.players
    seats = spec.policies
    size = base.hand_size
    pack = [c.index for c in base.pack().cards]
    cards, uniforms = draw_block(block_generator(seed, key), n, pack, players * size)
    scores = np.zeros((n, players), dtype=np.int64)
    stock_after = np.zeros(n, dtype=np.int64) if base.has_stock else None
    contracts = np.zeros(n, dtype=np.int8) if bid else None
    hearts = np.zeros((n, players), dtype=np.int64) if counts_hearts(base, bid) else None
    events: dict[str, int] = {}
    hits: dict[str, npt.NDArray[np.bool_]] = {}
    declarers = np.full(n, -1, dtype=np.int8) if bid else None
    out: list[dict[str, Any]] = []
    codes = list(game_of(base).bidding)

    @functools.cache
    def made(cid: str, declarer: int | None) -> Contract:
        return make_contract(spec.game, cid, players, spec.options, declarer)

    for i in range(n):
        hands = deal_masks(cards[i], players, size)
        before = spec.stock if stock is None else int(stock[i])
        deal = Round(base, hands, spec.dealer, before, bidding=bid, make=made)
        for word in announcements(hands, spec.dealer, base, seats) if bid else ():
            deal.announce(word)
        row = uniforms[i]
        plays = play_out(deal, seats, lambda k: int(row[k]))  # noqa: B023 (used at once)
        assert deal.hand is not None and deal.contract is not None
        if contracts is not None and declarers is not None:
            contracts[i] = codes.index(deal.contract.id)
            if deal.contract.declarer is not None:
                declarers[i] = deal.contract.declarer
        outcome = deal.hand.outcome()
        result = deal.contract.score(outcome, before)  # the hand's score, its outcome read once
        scores[i] = result.scores
        if hearts is not None:
            assert outcome.captured is not None  # a deal whose hearts count is played in tricks
            hearts[i] = [(m & HEARTS_MASK).bit_count() for m in outcome.captured]
        if stock_after is not None:
            stock_after[i] = result.stock if result.stock is not None else before
        for e in result.events:
            events[e] = events.get(e, 0) + 1
            if e not in hits:
                hits[e] = np.zeros(n, dtype=np.bool_)
            hits[e][i] = True
        if i < records:
            out.append(sample_record(deal.contract, spec, hands, plays, before))
    return BlockResult(scores, stock_after, events, contracts, tuple(out), hearts,
                       {k: hits[k] for k in sorted(hits)}, declarers)
