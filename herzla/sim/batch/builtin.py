"""The built-in policies' batch forms: the random policy's and the heuristic's rules
(:mod:`herzla.players.heuristic`) in bit operations, many hands at once.

:data:`RANDOM` plays the ``floor(u * m)``-th legal move (the k-th legal card is found by
clearing the lowest set bit k times), :data:`HEURISTIC` the heuristic's profiles; both announce
with the bidding heuristic (:func:`heuristic_wants`).

A built-in policy's :meth:`~herzla.players.Policy.batch_form` cannot return these (the players
sit below the simulator): it returns a descriptor of the players' own
(:class:`herzla.players.BuiltinForm`: :class:`~herzla.players.builtin.RandomForm`,
:class:`~herzla.players.builtin.HeuristicForm`), and :func:`batch_form_of` maps each descriptor
type to the form implementing it (:mod:`herzla.sim.batch.named`).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs
import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract, contract_class, game_of
from herzla.players.announcing import top_ranks, wants_to_avoid
from herzla.sim.batch.bits import Bits, U, highest_bit, kth_bit, lowest_bit, ones
from herzla.sim.batch.form import BatchForm, KindForm, LayMove, TrickMove, lays_of
from herzla.sim.batch.profiles import BitProfile
from herzla.sim.batch.rows import LayoutSetup

__all__ = ["HEURISTIC", "RANDOM", "choose_lays", "heuristic_cards",
           "heuristic_wants", "random_cards"]


# -- the heuristic's cards -----------------------------------------------------------------

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


# -- the random policy's cards -------------------------------------------------------------

def random_cards(bits: Bits, legal: U, u: npt.NDArray[np.float64]) -> U:
    """The random policy's card: the ``floor(u * m)``-th of the ``m`` legal cards in card index
    order (``u`` the move's uniform as a fraction, exact in float64)."""
    li = bits.to_index(legal)
    k = (u * np.bitwise_count(li)).astype(np.uint8)
    card = kth_bit(li, k, int(k.max()))
    return bits.to_strength(card)


# -- lays ------------------------------------------------------------------------------------

def _random_lays(bits: Bits, plus: U, minus: U, u: npt.NDArray[np.float64]
                 ) -> tuple[U, npt.NDArray[np.bool_]]:
    """The ``(u * m) >> 32``-th of the moves: cards in index order, ``+`` before ``-``."""
    pi = bits.to_index(plus)
    mi = bits.to_index(minus)
    both = pi & mi
    x = pi | mi
    m = np.bitwise_count(x) + np.bitwise_count(both)
    k = (u * m).astype(np.uint8)
    fast = kth_bit(x, k, int(k.max()))
    at_minus = (fast & pi) == 0
    twice = np.flatnonzero(both)
    if len(twice):  # cards that fit both ends count twice
        xs = x[twice]
        ks = k[twice].astype(np.int64)
        bs = both[twice]
        ps = pi[twice]
        card = np.zeros_like(xs)
        end = np.zeros(len(twice), dtype=bool)
        found = np.zeros(len(twice), dtype=bool)
        while True:
            low = lowest_bit(xs)
            live = ~found & (low != 0)
            if not live.any():
                break
            weight = np.where((low & bs) != 0, 2, 1)
            hit = live & (ks < weight)
            card = np.where(hit, low, card)
            end = np.where(hit, np.where((low & bs) != 0, ks == 1, (low & ps) == 0), end)
            found |= hit
            ks -= np.where(live & ~hit, weight, 0)
            xs ^= low
        fast[twice] = card
        at_minus[twice] = end
    return bits.to_strength(fast), at_minus


def _first_of(bits: Bits, plus: U, minus: U) -> tuple[U, npt.NDArray[np.bool_]]:
    """The first move in index order (``+`` before ``-``)."""
    card = bits.to_strength(lowest_bit(bits.to_index(plus | minus)))
    return card, (card & plus) == 0


def _count(x: U) -> npt.NDArray[np.int64]:
    return np.bitwise_count(x).astype(np.int64)


def _one_row_lays(setup: LayoutSetup, cur: U, plus: U, minus: U, f_up: U, f_down: U,
                  unopened: U) -> tuple[U, npt.NDArray[np.bool_]]:
    """One row: the end after which most of the seat's cards fit it (a new row: either end),
    then the end whose rank the seat holds fewest other cards of; a tie: the first move."""
    key_p = _count(cur & (setup.next_up(f_up) | setup.next_down(unopened))) * 64
    key_p -= _count(plus)
    key_m = _count(cur & setup.next_down(f_down)) * 64
    key_m -= _count(minus)
    has_p = plus != 0
    has_m = minus != 0
    use_p = has_p & (~has_m | (key_p >= key_m))
    use_m = has_m & (~has_p | (key_m >= key_p))
    return _first_of(setup.bits, plus & ones(use_p, plus.dtype.type),
                     minus & ones(use_m, minus.dtype.type))


def _far_lays(setup: LayoutSetup, cur: U, plus: U, minus: U, unopened: U
              ) -> tuple[U, npt.NDArray[np.bool_]]:
    """Rows per suit: the move with most of the seat's other cards of that row beyond the laid
    card in the direction of the lay (a new row: all of them); a tie: the first move."""
    bits = setup.bits
    best = np.full(len(cur), -1, dtype=np.int64)
    card = np.zeros_like(cur)
    at_minus = np.zeros(len(cur), dtype=bool)
    for s in range(4):
        held = cur & bits.suit_mask[s]
        up = plus & bits.suit_mask[s]
        down = minus & bits.suit_mask[s]
        above = held & ~((up << 1) - 1)
        far_up = np.where((up & unopened) != 0, _count(held) - 1, _count(above))
        far_down = _count(held & (down - 1))
        for cand, far, end in ((up, far_up, False), (down, far_down, True)):
            # the random policy's order: card index, then + before -
            where = bits.to_index(cand).astype(np.float64).view(np.uint64) >> np.uint64(52)
            order = where.astype(np.int64) * 2 + end
            key = np.where(cand != 0, far * 4096 + 4095 - order, -1)
            better = key > best
            best = np.where(better, key, best)
            card = np.where(better, cand, card)
            at_minus = np.where(better, end, at_minus)
    return card, at_minus


# -- announcements ---------------------------------------------------------------------------

def heuristic_wants(bits: Bits, base: Contract, hand: U, first: bool,
                    tables: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int8]:
    """The bidding heuristic (:func:`herzla.players.announcing.announce`) for a chunk of hands:
    0 for pass, else the code of the contract announced.  ``tables`` are the sure winners of
    each suit's holdings (:func:`herzla.sim.batch.bidding.sure_tables`)."""
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


# -- the forms -------------------------------------------------------------------------------

class _Announcing(KindForm):
    """The built-in forms announce with the bidding heuristic."""

    __slots__ = ()

    def wants(self, bits: Bits, base: Contract, hand: U, first: bool,
              tables: list[npt.NDArray[np.int64]]) -> npt.NDArray[np.int8]:
        return heuristic_wants(bits, base, hand, first, tables)


@attrs.frozen(slots=True)
class _Random(_Announcing):
    uniforms = True
    profiles = False

    def tricks(self, move: TrickMove) -> U:
        assert move.u is not None
        return random_cards(move.bits, move.legal, move.u)

    def rows(self, move: LayMove) -> tuple[U, npt.NDArray[np.bool_]]:
        assert move.u is not None
        return _random_lays(move.setup.bits, move.plus, move.minus, move.u)


@attrs.frozen(slots=True)
class _Heuristic(_Announcing):
    uniforms = False
    profiles = True

    def tricks(self, move: TrickMove) -> U:
        assert move.groups is not None
        return heuristic_cards(move.bits, move.groups, move.position, move.players, move.legal,
                               move.follows, move.top)

    def rows(self, move: LayMove) -> tuple[U, npt.NDArray[np.bool_]]:
        if move.setup.any_suit:
            return _one_row_lays(move.setup, move.cur, move.plus, move.minus, move.f_up,
                                 move.f_down, move.unopened)
        return _far_lays(move.setup, move.cur, move.plus, move.minus, move.unopened)


#: the random policy's batch form
RANDOM: BatchForm = _Random()
#: the heuristic policy's batch form
HEURISTIC: BatchForm = _Heuristic()


def choose_lays(setup: LayoutSetup, cur: U, plus: U, minus: U, f_up: U, f_down: U,
                unopened: U, u: npt.NDArray[np.float64] | None
                ) -> tuple[U, npt.NDArray[np.bool_]]:
    """The built-in policy's lay for each hand: (card or 0 to pass, laid at the lower end), as
    its batch form lays in :func:`herzla.sim.batch.layout.layout_chunk`.

    ``plus`` and ``minus`` are the seat's cards that fit an upper or a lower end, ``f_up`` and
    ``f_down`` all the cards the ends ask for, ``unopened`` the Jacks whose rows are not open.
    ``u`` holds the random policy's uniforms, None for the heuristic.
    """
    form = RANDOM if u is not None else HEURISTIC
    return lays_of(form.moves(LayMove(setup, cur, plus, minus, f_up, f_down, unopened, u)))
