"""The engine interface of the simulator: play one block of seeded hands of one deal.

``play_block`` is what the runner calls; it dispatches to the numpy batch engine where the
contract's declaration lets it play, else to the reference engine (:mod:`herzla.sim.reference`).
Both draw their randomness from :mod:`herzla.sim.streams`, so they play the same hands the same
way.
"""

from __future__ import annotations

from herzla.quote import quote
from herzla.sim import batch, reference
from herzla.sim.spec import BlockResult, DealSpec

__all__ = ["ENGINES", "batch_declines", "play_block"]

ENGINES = ("auto", "batch", "reference")


def play_block(spec: DealSpec, seed: int, key: tuple[int, ...], n: int, records: int = 0,
               engine: str = "auto") -> BlockResult:
    """Play ``n`` hands of the block ``key`` of ``seed``; ``engine`` is auto, batch or reference.

    ``batch`` raises ValueError naming why the batch engine cannot play the spec's contract (a
    hook the contract writes in Python of its own); ``auto`` then uses the reference engine.
    A policy without a batch form is played on the reference engine by either
    (:func:`batch_declines` says so beforehand).
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {quote(engine)} (auto, batch or reference)")
    if engine != "reference":
        reason = batch.unsupported(spec)
        if reason is None:
            return batch.play_block(spec, seed, key, n, records, checked=True)
        if engine == "batch" and batch.batch_forms(spec) is not None:
            raise ValueError(f"the batch engine cannot play {reason}; the reference engine "
                             f"can (engine auto or reference)")
    return reference.play_block(spec, seed, key, n, records)


def batch_declines(spec: DealSpec) -> str | None:
    """The policy (``spec`` holds) without a batch form, whose deals the batch engine hands to
    the reference engine, as a sentence; None when every seat's policy has one."""
    from herzla.players.registry import seat_policies

    for policy in seat_policies(spec.policy, spec.players):
        if policy.batch_form() is None:
            return (f"the policy {policy.spec()} has no batch form: the reference engine plays "
                    f"it")
    return None
