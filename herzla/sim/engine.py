"""The engine interface of the simulator: play one block of seeded hands of one deal.

``play_block`` is what the runner calls; it dispatches to the numpy batch engine where the
contract's declaration lets it play, else to the reference engine (:mod:`herzla.sim.reference`).
Both draw their randomness from :mod:`herzla.support.streams`, so they play the same hands the
same way.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from herzla.i18n import _
from herzla.quote import quote
from herzla.sim import batch, reference
from herzla.sim.batch import batch_form_of
from herzla.sim.spec import BlockResult, DealSpec

__all__ = ["ENGINES", "Engine", "batch_declines", "engine_for", "engine_of", "play_block",
           "play_block_on", "play_blocks"]


class Engine(enum.StrEnum):
    """Which engine plays: the batch engine where it can (``auto``), or one of them forced."""

    AUTO = "auto"
    BATCH = "batch"
    REFERENCE = "reference"


ENGINES = tuple(e.value for e in Engine)


def engine_of(name: str) -> Engine:
    """The engine ``name`` names; ValueError for a name no engine has."""
    try:
        return Engine(name)
    except ValueError:
        raise ValueError(_("unknown engine {name} ({engines})").format(
            name=quote(name), engines=', '.join(ENGINES))) from None


def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0,
               engine: str = "auto", stock: npt.NDArray[np.int64] | None = None
               ) -> BlockResult:
    """Play ``n`` hands of the block ``key`` of ``seed``; ``engine`` is auto, batch or reference.
    ``stock``: the stock before each hand (n,), where each hand has its own (the evenings of a
    session); None: the spec's for all.

    ``batch`` raises ValueError naming why the batch engine cannot play the spec's contract (a
    hook the contract writes in Python of its own); ``auto`` then uses the reference engine.
    A policy without a batch form is played on the reference engine by either
    (:func:`batch_declines` says so beforehand).
    """
    return play_block_on(engine_for(spec, engine), spec, seed, key, n, records, stock)


def engine_for(spec: DealSpec, engine: str = "auto") -> Engine:
    """The engine that plays ``spec`` when ``engine`` (auto, batch or reference) is asked for:
    :attr:`Engine.BATCH` or :attr:`Engine.REFERENCE`, with the ValueError of
    :func:`play_block`.  It depends on the spec's contract, bidding and policies only."""
    which = engine_of(engine)
    if which is not Engine.REFERENCE:
        reason = batch.unsupported(spec)
        if reason is None:
            return Engine.BATCH
        if which is Engine.BATCH and batch.batch_forms(spec) is not None:
            raise ValueError(_("the batch engine cannot play {reason}; the reference engine "
                               "can (engine auto or reference)").format(reason=reason))
    return Engine.REFERENCE


def play_block_on(which: Engine, spec: DealSpec, seed: int, key: tuple[int, ...], n: int,
                  records: int = 0, stock: npt.NDArray[np.int64] | None = None
                  ) -> BlockResult:
    """:func:`play_block` on the engine :func:`engine_for` chose for ``spec`` (batch or
    reference), asking no more."""
    if which is Engine.BATCH:
        return batch.play_block(spec, seed, key, n, records, checked=True, stock=stock)
    return reference.play_block(spec, seed, key, n, records, stock)


def play_blocks(specs: Sequence[DealSpec], seed: int, key: tuple[int, ...], n: int,
                engine: str = "auto") -> list[BlockResult]:
    """:func:`play_block` for each of ``specs`` (the seatings of a match: the same deal, other
    policies), in order.  The specs the batch engine plays share their dealing
    (:func:`herzla.sim.batch.play_blocks`); each answer is the one of :func:`play_block`."""
    which = engine_of(engine)
    together = [] if which is Engine.REFERENCE else [
        i for i, spec in enumerate(specs) if batch.unsupported(spec) is None]
    out = [play_block(spec, seed, key, n, engine=engine) if i not in together else None
           for i, spec in enumerate(specs)]
    shared = batch.play_blocks([specs[i] for i in together], seed, key, n, checked=True)
    for i, res in zip(together, shared, strict=True):
        out[i] = res
    return [res for res in out if res is not None]


def batch_declines(spec: DealSpec) -> str | None:
    """The policy (``spec`` holds) without a batch form, whose deals the batch engine hands to
    the reference engine, as a sentence; None when every seat's policy has one."""
    for policy in spec.policies:
        if batch_form_of(policy) is None:
            return (f"the policy {policy.spec()} has no batch form: the reference engine plays "
                    f"it")
    return None
