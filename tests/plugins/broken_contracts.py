"""Plug-in contracts herzla cannot play, each broken one way (tests/test_plugin_checks.py
declares them as ``herzla.contracts`` entry points with this directory on ``sys.path``): the
registry skips each with one warning line naming it and why, and every command keeps working.
``Capped`` and ``Gold`` are sound and must be taken in beside them."""

from __future__ import annotations

from typing import ClassVar

import attrs

from herzla.cards import HEARTS_MASK, PACK_36, Pack, Rank
from herzla.contracts import (
    CardValue,
    Game,
    LayoutContract,
    Rows,
    TrickContract,
    TrickRules,
)
from herzla.options import Option


class Raises(TrickContract):
    """declare() raises."""

    game: ClassVar[str] = "broken"
    id: ClassVar[str] = "raises"
    title: ClassVar[str] = "Raises"

    def declare(self) -> TrickRules:
        raise RuntimeError("no declaration today")


class HerzlaRaises(Raises):
    """A broken contract for one of herzla's own games: ``herzla rules herzla`` must not break."""

    game: ClassVar[str] = "herzla"
    id: ClassVar[str] = "raises"


class NoSeats(TrickContract):
    game: ClassVar[str] = "broken"
    id: ClassVar[str] = "no-seats"
    player_counts: ClassVar[tuple[int, ...]] = (0,)


class FortySeats(TrickContract):
    game: ClassVar[str] = "broken"
    id: ClassVar[str] = "forty-seats"
    player_counts: ClassVar[tuple[int, ...]] = (40,)


class TinyPack(TrickContract):
    """A pack of 4 cards for 6 seats: nobody gets a card."""

    game: ClassVar[str] = "broken"
    id: ClassVar[str] = "tiny-pack"
    player_counts: ClassVar[tuple[int, ...]] = (6,)

    def pack(self) -> Pack:
        return Pack.of_ranks("4-card", (Rank.ACE,))


class Huge(TrickContract):
    """A heart costs -2**62: a hand of 8 hearts would wrap any 64-bit sum."""

    game: ClassVar[str] = "broken"
    id: ClassVar[str] = "huge"
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(HEARTS_MASK, -(2**62), "heart"),)


class Scaled(TrickContract):
    """Every card of the 36-card pack costs ``penalty``: with the option at its limit (10**12)
    a hand moves 36 * 10**12."""

    game: ClassVar[str] = "broken"
    id: ClassVar[str] = "scaled"
    options: ClassVar[tuple[Option, ...]] = (Option("penalty", 5, minimum=0),)

    def pack(self) -> Pack:
        return PACK_36

    def declare(self) -> TrickRules:
        card = CardValue(PACK_36.mask, -int(self.opts["penalty"]))
        return attrs.evolve(super().declare(), values=(card,))


class FewPlaces(LayoutContract):
    """Places for 3 seats at a table of 4."""

    game: ClassVar[str] = "broken"
    id: ClassVar[str] = "few-places"
    rows: ClassVar[Rows | None] = Rows(tuple(r for r in Rank if r >= Rank.SEVEN))
    places: ClassVar[tuple[int, ...]] = (3, 2, 1)


class Nameless(TrickContract):
    game: ClassVar[str] = "broken"


class BadDefault(TrickContract):
    game: ClassVar[str] = "broken"
    id: ClassVar[str] = "bad-default"
    options: ClassVar[tuple[Option, ...]] = (Option("penalty", 10**15),)


class Capped(Scaled):
    """``Scaled`` with its option's range declared: at most 1,000, so a hand moves 36,000."""

    game: ClassVar[str] = "sound"
    id: ClassVar[str] = "capped"
    title: ClassVar[str] = "Capped"
    options: ClassVar[tuple[Option, ...]] = (
        Option("penalty", 5, minimum=0, maximum=1000, doc="points lost per card captured"),)


class Gold(TrickContract):
    game: ClassVar[str] = "gold"
    id: ClassVar[str] = "gold"
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(HEARTS_MASK, 10**12, "heart"),)


class Gilded(Game):
    """A game whose partie names more deals than it has contracts."""

    id: ClassVar[str] = "gilded"
    partie: ClassVar[int] = 3


class GildedDeal(Gold):
    game: ClassVar[str] = "gilded"
    id: ClassVar[str] = "gilded"


GILDED = Gilded([GildedDeal])
