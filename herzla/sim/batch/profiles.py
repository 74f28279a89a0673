"""The heuristic's trick profiles (:class:`herzla.players.heuristic.TrickProfile`) in the
batch engine's strength layout, and which hands play by which at each position of a trick."""

from __future__ import annotations

import attrs
import numpy as np
import numpy.typing as npt

from herzla.players.heuristic import TrickProfile
from herzla.sim.batch.bits import Bits

__all__ = ["BitProfile", "Groups"]

@attrs.frozen(slots=True)
class BitProfile:
    """A :class:`TrickProfile` with its danger classes in a strength layout."""

    lead: str
    follow: str
    discard: str
    danger: tuple[int, ...]
    danger_cards: int

    @classmethod
    def of(cls, prof: TrickProfile, bits: Bits) -> BitProfile:
        danger = tuple(bits.mask_of_indices(d) for d in prof.danger)
        danger = tuple(d for d in danger if d)
        union = 0
        for d in danger:
            union |= d
        return cls(prof.lead, prof.follow, prof.discard, danger, union)


#: the heuristic's profiles at each position, with the hands that use them (None: all)
Groups = list[list[tuple[BitProfile, npt.NDArray[np.bool_] | None]]]
