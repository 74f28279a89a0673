"""``ipimc``: perfect-information Monte Carlo with policy-based inference.

``pimc`` (:mod:`herzla.analysis.pimc`) deals the unseen cards as if every deal that keeps the
voids were as likely as any other.  ``ipimc`` also asks how likely each deal makes the cards the
other seats chose to play (Rebstock, Solinas, Buro and Sturtevant, "Policy-based inference in
trick-taking card games", 2019): at each card it searches, it draws ``candidates`` deals of the
unseen cards exactly (uniformly among those on which every play so far was legal: the voids shown
and the lead bans' escapes, :func:`herzla.analysis.inference.constraints`), weighs each by the
probability that the other seats, playing like a soft heuristic player, would have played what
they played on it (:mod:`herzla.analysis.inference`), draws ``samples`` of them in proportion to
the weights and solves those as ``pimc`` does, a deal drawn twice counting twice.  The rest is
``pimc``'s: the best mean card, the heuristic play-out among equal ones, the heuristic's card
before ``tricks`` are left.

Where inference has nothing to go on it plays as ``pimc`` with exact sampling: before any other
seat has had a choice every deal weighs the same.  Announcements are the bidding heuristic's,
deals on which the other seats would announce otherwise are left out as ``pimc`` leaves them,
and layout deals (the domino, Auflegen), in which nothing is hidden for long, are laid as the
heuristic lays them, as ``pimc`` does.

Parameters (``ipimc[samples=16,temperature=0.5]``), besides ``pimc``'s ``samples``, ``tricks``,
``rollout`` and ``seed`` (the same meaning and defaults):

``temperature`` (default 1.0)
    how far the other seats are taken to play like the heuristic: a seat plays its ``k``-th
    preferred legal card (from 0, the heuristic's own) with probability proportional to
    ``exp(-k / temperature)``; towards 0 the heuristic's card always, large: any legal card.
``candidates`` (default 32)
    deals drawn and weighed at each decision before ``samples`` of them are drawn in proportion
    to their weights (systematically, so that equal weights give ``samples`` different deals).
    Weighing a deal costs a count of bits a play, far cheaper than solving it.

>>> from herzla.contracts import contract_class
>>> from herzla.kinds.tricks import TrickHand
>>> from herzla.players.views import TrickView
>>> normal = contract_class("herzla", "normal")()
>>> state = TrickHand(normal, ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
...                            "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"], dealer=3)
>>> for code in ("C7", "CA", "C8", "C9", "D7"):
...     _ = state.play(code)
>>> str(Ipimc(samples=2, tricks=8).move(TrickView.of(state, uniform=5)))
'DA'
"""

from __future__ import annotations

import random

import attrs
import numpy as np

from herzla.analysis.inference import draw_deals, resample, weights
from herzla.analysis.pimc import Pimc
from herzla.i18n import _
from herzla.players.views import TrickView

__all__ = ["Ipimc"]


@attrs.frozen(slots=True)
class Ipimc(Pimc):
    """pimc whose sampled deals are drawn in proportion to how likely they make the plays seen
    (see the module notes)."""

    name = "ipimc"
    level = None

    temperature: float = attrs.field(default=1.0)
    candidates: int = attrs.field(default=32)

    @temperature.validator
    def _check_temperature(self, _attr: object, value: float) -> None:
        if not 0.01 <= value <= 1000:
            raise ValueError(_("temperature must be 0.01 to 1000, not {value}").format(value=value))

    @candidates.validator
    def _check_candidates(self, _attr: object, value: int) -> None:
        if not 1 <= value <= 100_000:
            raise ValueError(_("candidates must be 1 to 100000, not {value}").format(value=value))

    def deals(self, view: TrickView, rng: np.random.Generator) -> list[tuple[list[int], int]]:
        """``samples`` draws from ``candidates`` exact deals weighted by the plays seen, each
        distinct deal once with the number of times it was drawn."""
        seeded = random.Random(int(rng.integers(2**63)))
        try:
            found = draw_deals(view, seeded, self.candidates)
        except ValueError:  # pragma: no cover - every play so far was legal: a deal exists
            return Pimc.deals(self, view, rng)
        w = weights(view, found, self.temperature)
        return [(found[i], times) for i, times in resample(w, self.samples, seeded.random())]
