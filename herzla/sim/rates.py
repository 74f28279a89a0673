"""Every rate of a simulation with its 95% Wilson score interval: the ``"rates"`` object of
``herzla simulate --json`` (:meth:`herzla.sim.runner.SimResult.to_dict`) and the intervals the
text report prints.

Each rate is ``{"count": k, "of": n, "rate": k/n, "ci95": [lo, hi]}``
(:func:`herzla.sim.stats.rate_entry`).
"""

from __future__ import annotations

from typing import Any

from herzla.sim.plan import Plan
from herzla.sim.stats import ContractTally, DealTally, PartieTally, SessionTally, rate_entry

__all__ = ["contract_rates", "event_rates", "rates_json", "win_rates"]


def event_rates(events: dict[str, int], of: int) -> dict[str, dict[str, Any]]:
    """Each event's rate among ``of`` hands (parties, in a partie)."""
    return {name: rate_entry(count, of) for name, count in events.items()}


def contract_rates(c: ContractTally) -> dict[str, dict[str, Any]]:
    """With bidding: each contract's share of the hands, and for a declarer's contract its
    made and lost rates among the hands it was played in."""
    total = sum(c.hands)
    out: dict[str, dict[str, Any]] = {}
    for code, name in enumerate(c.names):
        entry = {"share": rate_entry(c.hands[code], total)}
        if code:
            entry["made"] = rate_entry(c.made[code], c.hands[code])
            entry["lost"] = rate_entry(c.lost[code], c.hands[code])
        out[name] = entry
    return out


def win_rates(pt: PartieTally) -> dict[str, Any]:
    """Each seat's share of the parties (evenings) won, and the share that ended in a tie for
    first place."""
    return {"wins": [rate_entry(w, pt.parties) for w in pt.wins],
            "shared_wins": rate_entry(pt.shared_wins, pt.parties)}


def rates_json(plan: Plan, deal: DealTally | None, partie: PartieTally | None,
               session: SessionTally | None) -> dict[str, Any]:
    """The ``"rates"`` object: ``events`` (of hands; of parties in a partie, keyed as the
    ``events`` are; of deals in a session), ``contracts`` (with bidding), ``wins`` and
    ``shared_wins`` (parties and evenings), ``stock_paid`` (evenings)."""
    out: dict[str, Any] = {}
    if partie is not None:
        events: dict[str, int] = {}
        for spec, d in zip(plan.specs, partie.deals, strict=True):
            for k, v in d.events_json().items():
                events[f"{spec.contract_id}/{k}"] = v
        out["events"] = event_rates({k: events[k] for k in sorted(events)}, partie.parties)
        out.update(win_rates(partie))
        return out
    t = deal if session is None else session.hands
    assert t is not None
    out["events"] = event_rates(t.events_json(), t.hands)
    if t.contracts is not None:
        out["contracts"] = contract_rates(t.contracts)
    if session is not None:
        out.update(win_rates(session.evenings))
        out["stock_paid"] = rate_entry(session.stock_paid, session.count)
    return out
