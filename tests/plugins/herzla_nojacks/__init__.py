"""A made-up plug-in deal for herzla: "no-jacks", -5 per Jack captured (docs/plugins.md).

It lives outside herzla and reaches it only through the ``herzla.contracts`` entry point declared
in ``herzla_nojacks-0.1.dist-info/entry_points.txt`` (as ``pip install`` would write it); the
plug-in tests (tests/test_plugins.py) play it through the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from herzla.cards import HEARTS_MASK, Card, Rank, Suit
from herzla.contracts import HandScore, Outcome, TrickContract
from herzla.options import Option

if TYPE_CHECKING:
    from herzla.tricks import TrickHand

JACKS = tuple(Card(suit, Rank.JACK) for suit in Suit)


class NoJacks(TrickContract):
    """-N per Jack captured (option jack_penalty); no heart may be led to the first trick."""

    game: ClassVar[str] = "bube"
    id: ClassVar[str] = "no-jacks"
    title: ClassVar[str] = "No jacks"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[tuple[Option, ...]] = (
        Option("jack_penalty", 5, doc="points lost per Jack captured", rule="no-jacks",
               minimum=0),
    )
    rule_ref: ClassVar[str] = "the herzla-nojacks README"
    summary: ClassVar[str] = "-5 per Jack captured; no heart lead to trick 1"

    # pack() and rank_order() are inherited: 32 cards, natural order.

    def banned(self, state: TrickHand, seat: int, leading: bool) -> tuple[int, str] | None:
        if leading and not state.tricks:
            return HEARTS_MASK, "heart-lead-ban"
        return None

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        penalty = int(self.opts["jack_penalty"])
        counts = [sum(1 for j in JACKS if m & j.bit) for m in outcome.captured_cards()]
        lines = tuple(f"Seat {s} captured {k} Jack{'s' if k != 1 else ''}: {-penalty * k:+d} "
                      f"(no-jacks, {penalty} per Jack)." for s, k in enumerate(counts) if k)
        return HandScore(tuple(-penalty * k for k in counts), None, (), lines)

    def score_total(self) -> int | None:
        return -len(JACKS) * int(self.opts["jack_penalty"])


CONTRACTS = (NoJacks,)
