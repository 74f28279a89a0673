"""Batch forms of policies: a policy's rules written for the numpy engine, many hands at once.

A policy offers one through :meth:`herzla.players.Policy.batch_form`; the batch engine asks each
seat's policy for it, and a seat whose policy has none sends the whole deal to the reference
engine.  A batch form answers, for a chunk of hands at one move, the card (:meth:`cards`), the
lay (:meth:`lays`) or the announcement (:meth:`wants`) of the seat at that position; it must
choose exactly as the policy does on the reference engine (the tests check it for every
built-in policy and every game).

The built-in forms: :data:`RANDOM` (the random policy: the ``floor(u * m)``-th legal move) and
:data:`HEURISTIC` (the heuristic's profiles in bit operations); both announce with the bidding
heuristic.
"""

from __future__ import annotations

from typing import Protocol

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract, contract_class, game_of
from herzla.players.builtin import HeuristicPolicy, RandomPolicy
from herzla.players.heuristic import top_ranks, wants_to_avoid
from herzla.players.policy import Policy
from herzla.sim.batch_bits import Bits, U
from herzla.sim.batch_layout import LayoutSetup, _far_lays, _one_row_lays, _random_lays
from herzla.sim.batch_tricks import BitProfile, heuristic_cards, random_cards

__all__ = ["HEURISTIC", "RANDOM", "BatchForm", "LayMove", "TrickMove", "batch_form_of",
           "heuristic_wants"]

Profiles = list[tuple[BitProfile, npt.NDArray[np.bool_] | None]]


@attrs.frozen(slots=True, eq=False)
class TrickMove:
    """One position of a trick, for a chunk of hands: the legal cards of the seat there,
    whether it follows suit and the card winning so far (None at the lead), the move's uniforms
    (``u``, fractions; None when no seat draws them) and the heuristic's profiles (``groups``,
    None when no seat reads them)."""

    bits: Bits
    position: int
    players: int
    legal: U
    follows: npt.NDArray[np.bool_] | None
    top: U | None
    u: npt.NDArray[np.float64] | None
    groups: Profiles | None

    def subset(self, idx: npt.NDArray[np.intp], form: BatchForm | None = None) -> TrickMove:
        """The same move for the hands ``idx`` only (for ``form``: without the uniforms or the
        profiles where it does not read them)."""
        u = None if form is not None and not form.uniforms else self.u
        groups = None if form is not None and not form.profiles else self.groups
        return TrickMove(
            self.bits, self.position, self.players, self.legal.take(idx),
            None if self.follows is None else self.follows.take(idx),
            None if self.top is None else self.top.take(idx),
            None if u is None else u.take(idx),
            None if groups is None else [(prof, None if sel is None else sel.take(idx))
                                         for prof, sel in groups])


@attrs.frozen(slots=True, eq=False)
class LayMove:
    """One step of a layout deal, for a chunk of hands (see :func:`choose_lays`)."""

    setup: LayoutSetup
    cur: U
    plus: U
    minus: U
    f_up: U
    f_down: U
    unopened: U
    u: npt.NDArray[np.float64] | None

    def subset(self, idx: npt.NDArray[np.intp], form: BatchForm | None = None) -> LayMove:
        """The same step for the hands ``idx`` only (for ``form``: without the uniforms where
        it does not read them)."""
        u = None if form is not None and not form.uniforms else self.u
        return LayMove(self.setup, self.cur.take(idx), self.plus.take(idx), self.minus.take(idx),
                       self.f_up.take(idx), self.f_down.take(idx), self.unopened.take(idx),
                       None if u is None else u.take(idx))


class BatchForm(Protocol):
    """What the batch engine asks of a policy's batch form."""

    #: whether it reads the move uniforms (the engine then hands them over)
    uniforms: bool
    #: whether it reads the heuristic's profiles of the position
    profiles: bool

    def cards(self, move: TrickMove) -> U: ...

    def lays(self, move: LayMove) -> tuple[U, npt.NDArray[np.bool_]]: ...

    def wants(self, bits: Bits, base: Contract, hand: U, first: bool,
              tables: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int8]: ...


def heuristic_wants(bits: Bits, base: Contract, hand: U, first: bool,
                    tables: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int8]:
    """The bidding heuristic (:func:`herzla.players.heuristic.announce`) for a chunk of hands:
    0 for pass, else the code of the contract announced.  ``tables`` are the sure winners of
    each suit's holdings (:func:`herzla.sim.batch.sure_tables`)."""
    game = game_of(base)
    announced = [contract_class(game.id, i) for i in game.bidding[1:]]
    tops = top_ranks(base)
    top_mask = bits.mask(c for c in base.pack().cards if c.rank in tops)
    field = bits.low_field
    C = len(hand)
    no_top = (hand & top_mask) == 0
    sure = np.zeros(C, dtype=np.int64)
    for s in range(4):
        sure += tables[s].take(((hand >> (s * bits.stride)) & field).astype(np.intp))
    all_sure = sure == np.bitwise_count(hand)  # every card a sure winner
    if not first:  # after forehand: the first trick may be led in a suit the seat lacks
        for s in range(4):
            all_sure &= (hand & bits.suit_mask[s]) != 0
    want = np.zeros(C, dtype=np.int8)
    for k, cls in enumerate(announced, start=1):
        fits = no_top if wants_to_avoid(cls) else all_sure
        want = np.where((want == 0) & fits, k, want).astype(np.int8)
    return want


class _Announcing:
    """The built-in forms announce with the bidding heuristic."""

    __slots__ = ()

    def wants(self, bits: Bits, base: Contract, hand: U, first: bool,
              tables: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int8]:
        return heuristic_wants(bits, base, hand, first, tables)


@attrs.frozen(slots=True)
class _Random(_Announcing):
    uniforms = True
    profiles = False

    def cards(self, move: TrickMove) -> U:
        assert move.u is not None
        return random_cards(move.bits, move.legal, move.u)

    def lays(self, move: LayMove) -> tuple[U, npt.NDArray[np.bool_]]:
        assert move.u is not None
        return _random_lays(move.setup.bits, move.plus, move.minus, move.u)


@attrs.frozen(slots=True)
class _Heuristic(_Announcing):
    uniforms = False
    profiles = True

    def cards(self, move: TrickMove) -> U:
        assert move.groups is not None
        return heuristic_cards(move.bits, move.groups, move.position, move.players, move.legal,
                               move.follows, move.top)

    def lays(self, move: LayMove) -> tuple[U, npt.NDArray[np.bool_]]:
        if move.setup.any_suit:
            return _one_row_lays(move.setup, move.cur, move.plus, move.minus, move.f_up,
                                 move.f_down, move.unopened)
        return _far_lays(move.setup, move.cur, move.plus, move.minus, move.unopened)


#: the random policy's batch form
RANDOM: BatchForm = _Random()
#: the heuristic policy's batch form
HEURISTIC: BatchForm = _Heuristic()


def batch_form_of(policy: Policy) -> BatchForm | None:
    """The batch form the numpy engine plays ``policy`` with: the built-in policies' forms
    above, found by the policy's class, else what the policy offers
    (:meth:`herzla.players.Policy.batch_form`, None for most); None: the reference engine
    plays it."""
    own = _BUILTIN_FORMS.get(type(policy))
    return own if own is not None else policy.batch_form()


#: the built-in policies' batch forms, by the policy's class
_BUILTIN_FORMS: dict[type[Policy], BatchForm] = {RandomPolicy: RANDOM, HeuristicPolicy: HEURISTIC}
