"""What the batch engine asks of a policy's batch form, and how it seats the forms.

A policy offers a batch form through :meth:`herzla.players.Policy.batch_form`; the batch engine
asks each seat's policy for it (:func:`herzla.sim.batch.batch_form_of`), and a seat whose policy
has none sends the whole deal to the reference engine.  A batch form (:class:`BatchForm`)
answers, for a chunk of hands at one move, the move (:meth:`~BatchForm.moves`: a card of a
trick, a card laid at an end of its row or the pass) or the announcement
(:meth:`~BatchForm.wants`) of the seat at that position; it must choose exactly as the policy
does on the reference engine (the tests check it for every built-in policy and every game).
The built-in policies' forms are :mod:`herzla.sim.batch.builtin`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract
from herzla.players.policy import PolicyForm
from herzla.sim.batch.bits import Bits, U
from herzla.sim.batch.profiles import BitProfile
from herzla.sim.batch.rows import LayoutSetup

__all__ = ["BatchForm", "Chosen", "FormSeating", "KindForm", "LayMove", "TrickMove", "TrickSeen",
           "lays_of", "reads_views"]

Profiles = list[tuple[BitProfile, npt.NDArray[np.bool_] | None]]
#: what a batch form chooses for a chunk of hands (:meth:`BatchForm.moves`): the card each
#: hand's seat plays or lays (0: it passes) and, in a layout deal, whether it lays the card at
#: the lower end of its row (None in a trick deal)
Chosen = tuple[U, npt.NDArray[np.bool_] | None]


@attrs.frozen(slots=True, eq=False)
class TrickSeen:
    """What the seats at one position of a trick have seen, for a form that reads it (its
    ``views`` is true): per hand, the seat there (``seat``), its cards, every card played so far
    (``played``; the trick in progress, ``trick``, included), the seat winning the trick so far
    (``winner``, -1 at the lead), the trick's index; per seat
    ``(P, C)``: the cards it captured, the tricks it won, the suits it has shown it lacks (4
    bits); the contract of each hand (``code`` into ``contracts``, None: ``contracts[0]`` for
    all) and its declarer seat (``declarer``, None: the contract's own).  Card sets are in the
    strength layout."""

    seat: npt.NDArray[np.uint8]
    hand: U
    played: U
    trick: U
    winner: npt.NDArray[np.int64]
    trick_index: int
    won: U
    tricks: npt.NDArray[np.int64]
    voids: npt.NDArray[np.int64]
    contracts: Sequence[Contract]
    code: npt.NDArray[np.int8] | None
    declarer: npt.NDArray[np.int64] | None

    def subset(self, idx: npt.NDArray[np.intp]) -> TrickSeen:
        return TrickSeen(self.seat.take(idx), self.hand.take(idx), self.played.take(idx),
                         self.trick.take(idx), self.winner.take(idx), self.trick_index,
                         self.won[:, idx], self.tricks[:, idx], self.voids[:, idx],
                         self.contracts,
                         None if self.code is None else self.code.take(idx),
                         None if self.declarer is None else self.declarer.take(idx))


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
    #: what the seats have seen (None when no seat's form reads it)
    seen: TrickSeen | None = None

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
                                         for prof, sel in groups],
            None if self.seen is None else self.seen.subset(idx))


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


class BatchForm(PolicyForm, Protocol):
    """What the batch engine asks of a policy's batch form: the players' protocol
    (:class:`herzla.players.PolicyForm`, what :meth:`~herzla.players.Policy.batch_form`
    returns) with the types of what the engine hands over."""

    #: whether it reads the move uniforms (the engine then hands them over)
    uniforms: bool
    #: whether it reads the heuristic's profiles of the position
    profiles: bool

    def moves(self, move: TrickMove | LayMove) -> Chosen: ...

    def wants(self, bits: Bits, base: Contract, hand: U, first: bool,
              tables: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int8]: ...


def lays_of(chosen: Chosen) -> tuple[U, npt.NDArray[np.bool_]]:
    """A layout step's choice (:data:`Chosen`): the cards laid (0: a pass) and where."""
    card, at_minus = chosen
    assert at_minus is not None, "a layout deal's form says at which end it lays"
    return card, at_minus


class KindForm:
    """A batch form that plays each kind of deal by rules of its own (the built-in forms):
    :meth:`moves` hands a trick's move to :meth:`tricks` and a layout step to :meth:`rows`."""

    __slots__ = ()

    def moves(self, move: TrickMove | LayMove) -> Chosen:
        # the built-in forms' one question of kind: their rules for the tricks read the
        # trick, their rules for the rows the rows
        if isinstance(move, LayMove):
            return self.rows(move)
        return self.tricks(move), None

    def tricks(self, move: TrickMove) -> U:
        """The card each hand's seat plays to the trick."""
        raise NotImplementedError

    def rows(self, move: LayMove) -> tuple[U, npt.NDArray[np.bool_]]:
        """The card each hand's seat lays (0: it passes) and whether at the lower end."""
        raise NotImplementedError


def reads_views(form: BatchForm) -> bool:
    """Whether the form reads what the seats have seen (:class:`TrickSeen`): a form says so by
    an attribute ``views`` that is true (a form without it does not)."""
    return bool(getattr(form, "views", False))


class FormSeating:
    """The seats' batch forms: the distinct ones (in seat order) and which plays where.

    At position ``j`` counted from seat ``first`` (a trick's leader, a layout deal's first
    player) sits seat ``(first + j) mod P``; :meth:`hands` splits a chunk's hands by the form
    playing there.  Positions with the same pattern of forms (every other one, in a seating
    A B A B) share one split.
    """

    def __init__(self, forms: Sequence[BatchForm]) -> None:
        distinct: list[BatchForm] = []
        for f in forms:
            if not any(f is g for g in distinct):
                distinct.append(f)
        self.distinct = distinct
        own = [next(i for i, g in enumerate(distinct) if g is f) for f in forms]
        P = len(forms)
        self.patterns = [tuple(own[(first + j) % P] for first in range(P)) for j in range(P)]

    def hands(self, first: npt.NDArray[np.integer[Any]]) -> list[list[npt.NDArray[np.intp]]]:
        """Per position, per distinct form: the hands (indices, ascending) whose seat there
        plays that form, given each hand's seat at position 0 (``first``)."""
        split: dict[tuple[int, ...], list[npt.NDArray[np.intp]]] = {}
        out = []
        for pattern in self.patterns:
            if pattern not in split:
                which = np.array(pattern, dtype=np.uint8).take(first)
                split[pattern] = [np.flatnonzero(which == i) for i in range(len(self.distinct))]
            out.append(split[pattern])
        return out
