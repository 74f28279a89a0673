"""The compiled kernel's units and search run as plain Python
(herzla.analysis.search.kernel.plain) against the pure search, in the default set and without
numba: the same values on positions of every trick contract, with every technique switched off
in turn, on Beddl and Mord made and lost; and its bit units against Python's own integers.

What numba compiles is the code these tests run line by line, so an edit to the kernel that
changes an answer fails here whether or not numba is installed (tests/test_search_paths.py then
holds the compiled kernel to the same answers where it is)."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from herzla.analysis.search import compiled
from herzla.analysis.search.kernel.plain import plain_kernel
from herzla.analysis.search.position import make_legal
from herzla.analysis.search.scoring import trick_score
from herzla.analysis.search.trick_search import Features, TrickSearch
from herzla.cards import PACK_32, cards_of
from herzla.contracts import TrickContract, contract_class
from herzla.kinds.tricks import TrickHand
from herzla.support.streams import seeded_deal
from tests.shares import some_in_default
from tests.test_search_paths import _made_lost_states
from tests.test_solve import every_deal

pytestmark = pytest.mark.usefixtures("builtin_registry")


def _position(game: str, cid: str, n: int, seed: int, left: int,
              declarer: int | None = None) -> tuple[TrickContract, TrickHand, list[int]]:
    """A seeded deal played at random until ``left`` cards are in the largest hand."""
    rnd = random.Random(f"plain/{game}/{cid}/{n}/{seed}")
    cls = contract_class(game, cid)
    if cls.needs_declarer and declarer is None:
        declarer = rnd.randrange(n)
    c = cls(n, {}, declarer if cls.needs_declarer else None)
    assert isinstance(c, TrickContract)
    hands = seeded_deal(c.pack(), n, c.hand_size, seed)
    state = c.new_hand(hands, rnd.randrange(n))
    assert isinstance(state, TrickHand)
    while not state.over and max(h.bit_count() for h in state.hands) > left:
        state.play(rnd.choice(cards_of(state.legal_mask())))
    return c, state, hands


def _both(c: TrickContract, state: TrickHand, hands: list[int], seat: int,
          features: Features | None = None) -> tuple[int, int]:
    """The pure search's value and the plain kernel's (which must have run); ``hands``: the
    deal."""
    sc = trick_score(c, 0, hands)
    with compiled.pure():
        slow = TrickSearch(c, sc, seat, 1, Features(compiled=False)).exact(state.copy())
    with compiled.plain():
        search = TrickSearch(c, sc, seat, 1, features or Features())
        fast = search.exact(state.copy())
        assert search.path == "plain kernel"
    return slow, fast


def test_the_plain_kernel_is_python_and_leaves_the_compiled_one_alone() -> None:
    names = [f"herzla.analysis.search.kernel.{m}" for m in ("jit", "units", "alphabeta")]
    before = {k: sys.modules.get(k) for k in names}
    kernel = plain_kernel()
    assert kernel is plain_kernel()
    for f in (kernel.alphabeta.search, kernel.alphabeta._search, kernel.units.order_moves,
              kernel.units.popcount):
        assert type(f).__name__ == "function"  # not a numba dispatcher
    assert kernel.units.__name__ == "herzla.analysis.search.kernel.units"
    assert {k: sys.modules.get(k) for k in names} == before
    assert sys.modules.get(compiled.KERNEL) is not kernel.alphabeta


@pytest.mark.parametrize(("game", "cid", "n"), some_in_default([
    d for d in every_deal() if issubclass(contract_class(d[0], d[1]), TrickContract)],
    kind=lambda case: case[0]))
def test_the_plain_kernel_gives_the_pure_values(game: str, cid: str, n: int) -> None:
    left = 4 if n <= 4 else 3
    for seed in range(3):
        c, state, hands = _position(game, cid, n, seed, left)
        if state.over:
            continue
        seat = c.declarer if c.declarer is not None else seed % n
        slow, fast = _both(c, state, hands, seat)
        assert fast == slow, (game, cid, n, seed)


@pytest.mark.parametrize("off", ["equivalence", "table", "ordering", "bounds", "mtdf",
                                 "relative"])
def test_every_technique_off_in_the_plain_kernel_gives_the_same_value(off: str) -> None:
    for game, cid, seed in (("herzla", "normal", 3), ("herzeln", "no-queens", 5),
                            ("herzla", "beddl", 2)):
        c, state, hands = _position(game, cid, 4, seed, 4, declarer=0)
        seat = c.declarer if c.declarer is not None else 0
        slow, fast = _both(c, state, hands, seat, Features(**{off: False}))
        assert fast == slow, (game, cid, off)


def test_the_plain_kernel_gives_made_and_lost() -> None:
    """Beddl and Mord from the start of a deal in which the declarer holds a hand worth
    announcing (no Ace, King or Ober; six of them or more), and a few cards in."""
    made = set()
    for c, state, declarer in _made_lost_states():
        if state.over:
            continue
        slow, fast = _both(c, state, seeded_deal(PACK_32, 4, 8, 0), declarer)
        assert fast == slow
        made.add(slow)
    assert made == {0, 1}


def test_the_plain_kernels_bit_units_are_pythons() -> None:
    u = plain_kernel().units
    rnd = random.Random(7)
    for _ in range(300):
        x = rnd.getrandbits(rnd.choice([1, 9, 20, 36]))
        if not x:
            continue
        for v in (x, np.int64(x)):
            with np.errstate(over="ignore"):  # numpy's 64-bit words wrap, as numba's do
                assert u.popcount(v) == x.bit_count()
                assert u.lowest_bit(v) == (x & -x).bit_length() - 1
            assert u.highest_bit(v) == x.bit_length() - 1
        out = x | rnd.getrandbits(36)
        assert u.squeeze(out, x) == sum(
            1 << k for k, b in enumerate(b for b in range(36) if out >> b & 1) if x >> b & 1)


def test_the_plain_kernels_legal_cards_are_the_pure_searchs() -> None:
    legal_cards = plain_kernel().units.legal_cards
    for game, cid in (("herzla", "normal"), ("herzeln", "no-hearts"), ("herzla", "mord")):
        for seed in range(6):
            c, state, hands = _position(game, cid, 4, seed, 8 - seed)
            d = TrickSearch(c, trick_score(c, 0, hands), 0).declared
            T = state.tricks_per_hand
            held = [d.bits(x) for x in state.hands]
            legal = make_legal(held, d.lead_bans(T), d.discard_bans(T))
            lead_ban = np.asarray(d.lead_bans(T), np.int64)
            disc_ban = np.asarray(d.discard_bans(T), np.int64)
            for seat, h in enumerate(held):
                for t in range(T):
                    for led in (0, *(0x1FF << (9 * s) for s in range(4))):
                        k = 1 if led else 0
                        want = legal(seat, k, t, led)
                        assert legal_cards(h, k, t, led, lead_ban, disc_ban) == want


def test_the_plain_kernels_windows_are_fail_soft() -> None:
    """A null-window search says on which side of the window the value lies, as the pure
    path's does (the line of best play relies on it)."""
    for game, cid, seed in (("herzla", "normal", 7), ("herzeln", "no-queens", 2)):
        c, state, hands = _position(game, cid, 4, seed, 4)
        slow, _ = _both(c, state, hands, 0)
        with compiled.plain():
            search = TrickSearch(c, trick_score(c, 0, hands), 0)
            for alpha, beta, low, high in ((slow - 1, slow, slow, None),
                                           (slow, slow + 1, None, slow),
                                           (slow + 10, slow + 11, None, slow),
                                           (slow - 11, slow - 10, slow - 10, None)):
                got = search.value(state.copy(), alpha, beta)
                assert search.path == "plain kernel"
                assert (low is None or got >= low) and (high is None or got <= high)
