"""The slots of the kernel's arrays: the scalars of a search in one array ``Q``, the kinds of
leaves, and the fields of a frame of the search's explicit stack."""

from __future__ import annotations

__all__ = ["N", "T", "S", "GAIN", "KIND", "P", "HAS_LAST", "BOUNDS", "USE_TT", "ORDERING",
           "EQUIV", "RELATIVE", "TT_MASK", "GEN", "NODES", "INF", "TRICK_LO", "TRICK_HI",
           "LAST_LO", "LAST_HI", "IDLE_TRICK", "IDLE_LAST", "BC_MASK", "BGEN", "CUTS", "SLOTS",
           "ADDITIVE", "TABLE", "BOOLEAN", "F_SEAT", "F_K", "F_T", "F_OUT", "F_LED", "F_BEST",
           "F_BSEAT", "F_TMASK", "F_ALPHA", "F_BETA", "F_A0", "F_B0", "F_V", "F_BESTC", "F_IDX",
           "F_CNT", "F_HAND", "F_SLOT", "F_G", "F_W", "F_TMC", "FIELDS", "DEPTH"]

# the slots of the scalar array Q
N, T, S, GAIN, KIND, P, HAS_LAST, BOUNDS, USE_TT, ORDERING, EQUIV, RELATIVE = range(12)
TT_MASK, GEN, NODES, INF, TRICK_LO, TRICK_HI, LAST_LO, LAST_HI = range(12, 20)
IDLE_TRICK, IDLE_LAST, BC_MASK, BGEN, CUTS = range(20, 25)
SLOTS = 25

#: the kinds of leaves: additive, a table of final tallies, made/lost (``tv[w]`` is then 1 when a
#: trick won by seat ``w`` ends the contract, lost: 0; made at the end: 1)
ADDITIVE, TABLE, BOOLEAN = 0, 1, 2

# the fields of a frame of the explicit stack
(F_SEAT, F_K, F_T, F_OUT, F_LED, F_BEST, F_BSEAT, F_TMASK, F_ALPHA, F_BETA, F_A0, F_B0, F_V,
 F_BESTC, F_IDX, F_CNT, F_HAND, F_SLOT, F_G, F_W, F_TMC) = range(21)
FIELDS = 21
#: the deepest stack: one frame a card (at most 36) and the root
DEPTH = 40
