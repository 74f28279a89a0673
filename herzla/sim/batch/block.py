"""A block of the batch engine: which specs it can play (:func:`unsupported`), and
:func:`play_block` and :func:`play_blocks`, chunk by chunk."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract, LayoutContract, TrickContract
from herzla.sim.batch.bidding import bidding_contracts
from herzla.sim.batch.bits import bits_of
from herzla.sim.batch.dealing import deal_chunk
from herzla.sim.batch.form import BatchForm
from herzla.sim.batch.layout import layout_chunk
from herzla.sim.batch.named import batch_form_of
from herzla.sim.batch.rows import LayoutSetup
from herzla.sim.batch.trick_deals import ChunkScores, trick_chunk
from herzla.sim.spec import BlockResult, DealSpec, counts_hearts
from herzla.support.streams import block_generator

__all__ = ["DEFAULT_CHUNK", "batch_forms", "play_block", "play_blocks", "supported",
           "unsupported"]

#: hands per chunk: big enough to amortise numpy's per-call cost, small enough for the caches
DEFAULT_CHUNK = 16384


def _kinds(contract: Contract) -> tuple[LayoutContract | None, TrickContract | None]:
    """``contract`` where it is a layout deal, and where a trick deal: the batch engine's one
    question of kind, since each of its kernels reads its own kind's declaration (the layout
    kernel the rows, the trick kernel the tricks); a kind it has no kernel for is neither."""
    kind = str(contract.kind)
    return (contract if isinstance(contract, LayoutContract) and kind == "layout" else None,
            contract if isinstance(contract, TrickContract) and kind == "tricks" else None)


def _unsupported_contract(contract: Contract) -> str | None:
    cls = type(contract)
    layout, tricks = _kinds(contract)
    if layout is None and tricks is None:
        return f"the contract {contract.key()}, which is neither a trick nor a layout deal"
    for hook in cls.own_hooks():
        return (f"the contract {contract.key()} ({cls.__module__}.{cls.__qualname__}), "
                f"whose {hook}() is Python of its own rather than a declaration")
    try:
        bits = bits_of(contract.pack(), contract.rank_order())
        if layout is not None:
            LayoutSetup.of(layout, bits)
    except ValueError as exc:
        return f"the contract {contract.key()}: {exc}"
    if tricks is not None:
        if contract.may_end_early and contract.declarer is None:
            return f"the contract {contract.key()}: an early end needs a declarer"
        if contract.hand_size > 255 // 4:
            return f"the contract {contract.key()}: hands of {contract.hand_size} cards"
    return None


def batch_forms(spec: DealSpec) -> tuple[BatchForm, ...] | None:
    """Each seat's batch form, or None when some seat's policy has none."""
    forms = []
    for policy in spec.policies:
        form = batch_form_of(policy)
        if form is None:
            return None
        forms.append(form)
    return tuple(forms)


def unsupported(spec: DealSpec) -> str | None:
    """Why the batch engine cannot play ``spec`` (naming the contract and the hook, or the
    policy without a batch form), or None."""
    base, bid = spec.contract, spec.bid
    for policy in spec.policies:
        if batch_form_of(policy) is None:
            return f"the policy {policy.spec()}, which has no batch form"
    for contract in bidding_contracts(base) if bid else (base,):
        reason = _unsupported_contract(contract)
        if reason is not None:
            return reason
    return None


def supported(spec: DealSpec) -> bool:
    return unsupported(spec) is None


def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0,
               chunk: int = DEFAULT_CHUNK, checked: bool = False,
               stock: npt.NDArray[np.int64] | None = None) -> BlockResult:
    """Play ``n`` hands of block ``key`` of ``seed``, ``chunk`` hands at a time.

    ``stock``: the stock before each hand (n,), where each hand has its own (the evenings of a
    session, each a lane of the block carrying its stock from deal to deal); None: the spec's
    for every hand.  Raises ValueError naming the contract and hook when the batch engine
    cannot play ``spec`` (``checked``: the caller has just asked :func:`unsupported`).
    """
    return play_blocks((spec,), seed, key, n, records, chunk, checked, stock)[0]


def play_blocks(specs: Sequence[DealSpec], seed: int, key: tuple[int, ...], n: int,
                records: int = 0, chunk: int = DEFAULT_CHUNK, checked: bool = False,
                stock: npt.NDArray[np.int64] | None = None) -> list[BlockResult]:
    """:func:`play_block` for each of ``specs``, which differ in their policies only (the
    seatings of a match): the same hands, dealt once per chunk and played by each spec's
    seats in turn.  Each answer is the one :func:`play_block` gives for its spec alone.
    """
    if stock is not None and stock.shape != (n,):
        raise ValueError(f"a stock for each of {n} hands, not of shape {stock.shape}")
    if not specs:
        return []
    first = specs[0]
    for spec in specs[1:]:
        if attrs.evolve(spec, policies=first.policies, policy=first.policy) != first:
            raise ValueError("the specs of one block differ in more than their policies")
    reasons = [None if checked else unsupported(spec) for spec in specs]
    for reason in reasons:
        if reason is not None:
            raise ValueError(f"the batch engine cannot play {reason}")
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    base, bid = first.contract, first.bid
    P = first.players
    size = base.hand_size
    pack = base.pack()
    bits = bits_of(pack, base.rank_order())
    gen = block_generator(seed, key)
    layout = _kinds(base)[0]
    rows = layout is not None
    all_forms = []
    for spec in specs:
        forms = batch_forms(spec)
        if forms is None:
            raise ValueError(f"the batch engine cannot play {unsupported(spec)}")
        all_forms.append(forms)
    wants_u = [any(f.uniforms for f in forms) for forms in all_forms]
    plays = [_BlockPlay(spec, base, bid, n) for spec in specs]
    for c0 in range(0, n, chunk):
        size_c = min(chunk, n - c0)
        hands, uniforms = deal_chunk(gen, bits, size_c, P, size, any(wants_u), rows)
        want = max(0, min(records - c0, size_c))
        for block, forms, u in zip(plays, all_forms, wants_u, strict=True):
            if layout is not None:
                lay_scores, lay_records = layout_chunk(
                    block.spec, layout, bits, hands, uniforms if u else None,
                    want, forms)
                res = ChunkScores(lay_scores, None, None, lay_records)
            else:
                res = trick_chunk(block.spec, base, bid, bits, hands, uniforms if u else None,
                                   want, block.events, block.cache, forms,
                                   None if stock is None else stock[c0:c0 + size_c])
            block.add(c0, size_c, res)
    return [block.result() for block in plays]


class _BlockPlay:
    """One spec's results over a block, chunk by chunk: seats x hands, as the chunks and the
    tallies hold them (the hands x seats answers are their transposed views, so no copy
    transposes them back and forth)."""

    def __init__(self, spec: DealSpec, base: Contract, bid: bool, n: int) -> None:
        P = spec.players
        self.spec = spec
        self.scores = np.zeros((P, n), dtype=np.int64)
        self.stock_after = np.zeros(n, dtype=np.int64) if base.has_stock else None
        self.contracts = np.zeros(n, dtype=np.int8) if bid else None
        self.hearts = np.zeros((P, n), dtype=np.int64) if counts_hearts(base, bid) else None
        self.events: Counter[str] = Counter()
        self.hits: dict[str, npt.NDArray[np.bool_]] = {}
        self.declarers = np.full(n, -1, dtype=np.int8) if bid else None
        self.n = n
        self.records: list[dict[str, Any]] = []
        self.cache: dict[tuple[int, int], Contract] = {}

    def add(self, c0: int, size: int, res: ChunkScores) -> None:
        self.scores[:, c0:c0 + size] = res.scores.T
        if self.stock_after is not None and res.stock is not None:
            self.stock_after[c0:c0 + size] = res.stock
        if self.contracts is not None and res.contracts is not None:
            self.contracts[c0:c0 + size] = res.contracts
        if self.hearts is not None and res.hearts is not None:
            self.hearts[:, c0:c0 + size] = res.hearts.T
        if self.declarers is not None and res.declarers is not None:
            self.declarers[c0:c0 + size] = res.declarers
        for name, hit in res.hits.items():
            if name not in self.hits:
                self.hits[name] = np.zeros(self.n, dtype=np.bool_)
            self.hits[name][c0:c0 + size] = hit
        self.records.extend(res.records)

    def result(self) -> BlockResult:
        ev = {k: v for k, v in self.events.items() if v}
        return BlockResult(self.scores.T, self.stock_after, ev, self.contracts,
                           tuple(self.records), None if self.hearts is None else self.hearts.T,
                           {k: self.hits[k] for k in sorted(self.hits)}, self.declarers)
