"""What each player did over an evening, read from the deals' declarations and events: the
deals won, the voids (a deal that counts every heart, with none captured), the contracts
declared and whether they were made or lost, the stock collected.  Nothing here names a game
or a contract: a statistic a game's deals cannot have is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import attrs

from herzla.contracts import get_game
from herzla.evening.deal import Deal


class EveningFacts(Protocol):
    """What the statistics (and the evening's text) read of an evening
    (:class:`herzla.evening.Evening`): its game, players, deals and totals."""

    @property
    def game(self) -> str: ...
    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def deals(self) -> tuple[Deal, ...]: ...
    @property
    def totals(self) -> tuple[int, ...]: ...

__all__ = ["Declarations", "EveningFacts", "PlayerStats", "statistics"]

#: the events a declarer's contract ends with
MADE, LOST = "contract-made", "contract-lost"


@attrs.frozen(slots=True)
class Declarations:
    """A contract one player declared: how often it was made and lost."""

    made: int = 0
    lost: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"made": self.made, "lost": self.lost}


@attrs.frozen(slots=True)
class PlayerStats:
    """One player's evening.

    ``deals``: the deals counted; ``won``: those in which the player scored best (the highest,
    or the fewest points where the game says so; equal best scores each count, a deal all score
    alike counts for none); ``best``/``worst``: the player's best and worst deal; ``voids``: the
    deals that count every heart in which the player captured none (None: the evening has no
    such deal whose hearts are known); ``declared``: per contract title, how often the player
    declared it and made or lost it; ``stock_collected``: the cents the player took from the
    stock (None: a game without a stock).
    """

    name: str
    seat: int
    total: int
    deals: int
    won: int
    best: int | None
    worst: int | None
    voids: int | None
    declared: Mapping[str, Declarations]
    stock_collected: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "seat": self.seat, "total": self.total, "deals": self.deals,
                "won": self.won, "best": self.best, "worst": self.worst, "voids": self.voids,
                "declared": {k: v.to_dict() for k, v in self.declared.items()},
                "stock_collected": self.stock_collected}


def _better(a: int, b: int, lowest: bool) -> bool:
    return a < b if lowest else a > b


def statistics(evening: EveningFacts) -> tuple[PlayerStats, ...]:
    """Each player's :class:`PlayerStats`, seat 0 first."""
    g = get_game(evening.game)
    lowest = g.lowest_wins
    n = len(evening.players)
    counted = [d for d in evening.deals if d.counted and d.scores is not None]
    won = [0] * n
    voids: list[int] | None = None
    best: list[int | None] = [None] * n
    worst: list[int | None] = [None] * n
    declared: list[dict[str, Declarations]] = [{} for _ in range(n)]
    collected = [0] * n
    for d in counted:
        scores = d.scores
        assert scores is not None
        top = min(scores) if lowest else max(scores)
        if len(set(scores)) > 1:
            for s in range(n):
                won[s] += scores[s] == top
        for s, v in enumerate(scores):
            b, w = best[s], worst[s]
            best[s] = v if b is None or _better(v, b, lowest) else b
            worst[s] = v if w is None or _better(w, v, lowest) else w
        if d.hearts is not None:
            voids = voids or [0] * n
            for s, h in enumerate(d.hearts):
                voids[s] += h == 0
        if d.declarer is not None and (MADE in d.events or LOST in d.events):
            title = d.contract.title
            had = declared[d.declarer].get(title, Declarations())
            declared[d.declarer][title] = Declarations(had.made + (MADE in d.events),
                                                   had.lost + (LOST in d.events))
        for s, c in enumerate(d.from_stock):
            collected[s] += c
    totals = evening.totals
    return tuple(
        PlayerStats(name, s, totals[s], len(counted), won[s], best[s], worst[s],
                    voids[s] if voids is not None else None, declared[s],
                    collected[s] if g.has_stock else None)
        for s, name in enumerate(evening.players))
