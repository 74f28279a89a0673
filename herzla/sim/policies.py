"""The built-in policies' rules moved to :mod:`herzla.players.heuristic`; the names stay here
for code that imports them from the simulator."""

from herzla.players.heuristic import (
    TrickProfile,
    announce,
    bidding,
    heuristic_card,
    heuristic_lay,
    mark,
    random_card,
    random_lay,
    sure_winners,
    top_ranks,
    trick_profile,
    wants_to_avoid,
)

__all__ = ["TrickProfile", "announce", "bidding", "heuristic_card", "heuristic_lay", "mark",
           "random_card", "random_lay", "sure_winners", "top_ranks", "trick_profile",
           "wants_to_avoid"]
