"""The engine interface of the simulator: play one block of seeded hands of one deal.

``play_block`` is what the runner calls; it dispatches to the numpy batch engine where it covers
the contract and options, else to the reference engine (:mod:`herzla.sim.reference`).  Both draw
their randomness from :mod:`herzla.sim.streams`, so they play the same hands the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts.base import Contract, TrickContract

__all__ = ["BlockResult", "DealSpec", "counts_hearts", "play_block"]


@attrs.frozen(slots=True)
class DealSpec:
    """What to simulate: one deal type with its table and options, and the policy."""

    game: str
    contract: str | None  # None: herzla with the bidding heuristic choosing each hand
    players: int
    dealer: int
    declarer: int | None = None
    stock: int = 0
    options: Mapping[str, Any] = attrs.field(factory=dict)
    policy: str = "random"


@attrs.frozen(slots=True, eq=False)
class BlockResult:
    """The outcome of ``n`` hands.

    ``hearts`` holds the hearts each seat captured, for trick deals played in full: every trick
    contract without a declarer played on its own (herzla ``normal``, herzla-kids, Herzeln's and
    Herzerln's trick deals).  It is None for layout deals, for Beddl and Mord (a hand may end
    early, and the batch engine plays it on in lockstep) and for Herzla with the bidding.
    """

    scores: npt.NDArray[np.int64]  # (n, players)
    stock_after: npt.NDArray[np.int64] | None  # (n,), games with a stock
    events: dict[str, int]  # event -> number of hands it happened in
    contracts: npt.NDArray[np.int8] | None  # herzla bidding: 0 normal, 1 beddl, 2 mord
    records: tuple[dict[str, Any], ...]  # the first hands as hand records (with plays)
    hearts: npt.NDArray[np.int64] | None = None  # (n, players) hearts captured, see above


def counts_hearts(rules: Contract, bid: bool) -> bool:
    """Whether a block of ``rules`` (``bid``: Herzla with the bidding) reports the hearts each
    seat captured (:attr:`BlockResult.hearts`): trick deals without a declarer, played on their
    own."""
    return isinstance(rules, TrickContract) and not bid and not rules.needs_declarer


def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0,
               engine: str = "auto") -> BlockResult:
    """Play ``n`` hands of the block ``key`` of ``seed``; ``engine`` is auto, batch or reference."""
    from herzla.sim import batch, reference

    if engine not in ("auto", "batch", "reference"):
        raise ValueError(f"unknown engine {engine!r} (auto, batch or reference)")
    if engine != "reference":
        reason = batch.unsupported(spec)
        if reason is None:
            return batch.play_block(spec, seed, key, n, records)
        if engine == "batch":
            raise ValueError(f"the batch engine cannot play {reason}; the reference engine "
                             f"can (engine auto or reference)")
    return reference.play_block(spec, seed, key, n, records)
