"""The batch engine's trick play: many hands in lockstep, trick by trick, position by position.

Hands are arrays of bit sets in the strength layout of :class:`herzla.sim.batch_bits.Bits`, kept
in *positions* relative to the trick's leader (position 0 leads); after each trick they are rotated
so that the winner is position 0, in log2(players) conditional rotations, and the leader's seat
is carried along.  Each trick's cards and winner are kept; the scores (and the hearts each seat
captured) are tallied from them at the end (:meth:`TrickPlay.per_seat`, :meth:`TrickPlay.counts`).
Each seat's policy chooses through its batch form (:mod:`herzla.sim.batch_forms`); the built-in
ones are those of :mod:`herzla.players.heuristic` written with bit operations (the random
policy's k-th legal card is found by clearing the lowest set bit k times).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.players.heuristic import TrickProfile
from herzla.sim.batch_bits import Bits, U, highest_bit, kth_bit, lowest_bit

if TYPE_CHECKING:
    from herzla.sim.batch_forms import BatchForm

__all__ = ["BitProfile", "FormSeating", "TrickPlay", "TrickSetup", "heuristic_cards", "per_seat",
           "play_tricks", "random_cards"]


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


@attrs.frozen(slots=True, eq=False)
class TrickSetup:
    """What the trick loop needs to know about the contract and the table.

    ``lead[t]`` and ``discard[t]``: the cards a lead (a discard) to trick ``t`` must be chosen
    from while the seat holds any of them (the complement of the banned cards, strength
    layout; an array gives it per hand), or None where no ban applies.
    """

    bits: Bits
    players: int
    tricks: int
    forehand: int
    lead: tuple[U | int | None, ...]
    discard: tuple[U | int | None, ...]


@attrs.frozen(slots=True, eq=False)
class TrickPlay:
    """The play of a chunk: each trick's cards and winner seat, and the sample hands' plays."""

    cards: U  # (tricks, C) the cards of each trick
    winners: npt.NDArray[np.uint8]  # (tricks, C) the seat that won each trick
    plays: list[U]  # per move, the card played by each of the first sample hands
    #: :meth:`counts` per (mask, players): the scorer and the hearts tally share one count
    _counts: dict[tuple[int, int], npt.NDArray[np.int64]] = attrs.field(
        factory=dict, init=False, repr=False)
    #: each trick's winner as the shift of its seat's 8-bit lane (:func:`per_seat`), once
    _lanes: list[npt.NDArray[np.uint64]] = attrs.field(factory=list, init=False, repr=False)

    def lanes(self) -> npt.NDArray[np.uint64]:
        if not self._lanes:
            self._lanes.append(lanes_of(self.winners))
        return self._lanes[0]

    def per_seat(self, values: npt.NDArray[Any], players: int) -> npt.NDArray[np.int64]:
        """(players, C): each seat's sum of ``values`` (tricks, C) over the tricks it won."""
        return per_seat(values, self.winners, players, self.lanes())

    def counts(self, mask: int, players: int) -> npt.NDArray[np.int64]:
        """(players, C): how many cards of ``mask`` each seat captured.

        Computed once per mask and kept; the answer is read-only, as it is shared.
        """
        key = (mask, players)
        out = self._counts.get(key)
        if out is None:
            out = self.per_seat(np.bitwise_count(self.cards & mask), players)
            out.flags.writeable = False
            self._counts[key] = out
        return out

    def tricks_won(self, players: int) -> npt.NDArray[np.int64]:
        return _unpack(np.left_shift(np.uint64(1), self.lanes()).sum(axis=0, dtype=np.uint64),
                       players)


def lanes_of(winners: npt.NDArray[Any]) -> npt.NDArray[np.uint64]:
    """The shift of each winner seat's 8-bit lane: ``8 * seat`` (tricks, C) uint64."""
    out = winners.astype(np.uint64)
    out <<= np.uint64(3)
    return out


def _unpack(acc: npt.NDArray[np.uint64], players: int) -> npt.NDArray[np.int64]:
    """(players, C) int64 from the 8-bit lanes of one word per hand (lane ``s``: seat ``s``)."""
    if sys.byteorder == "little":
        lanes = acc.view(np.uint8).reshape(len(acc), 8)
        return np.ascontiguousarray(lanes[:, :players].T, dtype=np.int64)
    return np.stack([(acc >> np.uint64(8 * s)) & np.uint64(255)
                     for s in range(players)]).astype(np.int64)


def per_seat(values: npt.NDArray[Any], winners: npt.NDArray[Any], players: int,
             lanes: npt.NDArray[np.uint64] | None = None) -> npt.NDArray[np.int64]:
    """(players, C): each seat's sum of ``values`` (tricks, C) over the tricks it won
    (``winners``, the seat that won each trick; ``lanes``: :func:`lanes_of` them, if known).

    The sums are packed in 8-bit lanes of one word per hand, so each must stay below 256 (and
    there are at most 8 seats).
    """
    v = values.astype(np.uint64)
    v <<= lanes_of(winners) if lanes is None else lanes
    return _unpack(v.sum(axis=0, dtype=np.uint64), players)


class _Memo:
    """Per-move cache of the candidate cards several profiles share."""

    def __init__(self, bits: Bits, legal: U) -> None:
        self.bits = bits
        self.legal = legal
        self._d: dict[str, U] = {}

    def get(self, name: str) -> U:
        v = self._d.get(name)
        if v is None:
            v = self._compute(name)
            self._d[name] = v
        return v

    def _compute(self, name: str) -> U:
        b, legal = self.bits, self.legal
        if name == "highest":
            return b.highest(legal)
        if name == "lowest":
            return b.lowest(legal)
        if name == "hb":
            return highest_bit(legal, b.dtype)
        if name == "lb":
            return lowest_bit(legal)
        raise KeyError(name)


def _lead(prof: BitProfile, memo: _Memo) -> U:
    if prof.lead == "high":
        return memo.get("highest")
    if not prof.danger_cards:
        return memo.get("lowest")
    legal = memo.legal
    safe = legal & (memo.bits.full ^ prof.danger_cards)
    pool = np.where(safe != 0, safe, legal)
    return memo.bits.lowest(pool)


def _follow(prof: BitProfile, memo: _Memo, top: U, last: bool) -> U:
    legal = memo.legal
    if prof.follow == "duck":
        below = legal & (top - 1)
        other = memo.get("hb") if last else memo.get("lb")
        return np.where(below != 0, highest_bit(below, memo.bits.dtype), other)
    if prof.follow == "win":
        above = legal & ~((top << 1) - 1)
        hit = lowest_bit(above) if last else highest_bit(above, memo.bits.dtype)
        return np.where(above != 0, hit, memo.get("lb"))
    return memo.get("lb")


def _discard(prof: BitProfile, memo: _Memo) -> U:
    if prof.discard == "low":
        return memo.get("lowest")
    best = memo.get("highest")
    if prof.discard == "danger":
        legal = memo.legal
        for cls in reversed(prof.danger):
            held = legal & cls
            best = np.where(held != 0, memo.bits.highest(held), best)
    return best


def heuristic_cards(bits: Bits, profs: Sequence[tuple[BitProfile, npt.NDArray[np.bool_] | None]],
                    p: int, players: int, legal: U, follows: npt.NDArray[np.bool_] | None,
                    top: U | None) -> U:
    """The heuristic's card at position ``p`` for each hand (profiles with their hands)."""
    memo = _Memo(bits, legal)
    out: U | None = None
    for prof, sel in profs:
        if p == 0:
            card = _lead(prof, memo)
        else:
            assert follows is not None and top is not None
            fc = _follow(prof, memo, top, p == players - 1)
            dc = _discard(prof, memo)
            card = np.where(follows, fc, dc)
        out = card if sel is None or out is None else np.where(sel, card, out)
    assert out is not None
    return out


def random_cards(bits: Bits, legal: U, u: npt.NDArray[np.float64]) -> U:
    """The random policy's card: the ``floor(u * m)``-th of the ``m`` legal cards in card index
    order (``u`` the move's uniform as a fraction, exact in float64)."""
    li = bits.to_index(legal)
    k = (u * np.bitwise_count(li)).astype(np.uint8)
    card = kth_bit(li, k, int(k.max()))
    return bits.to_strength(card)


def _ones(cond: npt.NDArray[np.bool_], dtype: type[np.unsignedinteger]) -> U:
    m = cond.astype(dtype)
    np.negative(m, out=m)
    return m


def _rotate(rows: list[U], shift: npt.NDArray[np.uint8]) -> list[U]:
    """``new[j] = rows[(j + shift) % P]`` for each hand, in one conditional rotation per bit."""
    n = len(rows)
    step = 1
    bit = 0
    while step < n:
        sel = _ones((shift >> bit) & 1 != 0, rows[0].dtype.type)
        out = []
        for j in range(n):
            a = rows[j]
            diff = a ^ rows[(j + step) % n]
            diff &= sel
            out.append(a ^ diff)
        rows = out
        step *= 2
        bit += 1
    return rows


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


#: the heuristic's profiles at each position, with the hands that use them (None: all)
Groups = list[list[tuple[BitProfile, npt.NDArray[np.bool_] | None]]]


def _seats(leader: npt.NDArray[np.uint8], players: int) -> list[U]:
    """The seat at each position of a trick led by ``leader``."""
    out = []
    for j in range(players):
        s = leader + np.uint8(j)
        s -= np.uint8(players) * (s >= players).view(np.uint8)
        out.append(s)
    return out


def play_tricks(setup: TrickSetup, hands: Sequence[U], uniforms: npt.NDArray[np.float64] | None,
                profiles: Callable[[list[U]], Groups] | None, record: int,
                forms: Sequence[BatchForm]) -> TrickPlay:
    """Play a chunk of hands to the end (hands that end early play on; their tricks after the
    end do not count).

    ``hands`` holds each seat's cards (strength layout); ``forms`` each seat's batch form;
    ``uniforms`` (moves, C) the move uniforms (None when no form reads them), and
    ``profiles(seats)`` gives, per position, the heuristic's profiles and the hands that use
    them (``seats`` the seat at each position; None when no form reads them).
    """
    from herzla.sim.batch_forms import TrickMove

    seating = FormSeating(forms)
    distinct = seating.distinct
    mixed = len(distinct) > 1
    wants_profiles = profiles is not None and any(f.profiles for f in distinct)
    bits = setup.bits
    dt = bits.dtype
    P = setup.players
    T = setup.tricks
    C = len(hands[0])
    fh = setup.forehand
    pos = [hands[(fh + j) % P].copy() for j in range(P)]
    leader = np.full(C, fh, dtype=np.uint8)
    trick_cards = np.zeros((T, C), dtype=dt)
    winners = np.zeros((T, C), dtype=np.uint8)
    plays: list[U] = []
    move = 0
    for t in range(T):
        lead_keep = setup.lead[t]
        discard_keep = setup.discard[t]
        played: list[U] = []
        suit: U | None = None
        top: U | None = None
        tc: U | None = None
        groups = None
        seats = _seats(leader, P) if wants_profiles else None
        shares = seating.hands(leader) if mixed else None
        if wants_profiles:
            assert profiles is not None and seats is not None
            groups = profiles(seats)
        for p in range(P):
            cur = pos[p]
            follows = None
            if p == 0:
                legal = cur
                if lead_keep is not None:
                    keep = cur & lead_keep
                    legal = np.where(keep != 0, keep, cur)
            else:
                assert suit is not None
                follow = cur & suit
                follows = follow != 0
                other = cur
                if discard_keep is not None:
                    keep = cur & discard_keep
                    other = np.where(keep != 0, keep, cur)
                legal = _ones(~follows, dt)  # follow suit if able, else any card
                legal &= other
                legal |= follow
            mv = TrickMove(bits, p, P, legal, follows, top,
                           None if uniforms is None else uniforms[move],
                           None if groups is None else groups[p])
            if not mixed:
                card = distinct[0].cards(mv)
            else:  # each form chooses for the hands whose seat here is its own
                assert shares is not None
                card = np.zeros_like(legal)
                for f, idx in zip(distinct, shares[p], strict=True):
                    if len(idx):
                        card[idx] = f.cards(mv.subset(idx, f))
            cur ^= card
            if p == 0:
                suit = bits.suit_of(card)
                top = card.copy()
                tc = card.copy()
            else:
                assert top is not None and tc is not None and suit is not None
                np.maximum(top, card & suit, out=top)
                tc |= card
            played.append(card)
            if record:
                plays.append(card[:record].copy())
            move += 1
        assert top is not None and tc is not None
        wpos = np.zeros(C, dtype=np.uint8)
        for k in range(1, P):
            hit = (played[k] == top).view(np.uint8)
            wpos += hit * np.uint8(k) if k > 1 else hit
        pos = _rotate(pos, wpos)
        leader += wpos
        leader -= np.uint8(P) * (leader >= P).view(np.uint8)
        trick_cards[t] = tc
        winners[t] = leader
    return TrickPlay(trick_cards, winners, plays)

