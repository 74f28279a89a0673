"""Both paths of the solver, pure Python and the compiled kernel
(herzla.analysis.search.compiled), on every kind of position: trick deals of every game, Beddl and
Mord made and lost, layout deals, whole deals.  The answers (value, made, the line and the value of
every play) must be the same.

The compiled path needs numba (the ``fast`` extra); where it is installed these tests run in the
default set, where it is not they are skipped (both runs would take the pure path).  The few
that take seconds (whole deals, the advisor's forks) are in the ``compiled`` set, which CI runs
with the ``fast`` extra."""

from __future__ import annotations

import importlib.util
import json
import os
import random
from typing import Any

import pytest

from herzla.analysis.advise import KERNEL_SAMPLES
from herzla.analysis.search import compiled
from herzla.analysis.search.scoring import trick_score
from herzla.analysis.search.trick_search import Features, TrickSearch
from herzla.analysis.solve import solve
from herzla.cards import PACK_32, Rank, cards_of, mask_of
from herzla.contracts import TrickContract, contract_class
from herzla.kinds.tricks import TrickHand
from herzla.limits import MAX_AMOUNT
from herzla.records import Record
from herzla.support.streams import seeded_deal
from tests.shares import some_in_default
from tests.test_solve import end_position, every_deal

HAS_NUMBA = importlib.util.find_spec("numba") is not None
needs_numba = pytest.mark.skipif(not HAS_NUMBA, reason="the fast extra (numba) is not installed")
#: the whole module compares the compiled path with the pure one, so it needs numba; the
#: registry is herzla's own
pytestmark = [pytest.mark.usefixtures("builtin_registry"), needs_numba]
#: the tests that take seconds: the marked set
long = pytest.mark.compiled


def both(obj: dict[str, Any], seat: int | None, cls_: Any = None) -> tuple[Any, Any]:
    rec = Record.from_json(obj, cls_) if cls_ is not None else obj
    with compiled.pure():
        slow = solve(rec, seat=seat, plays=True)
    with compiled.always():
        fast = solve(rec, seat=seat, plays=True)
    return slow, fast


def same(slow: Any, fast: Any) -> None:
    assert (fast.value, fast.made, fast.line, fast.plays) == (
        slow.value, slow.made, slow.line, slow.plays)


@pytest.mark.parametrize(("game", "contract_id", "players"),
                         some_in_default(every_deal(), kind=lambda case: case[0]))
def test_both_paths_agree_on_end_positions(game: str, contract_id: str, players: int) -> None:
    rnd = random.Random(f"paths/{game}/{contract_id}/{players}")
    for _ in range(4):
        obj = end_position(game, contract_id, players, rnd)
        cls = contract_class(game, contract_id)
        seat = None if cls.needs_declarer else rnd.randrange(players)
        same(*both(obj, seat))


def _deeper(game: str, cid: str, n: int, seed: int, left: int) -> dict[str, Any]:
    """A seeded deal played at random until ``left`` cards are in the largest hand."""
    rnd = random.Random(seed)
    cls = contract_class(game, cid)
    declarer = rnd.randrange(n) if cls.needs_declarer else None
    contract = cls(n, {}, declarer)
    hands = seeded_deal(contract.pack(), n, contract.hand_size, seed)
    state = contract.new_hand(hands, n - 1)
    assert isinstance(state, TrickHand)
    plays = []
    while not state.over and max(h.bit_count() for h in state.hands) > left:
        card = rnd.choice(cards_of(state.legal_mask()))
        state.play(card)
        plays.append(str(card))
    return {"game": game, "contract": cid, "players": n, "dealer": n - 1, "declarer": declarer,
            "stock": 0, "hands": [[str(c) for c in cards_of(h)] for h in hands],
            "plays": plays}


@pytest.mark.parametrize(("game", "cid", "n"), [
    ("herzla", "normal", 4), ("herzla-kids", "normal", 4),
    ("herzla-kids", "normal", 5), ("herzeln", "no-hearts", 4), ("herzeln", "no-queens", 3),
    ("herzeln", "king-of-hearts", 4), ("herzeln", "last-trick", 4),
    ("herzeln", "no-last-trick", 4), ("herzeln", "every-trick", 4),
    ("herzeln", "no-tricks", 4), ("herzerln", "tricks", 4), ("herzerln", "jacks", 3),
    ("herzla", "beddl", 4), ("herzla", "mord", 4)])
def test_both_paths_agree_on_deeper_positions(game: str, cid: str, n: int) -> None:
    cls = contract_class(game, cid)
    if n not in cls.player_counts:
        pytest.skip(f"{game} {cid} is not played by {n}")
    for seed in range(3):
        obj = _deeper(game, cid, n, seed, 4)
        same(*both(obj, None if cls.needs_declarer else seed % n))


def test_both_paths_agree_on_layout_deals() -> None:
    rnd = random.Random("paths/layout")
    for game, cid, n in [("herzeln", "domino", 3), ("herzeln", "domino", 4),
                         ("herzerln", "auflegen", 4)]:
        cls = contract_class(game, cid)
        if n not in cls.player_counts:
            continue
        for _ in range(3):
            same(*both(end_position(game, cid, n, rnd), rnd.randrange(n)))


@long
@pytest.mark.parametrize("cid", ["beddl", "mord"])
def test_both_paths_agree_on_whole_made_lost_deals(cid: str) -> None:
    seen = set()
    for seed in range(10):
        hands = seeded_deal(PACK_32, 4, 8, seed)
        # the declarer: the seat with the lowest cards (Beddl) or the highest (Mord)
        strength = [sum(c.rank for c in cards_of(h)) for h in hands]
        pick = min if cid == "beddl" else max
        declarer = strength.index(pick(strength))
        obj = {"game": "herzla", "contract": cid, "players": 4, "dealer": 3,
               "declarer": declarer, "hands": [[str(c) for c in cards_of(h)] for h in hands],
               "plays": []}
        slow, fast = both(obj, None)
        same(slow, fast)
        seen.add(slow.made)
    assert seen


@long
def test_both_paths_agree_on_whole_normal_deals() -> None:
    for seed in (1, 4):
        hands = seeded_deal(PACK_32, 4, 8, seed)
        obj = {"game": "herzla", "contract": "normal", "players": 4, "dealer": 3,
               "declarer": None, "hands": [[str(c) for c in cards_of(h)] for h in hands],
               "plays": [], "options": {"heart_unit": MAX_AMOUNT}, "stock": MAX_AMOUNT}
        same(*both(obj, seed % 4))


# -- the kernel itself -------------------------------------------------------------------------

def _normal_search(features: Features, seed: int) -> tuple[TrickSearch, TrickHand]:
    c = contract_class("herzla", "normal")(4, {})
    assert isinstance(c, TrickContract)
    hands = seeded_deal(PACK_32, 4, 8, seed)
    state = c.new_hand(hands, 3)
    assert isinstance(state, TrickHand)
    rnd = random.Random(seed)
    for _ in range(9):
        state.play(rnd.choice(cards_of(state.legal_mask())))
    return TrickSearch(c, trick_score(c, 0, hands), seed % 4, 1, features), state


@needs_numba
def test_the_kernel_runs_where_it_applies() -> None:
    with compiled.always():
        search, state = _normal_search(Features(), 2)
        search.exact(state)
        assert search.path == "compiled" and search.nodes > 0
        off, state = _normal_search(Features(compiled=False), 2)
        off.exact(state)
        assert off.path == "pure"
    with compiled.pure():
        search, state = _normal_search(Features(), 2)
        search.exact(state)
        assert search.path == "pure"


@needs_numba
def test_few_cards_take_the_pure_path_by_default() -> None:
    obj = end_position("herzla", "normal", 4, random.Random(1))
    rec = Record.from_json(obj)
    c = rec.contract
    assert isinstance(c, TrickContract)
    from herzla.analysis.solve import _position

    state = _position(rec)
    assert isinstance(state, TrickHand)
    search = TrickSearch(c, trick_score(c, rec.stock, [mask_of(h) for h in rec.hands]), 0)
    if not state.over:
        search.exact(state)
        assert search.path == "pure"


@needs_numba
@pytest.mark.parametrize("off", ["equivalence", "table", "ordering", "bounds", "mtdf",
                                 "relative"])
def test_every_technique_off_in_the_kernel_gives_the_same_value(off: str) -> None:
    with compiled.always():
        for seed in (3, 5):
            ref, state = _normal_search(Features(compiled=False), seed)
            want = ref.exact(state.copy())
            search, _ = _normal_search(Features(**{off: False}), seed)
            assert search.exact(state.copy()) == want
            assert search.path == "compiled"


@needs_numba
def test_kernel_windows_are_fail_soft() -> None:
    """A null-window search says on which side of the window the value lies, as the pure
    path's does (the line of best play relies on it)."""
    with compiled.always():
        search, state = _normal_search(Features(), 7)
        v = search.exact(state.copy())
        assert search.value(state.copy(), v - 1, v) >= v
        assert search.value(state.copy(), v, v + 1) <= v
        assert search.value(state.copy(), v + 10, v + 11) <= v
        assert search.value(state.copy(), v - 11, v - 10) >= v - 10


def _made_lost_states() -> list[tuple[TrickContract, TrickHand, int]]:
    """Deals in which the declarer holds a hand worth announcing (Beddl: no Ace, King or Ober;
    Mord: six of them or more), a few cards in."""
    top = sum(1 << (s * 9 + r) for s in range(4) for r in (Rank.ACE, Rank.KING, Rank.QUEEN))
    out = []
    for cid in ("beddl", "mord"):
        found = 0
        seed = 0
        while found < 10:
            seed += 1
            hands = seeded_deal(PACK_32, 4, 8, seed)
            count = [(h & top).bit_count() for h in hands]
            worth = [s for s in range(4) if (count[s] == 0 if cid == "beddl" else count[s] >= 6)]
            if not worth:
                continue
            found += 1
            declarer = worth[0]
            c = contract_class("herzla", cid)(4, {}, declarer)
            assert isinstance(c, TrickContract)
            state = c.new_hand(hands, 3)
            assert isinstance(state, TrickHand)
            rnd = random.Random(seed)
            for _ in range(seed % 3 * 5):
                if state.over:
                    break
                state.play(rnd.choice(cards_of(state.legal_mask())))
            out.append((c, state, declarer))
    return out


def test_both_paths_agree_on_made_lost_values() -> None:
    """Beddl and Mord: the kernel's made/lost values (which advise uses once numba is loaded)
    against the pure made/lost search, whole deals and positions a few cards in."""
    made = set()
    for c, state, declarer in _made_lost_states():
        if state.over:
            continue
        sc = trick_score(c, 0, seeded_deal(PACK_32, 4, 8, 0))
        with compiled.pure():
            slow = TrickSearch(c, sc, declarer).exact(state.copy())
        with compiled.always():
            search = TrickSearch(c, sc, declarer)
            fast = search.exact(state.copy())
            if HAS_NUMBA:
                assert search.path == "compiled"
        assert fast == slow
        made.add(slow)
    assert made == {0, 1}


@long
@needs_numba
def test_kernel_beddl_verdicts_keep_the_values_and_cut_nodes() -> None:
    """The kernel's Beddl verdicts at trick boundaries (made when the declarer can play under
    the others in every suit, lost when a lead forces it to win or every lead of its own wins):
    the same made/lost as without them (``Features(bounds=False)``) and against the pure search,
    on advise's sampled deals of a low hand (made and lost both), with fewer nodes in all."""
    from herzla.analysis.advise import plan_advice, sample_hands

    plan = plan_advice("CT C7 SJ S8 H9 H7 D9 D7", samples=40, seed=1)
    c = plan.contract("beddl")
    sc = trick_score(c, 0, sample_hands(plan, 0))
    nodes = {True: 0, False: 0}
    made = set()
    for i in range(plan.samples):
        hands = sample_hands(plan, i)
        got = {}
        with compiled.always():
            for on in (True, False):
                search = TrickSearch(c, sc, plan.seat, 1, Features(bounds=on))
                got[on] = search.exact(TrickHand(c, hands, plan.dealer))
                assert search.path == "compiled"
                nodes[on] += search.nodes
        with compiled.pure():
            slow = TrickSearch(c, sc, plan.seat).exact(TrickHand(c, hands, plan.dealer))
        assert got[True] == got[False] == slow
        made.add(slow)
    assert made == {0, 1}
    assert nodes[True] < nodes[False]


@long
@needs_numba
def test_advise_loads_the_kernel_before_its_helpers_fork() -> None:
    """``herzla advise`` on several processes loads the kernel before the helpers fork (they
    inherit it): a plan with the normal game loads it and leaves this process one thread (so
    the helpers still fork); Beddl and Mord alone load it for at least ``KERNEL_SAMPLES``
    samples and never for fewer."""
    import subprocess
    import sys

    code = ("import sys, threading\n"
            "from herzla.analysis.advise import _load_kernel, plan_advice\n"
            "from herzla.support.procs import start_method\n"
            "_load_kernel(plan_advice('CT C7 SJ S8 H9 H7 D9 D7', samples=int(sys.argv[1]),"
            " choices=sys.argv[2:]))\n"
            f"print({compiled.KERNEL!r} in sys.modules, 'numba' in sys.modules,"
            " threading.active_count(), start_method())\n")
    env = {k: v for k, v in os.environ.items() if k not in ("HERZLA_PURE",
                                                            "HERZLA_START_METHOD")}
    out = {}
    few = str(KERNEL_SAMPLES - 1)
    for name, samples, choices in (("normal", few, ["normal", "beddl"]),
                                   ("few", few, ["beddl", "mord"]),
                                   ("many", str(KERNEL_SAMPLES), ["beddl", "mord"])):
        done = subprocess.run([sys.executable, "-c", code, samples, *choices],
                              capture_output=True, text=True, check=True, env=env)
        out[name] = done.stdout.split()
    assert out["normal"][:3] == ["True", "True", "1"]
    if sys.platform.startswith("linux"):
        assert out["normal"][3] == "fork"
    assert out["few"][:2] == ["False", "False"]
    assert out["many"][:3] == ["True", "True", "1"]


@long
@needs_numba
def test_made_lost_advice_is_the_same_on_the_kernel() -> None:
    """Beddl and Mord alone on two processes with enough samples run on the kernel (loaded
    before the helper forks) and give the pure path's answer, made and lost both seen."""
    import subprocess
    import sys

    answers = {}
    for pure in ("1", "0"):
        env = {**os.environ, "HERZLA_PURE": pure}
        done = subprocess.run(
            [sys.executable, "-m", "herzla", "advise", "herzla", "--hand",
             "CT C7 SJ S8 H9 H7 D9 D7", "--samples", str(2 * KERNEL_SAMPLES), "--seed", "4",
             "--only", "beddl", "--only", "mord", "--jobs", "2", "--json"],
            capture_output=True, text=True, check=True, env=env)
        got = json.loads(done.stdout)
        got.pop("elapsed_s", None)
        answers[pure] = got
    assert answers["1"] == answers["0"]
    assert 0 < answers["0"]["choices"]["beddl"]["double_dummy"]["p_made"] < 1


@needs_numba
def test_the_plain_kernel_is_what_numba_compiles() -> None:
    """The kernel run as plain Python (tests/test_kernel_plain.py, without numba) searches the
    very nodes the compiled kernel does, to the same value."""
    for seed in (2, 3):
        got = {}
        for mode in (compiled.always, compiled.plain):
            with mode():
                search, state = _normal_search(Features(), seed)
                got[mode.__name__] = (search.exact(state), search.nodes)
                assert search.path == ("compiled" if mode is compiled.always else "plain kernel")
        assert got["always"] == got["plain"] and got["plain"][1] > 0
