"""A made-up plug-in deal for herzla: "no-jacks", -5 per Jack captured (docs/plugins.md).

It lives outside herzla and reaches it only through the ``herzla.contracts`` entry point declared
in ``herzla_nojacks-0.1.dist-info/entry_points.txt`` (as ``pip install`` would write it); the
plug-in tests (tests/test_plugins.py) play it through the command line, on both engines.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from herzla.cards import HEARTS_MASK, Card, Rank, Suit
from herzla.contracts import CardValue, LeadBan, TrickContract, TrickRules
from herzla.options import Option

JACKS = sum(Card(suit, Rank.JACK).bit for suit in Suit)


class NoJacks(TrickContract):
    """-N per Jack captured (option jack_penalty); no heart may be led to the first trick."""

    game: ClassVar[str] = "bube"
    id: ClassVar[str] = "no-jacks"
    title: ClassVar[str] = "No jacks"
    options: ClassVar[tuple[Option, ...]] = (
        Option("jack_penalty", 5, doc="points lost per Jack captured", rule="bube/no-jacks",
               minimum=0),
    )
    source: ClassVar[str] = "the herzla-nojacks README"
    lead_bans: ClassVar[tuple[LeadBan, ...]] = (LeadBan(HEARTS_MASK, tricks=1),)

    # pack() and rank_order() are inherited: 32 cards, natural order.

    def declare(self) -> TrickRules:
        jack = CardValue(JACKS, -int(self.opts["jack_penalty"]), "Jack")
        return attrs.evolve(super().declare(), values=(jack,))


CONTRACTS = (NoJacks,)
