"""The batch engine against the reference engine: same hands, same choices, same results.

Every contract of every game, each player count, both policies and a spread of options: a block
played by the numpy batch engine and by the reference engine must give identical scores, stock,
events, bidding results, hearts captured and sample records; the batch engine's records replay
legally through ``herzla.records.replay`` to the same scores and hearts; chunking and block size
do not matter.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from herzla import contracts
from herzla.cards import HEARTS_MASK, SUIT_MASKS, Suit
from herzla.contracts import contract_classes
from herzla.contracts.herzla import Normal
from herzla.hand import TrickPlay
from herzla.players import builtin_names, policy_of
from herzla.records import Record, replay
from herzla.sim import batch, reference
from herzla.sim.batch import batch_form_of
from herzla.sim.engine import play_block, play_blocks
from herzla.sim.spec import BlockResult, DealSpec
from tests.shares import some_in_default

Config = tuple[str, str | None, int, dict[str, Any], int, int | None]


def _configs() -> list[Config]:
    out: list[Config] = [
        ("herzla", "normal", 4, {}, 0, None),
        ("herzla", "normal", 4, {"rank_order": "ace-ten"}, 0, None),
        ("herzla", "normal", 4, {"heart_lead_ban_tricks": 0}, 0, None),
        ("herzla", "normal", 4, {"heart_lead_ban_tricks": 3}, 0, None),
        ("herzla", "normal", 4, {"no_void": "no-payment", "heart_unit": 5}, 0, None),
        ("herzla", "normal", 4, {}, 70, None),
        ("herzla", "normal", 4, {"stock_payout": "never", "contract_stake": 50}, 70, None),
        ("herzla", "beddl", 4, {}, 0, 1),
        ("herzla", "beddl", 4, {"heart_lead_ban_in_contracts": False, "contract_stake": 30},
         20, 3),
        ("herzla", "mord", 4, {}, 0, 0),
        ("herzla", "mord", 4, {"rank_order": "ace-ten", "heart_lead_ban_tricks": 3}, 0, 2),
        ("herzla", None, 4, {}, 0, None),
        ("herzla", None, 4, {"heart_lead_ban_in_contracts": False, "rank_order": "ace-ten",
                             "contract_priority": "mord-over-beddl"}, 30, None),
        ("herzla-kids", "normal", 6, {"heart_lead_ban_tricks": 0}, 0, None),
        ("herzeln", "domino", 3, {"domino_suits": "same-suit"}, 0, None),
        ("herzeln", "domino", 4, {"domino_suits": "same-suit"}, 0, None),
        ("herzeln", "domino", 3, {"domino_suits": "same-suit", "domino_wrap": False}, 0, None),
        ("herzeln", "domino", 4, {"domino_suits": "same-suit", "domino_wrap": False}, 0, None),
    ]
    out += [("herzla-kids", "normal", p, {}, 0, None) for p in (3, 4, 5, 8)]
    for game in ("herzeln", "herzerln"):
        for cls in contract_classes(game):
            for p in (3, 4):
                out.append((game, cls.id, p, {}, 0, None))
    return out


CONFIGS = _configs()
HANDS = 50


def _spec(cfg: Config, policy: str, dealer: int | None = None) -> DealSpec:
    game, contract, players, options, stock, declarer = cfg
    if dealer is None:
        dealer = (len(options) + stock + (declarer or 0)) % players
    return DealSpec.of(game, contract, players, dealer, declarer, stock, options, policy)


def _ids(cfg: Config) -> str:
    game, contract, players, options, stock, declarer = cfg
    extra = ",".join(f"{k}={v}" for k, v in options.items())
    return f"{game}-{contract or 'bidding'}-{players}p" + (f"-{extra}" if extra else "") + \
        (f"-stock{stock}" if stock else "") + (f"-decl{declarer}" if declarer is not None else "")


def assert_same(a: BlockResult, b: BlockResult) -> None:
    np.testing.assert_array_equal(a.scores, b.scores)
    assert (a.stock_after is None) == (b.stock_after is None)
    if a.stock_after is not None and b.stock_after is not None:
        np.testing.assert_array_equal(a.stock_after, b.stock_after)
    assert a.events == b.events
    assert (a.contracts is None) == (b.contracts is None)
    if a.contracts is not None and b.contracts is not None:
        np.testing.assert_array_equal(a.contracts, b.contracts)
    assert a.records == b.records
    assert (a.hearts is None) == (b.hearts is None)
    if a.hearts is not None and b.hearts is not None:
        np.testing.assert_array_equal(a.hearts, b.hearts)


def assert_replays(res: BlockResult) -> None:
    """Every sample record replays legally and completely, to the block's scores and events."""
    events: Counter[str] = Counter()
    for i, obj in enumerate(res.records):
        answer = replay(Record.from_json(obj))
        assert answer.illegal is None, (i, answer.illegal)
        assert answer.complete, i
        assert answer.scores is not None
        assert list(answer.scores) == res.scores[i].tolist(), i
        if res.stock_after is not None:
            assert answer.stock == res.stock_after[i]
        if res.contracts is not None:
            assert obj["contract"] == ("normal", "beddl", "mord")[res.contracts[i]]
            assert (obj["declarer"] is None) == (res.contracts[i] == 0)
        assert answer.score is not None
        events.update(answer.score.events)
    if len(res.records) == len(res.scores):
        assert dict(events) == res.events


def assert_hearts(res: BlockResult, spec: DealSpec) -> None:
    """Hearts are reported exactly for the trick deals played in full, and match the records."""
    layout = (spec.game, spec.contract_id) in {("herzeln", "domino"), ("herzerln", "auflegen")}
    full = not layout and spec.contract_id is not None and spec.contract_id not in ("beddl", "mord")
    assert (res.hearts is not None) == full
    if res.hearts is None:
        return
    assert res.hearts.shape == res.scores.shape and res.hearts.dtype == np.int64
    assert res.records
    for i, obj in enumerate(res.records):
        answer = replay(Record.from_json(obj))
        assert answer.tricks is not None and answer.complete
        want = [0] * spec.players
        for trick in answer.tricks:
            assert trick.winner is not None  # complete: no trick in progress
            want[trick.winner] += sum(1 for c in trick.cards if c.suit == Suit.H)
        assert res.hearts[i].tolist() == want, i


#: every built-in policy with a batch form
POLICIES = tuple(n for n in builtin_names() if batch_form_of(policy_of(n)) is not None)


def _every_policy_once() -> list[Any]:
    """Each configuration with each batch policy: in the default set every configuration with
    one policy, each policy in turn (the learned net, by far the slowest on the reference
    engine, in one turn of four: the heuristic in the others), the rest in the slow set; of a
    contract's several configurations (options, stocks, sizes), its first and every other one."""
    n = len(POLICIES)
    first: dict[tuple[str, str | None], int] = {}  # each contract's first configuration
    for i, cfg in enumerate(CONFIGS):
        first.setdefault(cfg[:2], i)

    def default(i: int, j: int) -> bool:
        if i % 2 and first[CONFIGS[i][:2]] != i:
            return False
        turn = (i + j) % n == 0
        if POLICIES[-i % n] != "net" or (i // n) % 4 == 0:
            return turn
        return POLICIES[j] == "heuristic"

    return [pytest.param(cfg, policy, id=f"{_ids(cfg)}-{policy}",
                         marks=() if default(i, j) else pytest.mark.slow)
            for i, cfg in enumerate(CONFIGS) for j, policy in enumerate(POLICIES)]


@pytest.mark.parametrize(("cfg", "policy"), _every_policy_once())
def test_batch_matches_reference(cfg: Config, policy: str) -> None:
    spec = _spec(cfg, policy)
    seed = len(CONFIGS) + CONFIGS.index(cfg)
    fast = batch.play_block(spec, seed, (3, 1), HANDS, records=HANDS, chunk=17)
    slow = reference.play_block(spec, seed, (3, 1), HANDS, records=HANDS)
    assert_same(fast, slow)
    assert_replays(fast)
    assert_hearts(fast, spec)


@pytest.mark.slow
@pytest.mark.parametrize("shift", [0, 1])
@pytest.mark.parametrize("cfg", CONFIGS, ids=_ids)
def test_batch_matches_reference_with_a_policy_a_seat(cfg: Config, shift: int) -> None:
    """Seats with different policies (each built-in batch form in turn) on both engines."""
    players = cfg[2]
    policy = ",".join(POLICIES[(s + shift) % len(POLICIES)] for s in range(players))
    spec = _spec(cfg, policy)
    seed = 3 * len(CONFIGS) + CONFIGS.index(cfg) + shift
    fast = batch.play_block(spec, seed, (2, 0), HANDS, records=HANDS, chunk=13)
    slow = reference.play_block(spec, seed, (2, 0), HANDS, records=HANDS)
    assert_same(fast, slow)
    assert_replays(fast)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("priority", ["position", "mord-over-beddl"])
@pytest.mark.slow
def test_bidding_with_many_contracts(policy: str, priority: str) -> None:
    spec = DealSpec.of("herzla", None, 4, 2, policy=policy,
                    options={"contract_priority": priority})
    n = 1000
    for block in range(300):  # Mord is rare: find a block of hands that has one
        fast = batch.play_block(spec, 11, (0, block), n, records=40)
        assert fast.contracts is not None
        counts = np.bincount(fast.contracts, minlength=3)
        if counts[2]:
            break
    assert counts[1] > 10 and counts[2] > 0
    slow = reference.play_block(spec, 11, (0, block), n, records=40)
    assert_same(fast, slow)
    assert_replays(fast)
    assert fast.events["contract-made"] + fast.events["contract-lost"] == counts[1] + counts[2]


@pytest.mark.parametrize("spec", [
    DealSpec.of("herzla", None, 4, 3, policy="heuristic"),
    DealSpec.of("herzeln", "domino", 4, 1),
    DealSpec.of("herzerln", "auflegen", 3, 2, policy="heuristic"),
    DealSpec.of("herzla-kids", "normal", 5, 0),
], ids=lambda s: f"{s.game}-{s.contract_id}")
@pytest.mark.slow
def test_chunking_and_block_size_do_not_matter(spec: DealSpec) -> None:
    whole = batch.play_block(spec, 5, (1, 2), 90, records=90, chunk=90)
    for chunk in (1, 8, 89):
        assert_same(batch.play_block(spec, 5, (1, 2), 90, records=90, chunk=chunk), whole)
    # a block of fewer hands plays the same first hands
    part = batch.play_block(spec, 5, (1, 2), 40, records=40)
    np.testing.assert_array_equal(part.scores, whole.scores[:40])
    assert part.records == whole.records[:40]
    assert batch.play_block(spec, 5, (1, 3), 40).scores.tolist() != part.scores.tolist()


@pytest.mark.parametrize("cfg", some_in_default(CONFIGS[::3], every=6, ids=_ids,
                                                unpack=False))
def test_seatings_dealt_once_play_as_alone(cfg: Config) -> None:
    """The seatings of a match share their dealing (``play_blocks``), and each answers what it
    answers played alone: every rotation of the built-in policies with a batch form, and one
    policy for every seat, records included, in chunks."""
    players = cfg[2]
    seatings = [",".join(POLICIES[(s + r) % len(POLICIES)] for s in range(players))
                for r in range(len(POLICIES))] + list(POLICIES)
    specs = [_spec(cfg, policy) for policy in seatings]
    together = batch.play_blocks(specs, 9, (1, 4), 60, records=7, chunk=23)
    assert len(together) == len(specs)
    for spec, res in zip(specs, together, strict=True):
        assert_same(res, batch.play_block(spec, 9, (1, 4), 60, records=7, chunk=23))


def test_seatings_dealt_once_on_either_engine() -> None:
    """``engine.play_blocks`` plays the seatings the batch engine declines (a policy without a
    batch form) on the reference engine, in their order; specs that differ in more than their
    policies are refused."""
    specs = [DealSpec.of("herzla", "normal", 4, 3, policy=p)
             for p in ("heuristic,random,heuristic,random",
                       "pimc[samples=1,tricks=1],random,random,heuristic", "random")]
    got = play_blocks(specs, 4, (0, 2), 3)
    for spec, res in zip(specs, got, strict=True):
        assert_same(res, reference.play_block(spec, 4, (0, 2), 3))
    assert play_blocks(specs[:1], 4, (0, 2), 3, engine="reference")[0].scores.tolist() == \
        got[0].scores.tolist()
    with pytest.raises(ValueError, match="more than their policies"):
        batch.play_blocks([specs[0], DealSpec.of("herzla", "normal", 4, 2, policy="random")],
                          4, (0, 2), 3)


def test_dispatch() -> None:
    spec = DealSpec.of("herzeln", "no-queens", 3, 2, policy="heuristic")
    auto = play_block(spec, 1, (0, 0), 60, records=3)
    assert_same(auto, batch.play_block(spec, 1, (0, 0), 60, records=3))
    assert_same(auto, play_block(spec, 1, (0, 0), 60, records=3, engine="reference"))
    assert_same(auto, play_block(spec, 1, (0, 0), 60, records=3, engine="batch"))
    with pytest.raises(ValueError, match="engine"):
        play_block(spec, 1, (0, 0), 5, engine="numba")
    with pytest.raises(ValueError, match="policy"):
        play_block(DealSpec.of("herzla", "normal", 4, 3, policy="smart"), 1, (0, 0), 5)


class _Sneaky(Normal):
    """A third-party contract: Herzla's normal game under another name, all declared."""

    game = "sim-test"


class _OwnBan(Normal):
    """A third-party contract whose lead ban is Python of its own: no heart led while a seat
    holds a club."""

    game = "sim-test"
    id = "own-ban"

    def banned(self, state: TrickPlay, seat: int, leading: bool) -> tuple[int, str] | None:
        if leading and state.hands[seat] & SUIT_MASKS[0]:
            return HEARTS_MASK, "heart-lead-ban"
        return None


@pytest.fixture
def third_party(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(contracts, "_registry", dict(contracts._load()))
    contracts.register(_Sneaky)
    contracts.register(_OwnBan)
    yield


@pytest.mark.usefixtures("third_party")
def test_third_party_contracts_in_the_vocabulary_play_on_the_batch_engine() -> None:
    spec = DealSpec.of("sim-test", "normal", 4, 3, policy="heuristic", stock=10)
    assert batch.unsupported(spec) is None
    fast = play_block(spec, 2, (0, 0), 30, records=30, engine="batch")
    assert_same(fast, reference.play_block(spec, 2, (0, 0), 30, records=30))
    assert fast.records[0]["game"] == "sim-test"


@pytest.mark.usefixtures("third_party")
def test_contracts_with_hooks_of_their_own_fall_back() -> None:
    spec = DealSpec.of("sim-test", "own-ban", 4, 3, policy="random")
    reason = batch.unsupported(spec)
    assert reason is not None and "sim-test/own-ban" in reason and "banned()" in reason
    with pytest.raises(ValueError, match=r"banned\(\)"):
        play_block(spec, 2, (0, 0), 10, engine="batch")
    with pytest.raises(ValueError, match="sim-test/own-ban"):
        batch.play_block(spec, 2, (0, 0), 10)
    auto = play_block(spec, 2, (0, 0), 30, records=30)
    assert_same(auto, reference.play_block(spec, 2, (0, 0), 30, records=30))


_HERZLA_OPTIONS = st.fixed_dictionaries({}, optional={
    "heart_unit": st.integers(1, 40),
    "contract_stake": st.integers(0, 200),
    "rank_order": st.sampled_from(["natural", "ace-ten"]),
    "contract_priority": st.sampled_from(["position", "mord-over-beddl"]),
    "heart_lead_ban_tricks": st.integers(0, 9),
    "heart_lead_ban_in_contracts": st.booleans(),
    "no_void": st.sampled_from(["pay-stock", "no-payment"]),
    "stock_payout": st.sampled_from(["void", "never"]),
})


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**40), block=st.integers(0, 10**6), dealer=st.integers(0, 3),
       contract=st.sampled_from([None, "normal", "beddl", "mord"]), declarer=st.integers(0, 3),
       stock=st.integers(0, 150), options=_HERZLA_OPTIONS, policy=st.sampled_from(POLICIES))
def test_herzla_options(seed: int, block: int, dealer: int, contract: str | None,
                        declarer: int, stock: int, options: dict[str, Any], policy: str) -> None:
    spec = DealSpec.of("herzla", contract, 4, dealer, declarer if contract in ("beddl", "mord")
                    else None, stock, options, policy)
    fast = batch.play_block(spec, seed, (block,), 25, records=25, chunk=9)
    assert_same(fast, reference.play_block(spec, seed, (block,), 25, records=25))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.sampled_from([3, 4]),
       game=st.sampled_from(["herzeln-any", "herzeln-same", "herzeln-same-nowrap", "herzerln"]),
       policy=st.sampled_from(POLICIES), dealer=st.integers(0, 3))
def test_layout_deals(seed: int, players: int, game: str, policy: str, dealer: int) -> None:
    options: dict[str, Any] = {}
    if game.startswith("herzeln-same"):
        options["domino_suits"] = "same-suit"
        options["domino_wrap"] = not game.endswith("nowrap")
    name, contract = ("herzerln", "auflegen") if game == "herzerln" else ("herzeln", "domino")
    spec = DealSpec.of(name, contract, players, dealer % players, options=options, policy=policy)
    fast = batch.play_block(spec, seed, (0,), 20, records=20, chunk=6)
    assert_same(fast, reference.play_block(spec, seed, (0,), 20, records=20))


@pytest.mark.parametrize("policy", POLICIES)
def test_invariants(policy: str) -> None:
    """RULES.md §5 on the batch engine, at a size the reference engine could not afford."""
    n = 3000
    res = batch.play_block(DealSpec.of("herzla", "normal", 4, 3, stock=25, policy=policy),
                           9, (0,), n)
    assert res.stock_after is not None
    assert (res.scores.sum(axis=1) + res.stock_after - 25 == 0).all()
    assert res.hearts is not None and (res.hearts.sum(axis=1) == 8).all()  # every heart, once
    res = batch.play_block(DealSpec.of("herzla", None, 4, 3, policy=policy), 9, (1,), n)
    assert res.hearts is None  # the bidding: Beddl and Mord hands may end early
    assert res.contracts is not None and res.stock_after is not None
    settled = np.sort(res.scores[res.contracts > 0], axis=1)
    made = (settled == [-80, -80, -80, 240]).all(axis=1)
    lost = (settled == [-240, 80, 80, 80]).all(axis=1)
    assert len(settled) and (made | lost).all()
    assert (res.scores.sum(axis=1) + res.stock_after == 0).all()
    # every deal of both partie games adds up to its contract's declared total
    for players in (4, 3):
        for cls in contract_classes("herzeln"):
            total = cls(players).score_total()
            res = batch.play_block(DealSpec.of("herzeln", cls.id, players, 0, policy=policy),
                                   9, (2,), 500)
            assert (res.scores.sum(axis=1) == total).all(), cls.id
            if res.hearts is not None:  # all the pack is dealt: 8 hearts, 6 with 3 players
                assert (res.hearts.sum(axis=1) == 2 * players).all(), cls.id
    for players in (4, 3):
        for cls in contract_classes("herzerln"):
            total = cls(players).score_total()
            res = batch.play_block(DealSpec.of("herzerln", cls.id, players, 1, policy=policy),
                                   9, (3,), 500)
            assert (res.scores.sum(axis=1) == total).all(), cls.id
            assert (res.hearts is None) == (cls.kind == "layout")
            if res.hearts is not None:  # the 30 cards of 3 players keep all 8 hearts
                assert (res.hearts.sum(axis=1) == 8).all(), cls.id
    for players, aside in ((3, 0), (5, 1), (7, 1), (8, 4)):
        res = batch.play_block(DealSpec.of("herzla-kids", "normal", players, 0, policy=policy),
                               9, (4,), 500)
        taken = res.scores.sum(axis=1)
        assert ((taken <= 9) & (taken >= 9 - aside)).all()
        assert res.hearts is not None
        np.testing.assert_array_equal(res.hearts, res.scores)  # a point per heart


SCALE = max(1, int(os.environ.get("HERZLA_SLOW_SCALE", "1") or 1))
EVERY_CONTRACT: list[Config] = [
    ("herzla", "normal", 4, {}, 40, None), ("herzla", "beddl", 4, {}, 0, 2),
    ("herzla", "mord", 4, {}, 0, 1), ("herzla", None, 4, {}, 0, None),
    *[("herzla-kids", "normal", p, {}, 0, None) for p in (3, 4, 5, 7, 8)],
    *[(g, c.id, p, {}, 0, None) for g in ("herzeln", "herzerln") for c in contract_classes(g)
      for p in (3, 4)],
]


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("cfg", EVERY_CONTRACT, ids=_ids)
def test_many_batch_hands_replay_on_the_reference_engine(cfg: Config, policy: str) -> None:
    """Hundreds of batch-played hands of every contract (thousands with HERZLA_SLOW_SCALE),
    each replayed as a hand record by the reference engine: every play legal, same score."""
    n = 400 * SCALE
    res = batch.play_block(_spec(cfg, policy), 2026, (7, SCALE), n, records=n)
    assert len(res.records) == n
    assert_replays(res)
