"""The batch engine's trick play: many hands in lockstep, trick by trick, position by position.

Hands are arrays of bit sets in the strength layout of :class:`herzla.sim.batch.bits.Bits`, kept
in *positions* relative to the trick's leader (position 0 leads); after each trick they are rotated
so that the winner is position 0, in log2(players) conditional rotations, and the leader's seat
is carried along.  Each trick's cards and winner are kept; the scores (and the hearts each seat
captured) are tallied from them at the end (:meth:`ChunkPlay.per_seat`, :meth:`ChunkPlay.counts`).
Each seat's policy chooses through its batch form (:mod:`herzla.sim.batch.form`; the built-in
ones are :mod:`herzla.sim.batch.builtin`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract
from herzla.sim.batch.bits import Bits, U, ones
from herzla.sim.batch.form import BatchForm, FormSeating, TrickMove, TrickSeen, reads_views
from herzla.sim.batch.profiles import Groups

__all__ = ["ChunkPlay", "TrickSetup", "lanes_of", "per_seat", "play_tricks"]

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
class ChunkPlay:
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


def _rotate(rows: list[U], shift: npt.NDArray[np.uint8]) -> list[U]:
    """``new[j] = rows[(j + shift) % P]`` for each hand, in one conditional rotation per bit."""
    n = len(rows)
    step = 1
    bit = 0
    while step < n:
        sel = ones((shift >> bit) & 1 != 0, rows[0].dtype.type)
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
                forms: Sequence[BatchForm],
                context: tuple[Sequence[Contract], npt.NDArray[np.int8] | None,
                               npt.NDArray[np.int64] | None] | None = None,
                forced: Sequence[U] = ()) -> ChunkPlay:
    """Play a chunk of hands to the end (hands that end early play on; their tricks after the
    end do not count).

    ``hands`` holds each seat's cards (strength layout); ``forms`` each seat's batch form;
    ``uniforms`` (moves, C) the move uniforms (None when no form reads them), and
    ``profiles(seats)`` gives, per position, the heuristic's profiles and the hands that use
    them (``seats`` the seat at each position; None when no form reads them).  ``context``:
    the contracts by code, each hand's code and declarer (None: no bidding), for a form that
    reads what the seats have seen (:class:`~herzla.sim.batch.form.TrickSeen`).  ``forced``:
    the first moves' cards, each hand's (strength layout), played instead of asking the forms
    (a position in progress played on, :mod:`herzla.sim.batch.playouts`; they must be legal).
    """
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
    views = any(reads_views(f) for f in distinct)
    if views:
        assert context is not None
        ar = np.arange(C)
        seen_played = np.zeros(C, dtype=dt)
        won = np.zeros((P, C), dtype=dt)
        won_tricks = np.zeros((P, C), dtype=np.int64)
        voids = np.zeros((P, C), dtype=np.int64)
        zero = np.zeros(C, dtype=dt)
        no_winner = np.full(C, -1, dtype=np.int64)
    no_led = np.zeros(0, dtype=np.int64)  # not read without views
    for t in range(T):
        lead_keep = setup.lead[t]
        discard_keep = setup.discard[t]
        played: list[U] = []
        suit: U | None = None
        top: U | None = None
        tc: U | None = None
        groups = None
        seats = _seats(leader, P) if wants_profiles or views else None
        led = np.zeros(C, dtype=np.int64) if views else no_led  # the suit led (views only)
        wseat = no_winner if views else None
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
                legal = ones(~follows, dt)  # follow suit if able, else any card
                legal &= other
                legal |= follow
            seen = None
            if views:
                assert seats is not None and context is not None and wseat is not None
                seen = TrickSeen(seats[p], cur, seen_played if tc is None else seen_played | tc,
                                 zero if tc is None else tc, wseat, t, won, won_tricks, voids,
                                 context[0], context[1], context[2])
            mv = TrickMove(bits, p, P, legal, follows, top,
                           None if uniforms is None else uniforms[move],
                           None if groups is None else groups[p], seen)
            if move < len(forced):
                card = forced[move].astype(dt, copy=True)
            elif not mixed:
                card = distinct[0].moves(mv)[0]
            else:  # each form chooses for the hands whose seat here is its own
                assert shares is not None
                card = np.zeros_like(legal)
                for f, idx in zip(distinct, shares[p], strict=True):
                    if len(idx):
                        card[idx] = f.moves(mv.subset(idx, f))[0]
            cur ^= card
            if p == 0:
                suit = bits.suit_of(card)
                top = card.copy()
                tc = card.copy()
                if views:
                    assert seats is not None
                    for k in range(1, 4):
                        led[(suit & bits.suit_mask[k]) != 0] = k
                    wseat = seats[0].astype(np.int64)
            else:
                if views:
                    assert seats is not None and follows is not None
                    voids[seats[p], ar] |= np.where(follows, 0, np.left_shift(1, led))
                    assert wseat is not None and top is not None and suit is not None
                    wseat = np.where((card & suit) > top, seats[p], wseat)
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
        if views:
            won[leader, ar] |= tc
            won_tricks[leader, ar] += 1
            seen_played |= tc
    return ChunkPlay(trick_cards, winners, plays)
