"""The reinforcement-learning environments (herzla.rl): PettingZoo's and Gymnasium's own checks,
random masked episodes that score exactly as ``herzla replay`` scores their records, for every
game, contract and player count and for plug-ins, the observation against the hand it shows,
the action space, the bidding, illegal actions and bad arguments."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402
from pettingzoo.utils.wrappers import TerminateIllegalWrapper  # noqa: E402

from herzla import contracts as registry  # noqa: E402
from herzla.cards import Card, cards_of  # noqa: E402
from herzla.cli import main  # noqa: E402
from herzla.contracts import UnknownContract, get_game  # noqa: E402
from herzla.kinds.layout import LayoutHand  # noqa: E402
from herzla.kinds.tricks import TrickHand  # noqa: E402
from herzla.options import OptionError  # noqa: E402
from herzla.players import PolicyError  # noqa: E402
from herzla.records import Record, deal_record, replay  # noqa: E402
from herzla.rl import HerzlaAEC, IllegalAction, aec_env, gym_env  # noqa: E402
from herzla.rl.single import GYM_ID  # noqa: E402

pytestmark = pytest.mark.rl


def tables() -> list[tuple[str, str | None, int]]:
    """Every game's episode (contract None) and every contract, at 3 and 4 players where the
    game allows them (herzla-kids: 3, 4 and 5, whose deal leaves a card aside)."""
    out: list[tuple[str, str | None, int]] = [("herzla", None, 4)]
    for game in ("herzla", "herzla-kids", "herzeln", "herzerln"):
        g = get_game(game)
        counts = [n for n in g.player_counts() if n <= (5 if game == "herzla-kids" else 4)]
        for n in counts:
            if g.partie or len(g.contract_classes()) == 1:
                out.append((game, None, n))
            if len(g.contract_classes()) > 1:
                out += [(game, c.id, n) for c in g.contract_classes() if n in c.player_counts]
    return list(dict.fromkeys(out))


TABLES = tables()
SOME = [("herzla", None, 4), ("herzla", "mord", 4), ("herzla-kids", None, 5),
        ("herzeln", None, 3), ("herzeln", "domino", 4), ("herzerln", None, 4),
        ("herzerln", "auflegen", 3)]


def ids(spec: tuple[str, str | None, int]) -> str:
    return f"{spec[0]}-{spec[1] or 'episode'}-{spec[2]}"


# -- playing random masked episodes ------------------------------------------------------------
def play_random(env: HerzlaAEC, seed: int) -> tuple[list[list[int]], list[float]]:
    """One episode, every agent choosing uniformly among its legal actions; returns the scores
    of each deal as ``infos`` report them and each agent's rewards summed as PettingZoo hands
    them out."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    deals: list[list[int]] = []
    got = [0.0] * len(env.possible_agents)
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        for a, r in env.rewards.items():
            got[env.possible_agents.index(a)] += r
        scored = [env.infos[a].get("score") for a in env.possible_agents if a in env.infos]
        if scored and scored[0] is not None:
            deals.append([int(s) for s in scored])  # type: ignore[arg-type]
    return deals, got


def check_scores(env: HerzlaAEC, seed: int) -> None:
    deals, got = play_random(env, seed)
    records = env.records()
    assert len(records) == len(deals) == len(env.table.deals)
    sign = -1 if env.table.lowest_wins else 1
    for record, scores in zip(records, deals, strict=True):
        result = replay(Record.from_json(record.to_json()))
        assert result.complete and result.illegal is None
        assert list(result.scores or ()) == scores
    totals = [sum(col) for col in zip(*deals, strict=True)]
    assert got == [float(sign * t) for t in totals]
    assert env.episode is not None and env.episode.totals == totals


@pytest.mark.parametrize("spec", TABLES, ids=ids)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63 - 1))
def test_random_episodes_score_as_replay(spec: tuple[str, str | None, int], seed: int) -> None:
    game, contract, players = spec
    check_scores(aec_env(game, contract, players), seed)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), stock=st.integers(0, 400), dealer=st.integers(0, 3),
       priority=st.sampled_from(["position", "mord-over-beddl"]))
def test_the_bidding_with_a_stock_scores_as_replay(seed: int, stock: int, dealer: int,
                                                   priority: str) -> None:
    env = aec_env("herzla", options={"contract_priority": priority}, dealer=dealer, stock=stock)
    check_scores(env, seed)
    record = env.record()
    assert record.to_json()["stock"] == stock and record.dealer == dealer


@pytest.fixture
def plugin_games(monkeypatch: pytest.MonkeyPatch, plugin_path: None) -> Iterator[None]:
    """The entry-point plug-in (game ``bube``, tests/plugins) and the vocabulary's test game
    (a trick deal with a discard ban, one with a declarer, a layout deal that turns the
    corner), registered for one test."""
    from tests.test_vocabulary import Ladder, NoSpades, Solo

    monkeypatch.setattr(registry, "_registry", None)  # read the entry points again
    registry._load()
    for cls in (NoSpades, Solo, Ladder):
        registry.register(cls)
    yield


@pytest.mark.parametrize("spec", [("bube", None, 4), ("test-vocab", "no-spades", 3),
                                  ("test-vocab", "solo", 4), ("test-vocab", "ladder", 4)],
                         ids=ids)
def test_plugin_contracts_are_environments(plugin_games: None,
                                           spec: tuple[str, str | None, int]) -> None:
    game, contract, players = spec
    for seed in range(4):
        check_scores(aec_env(game, contract, players), seed)
    api_test(aec_env(game, contract, players), num_cycles=100)
    check_env(gym_env(game, contract, players, opponents="heuristic"))
    if contract == "ladder":
        assert aec_env(game, contract, players).actions.lower is not None


def test_the_cli_replays_an_episode_to_its_rewards() -> None:
    from click.testing import CliRunner

    env = aec_env("herzerln", players=3)
    deals, _ = play_random(env, 11)
    runner = CliRunner()
    for record, scores in zip(env.records(), deals, strict=True):
        answer = runner.invoke(main, ["replay", "-", "--json"], input=json.dumps(
            record.to_json()))
        assert answer.exit_code == 0, answer.output
        assert json.loads(answer.output)["scores"] == scores


# -- the libraries' own checks -----------------------------------------------------------------
@pytest.mark.parametrize("spec", SOME, ids=ids)
def test_pettingzoo_api_seed_and_render_tests(spec: tuple[str, str | None, int]) -> None:
    game, contract, players = spec
    api_test(aec_env(game, contract, players), num_cycles=1000)
    seed_test(lambda: aec_env(game, contract, players), num_cycles=1000)
    render_test(lambda render_mode=None: aec_env(game, contract, players,
                                                  render_mode=render_mode))


@pytest.mark.parametrize("spec", SOME, ids=ids)
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_gymnasium_check_env(spec: tuple[str, str | None, int], opponents: str) -> None:
    game, contract, players = spec
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of check_env is a failure here
        made = gymnasium.make(GYM_ID, game=game, contract=contract, players=players,
                              opponents=opponents)
        check_env(made.unwrapped)  # made: check_env renders each render mode too
    check_env(gym_env(game, contract, players, seat=players - 1, opponents=opponents,
                      render_mode="ansi"))  # made by hand: check_env warns of no spec


def test_gymnasium_check_env_against_pimc() -> None:
    check_env(gym_env("herzla", "normal", opponents="pimc[samples=2]"))


# -- seeds and deals ---------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "contract", "players"), [
    ("herzla", "normal", 4), ("herzeln", "domino", 3), ("herzla-kids", "normal", 5)])
def test_a_seed_deals_what_herzla_deal_deals(game: str, contract: str, players: int) -> None:
    env = aec_env(game, contract, players)
    env.reset(seed=9)
    dealt = deal_record(game, contract, players, 9)
    assert env.record().hands == dealt.hands and env.deal_seed == 9
    env.reset()  # the next episode's seed comes from the first
    other = env.deal_seed
    env.reset(seed=9)
    env.reset()
    assert env.deal_seed == other != 9


def test_a_partie_deals_what_herzla_simulate_plays() -> None:
    from herzla.sim.api import simulate

    seen: list[dict[str, Any]] = []
    simulate("herzeln", hands=1, seed=4, policy="random", sample=1, jobs=1,
             on_records=lambda recs: seen.extend(r if isinstance(r, dict) else r.to_json()
                                                 for r in recs))
    env = aec_env("herzeln")
    play_random(env, 4)
    mine = [r.to_json() for r in env.records()]
    assert [r["hands"] for r in seen] == [r["hands"] for r in mine]
    assert [r["dealer"] for r in seen] == [r["dealer"] for r in mine]


@pytest.mark.parametrize(("game", "players", "dealer", "stock"),
                         [("herzeln", 3, 1, 0), ("herzerln", 4, 2, 0), ("herzla", 4, 0, 120)])
def test_an_episode_carries_what_an_evening_of_its_records_carries(game: str, players: int,
                                                                   dealer: int,
                                                                   stock: int) -> None:
    """The episode's totals, stock and dealers are a Carry's: deal by deal, an evening fed
    the episode's records has the same totals, stock and next dealer."""
    from herzla.evening import Evening
    from herzla.rl.actions import Actions
    from herzla.rl.episode import Episode
    from herzla.rl.table import EnvTable

    table = EnvTable.of(game, players=players, dealer=dealer, stock=stock)
    episode = Episode(table, Actions(table), seed=7)
    evening = Evening.new(game, [f"p{i}" for i in range(players)], stock=stock, dealer=dealer)
    rng = np.random.default_rng(1)
    deals = 0
    while not episode.over:
        assert episode.dealer == evening.next_dealer == table.dealers[episode.deal]
        scores = episode.step(int(rng.choice(list(episode.legal()))))
        if scores is None:
            continue
        deals += 1
        evening = evening.add({"record": episode.finished[-1].record().to_json()})
        assert episode.totals == list(evening.totals) == list(episode.carry.totals)
        assert episode.carry.stock == evening.stock
        assert episode.stock == (evening.stock or 0)
        assert episode.carry.dealers == tuple(d.place.dealer for d in evening.deals)
    assert deals == len(table.deals) == episode.carry.deals
    assert any(episode.totals)


# -- the action space --------------------------------------------------------------------------
def test_action_spaces_come_from_the_declarations() -> None:
    sizes = {spec: aec_env(*spec).actions.size for spec in [
        ("herzla", None, 4), ("herzla", "beddl", 4), ("herzla-kids", None, 3),
        ("herzeln", None, 4), ("herzeln", "domino", 3), ("herzerln", None, 4),
        ("herzerln", "auflegen", 3)]}
    assert sizes == {
        ("herzla", None, 4): 32 + 1 + 2,  # 32 cards, the pass and beddl, mord
        ("herzla", "beddl", 4): 32,
        ("herzla-kids", None, 3): 36,
        ("herzeln", None, 4): 32 + 32 + 1,  # the domino turns the corner: the lower ends
        ("herzeln", "domino", 3): 24 + 24 + 1,
        ("herzerln", None, 4): 32 + 1,  # Auflegen's rows end at 7 and A: a pass, no lower end
        ("herzerln", "auflegen", 3): 30 + 1,
    }
    env = aec_env("herzerln", players=3)
    assert [str(c) for c in env.actions.cards] == [str(c) for c in cards_of(
        env.table.contract_for(0).pack().mask)]


def test_the_lower_end_of_a_domino_row() -> None:
    """Find, in random domino deals, a card that fits both ends: its two actions are legal, and
    the lower one is recorded as the record marks it (``-``)."""
    env = aec_env("herzeln", "domino", 3)
    rng = np.random.default_rng(0)
    for seed in range(200):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = obs["action_mask"]
            lower = env.actions.lower
            assert lower is not None
            both = [a for a in np.flatnonzero(mask[lower:lower + 24])]
            if both:
                card = env.actions.cards[both[0]]
                assert mask[both[0]] == 1  # the upper end too
                fits = env.observer.block(obs["observation"], "fits_lower")
                assert fits[both[0]] == 1
                env.step(lower + both[0])
                assert str(env.record().plays[-1]) == f"{card}-"
                return
            env.step(int(rng.choice(np.flatnonzero(mask))))
    pytest.fail("no card fitted both ends in 200 domino deals")


# -- the observation ---------------------------------------------------------------------------
def test_the_observation_shows_a_trick_deal_from_each_seat() -> None:
    env = aec_env("herzla", "normal")
    rng = np.random.default_rng(3)
    env.reset(seed=3)
    ob = env.observer
    for step in range(14):  # into the fourth trick  # noqa: B007
        hand = env.episode.hand if env.episode else None
        assert isinstance(hand, TrickHand)
        for seat in range(4):
            obs = env.observe(f"player_{seat}")["observation"]
            rel = [(seat + k) % 4 for k in range(4)]  # row k: the k-th seat from the observer

            def cards(mask: int) -> list[float]:
                return [float(mask >> c.index & 1) for c in env.actions.cards]

            assert ob.block(obs, "hand").tolist() == cards(hand.hands[seat])
            assert ob.block(obs, "captured").tolist() == [cards(hand.captured[s]) for s in rel]
            assert ob.block(obs, "tricks_won").tolist() == [hand.won[s] / 8 for s in rel]
            assert ob.block(obs, "leader").tolist() == [float(s == hand.leader) for s in rel]
            assert ob.block(obs, "turn").tolist() == [float(s == hand.turn) for s in rel]
            assert ob.block(obs, "dealer").tolist() == [float(s == 3) for s in rel]
            played = [0] * 4
            for t in [*hand.tricks, None]:
                leader, cards_ = (t.leader, t.cards) if t else (hand.leader, tuple(hand.trick))
                for i, c in enumerate(cards_):
                    played[(leader + i) % 4] |= c.bit
            assert ob.block(obs, "played").tolist() == [cards(played[s]) for s in rel]
            in_trick = [0] * 4
            for i, c in enumerate(hand.trick):
                in_trick[(hand.leader + i) % 4] |= c.bit
            assert ob.block(obs, "trick").tolist() == [cards(in_trick[s]) for s in rel]
            winner = hand.current_winner()
            assert ob.block(obs, "winning").tolist() == [float(s == winner) for s in rel]
            assert ob.block(obs, "stock").tolist() == [0.0]
            assert obs in env.observation_space(f"player_{seat}")["observation"]
        mask = env.observe(env.agent_selection)["action_mask"]
        legal = sorted(str(c) for c in cards_of(hand.legal_mask()))
        assert sorted(env.actions.name(int(a)) for a in np.flatnonzero(mask)) == legal
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert step == 13


def test_a_new_episode_never_gets_the_observation_of_a_freed_one() -> None:
    """The observer's cache holds the episode itself, not its id: a new episode in a freed
    one's memory, and so with its id (CPython reuses it at once), is observed afresh."""
    from herzla.rl.actions import Actions
    from herzla.rl.episode import Episode
    from herzla.rl.observation import Observer
    from herzla.rl.table import EnvTable

    table = EnvTable.of("herzla", "normal")
    actions = Actions(table)
    observer = Observer(table)
    for seed in range(5):
        old = Episode(table, actions, seed=seed)
        observer.observe(old, 0)
        del old
        new = Episode(table, actions, seed=seed + 100)
        fresh = Observer(table).observe(new, 0)
        assert observer.observe(new, 0).tolist() == fresh.tolist()
        del new


def test_the_observation_shows_the_rows_of_a_layout_deal() -> None:
    env = aec_env("herzerln", "auflegen", 4)
    rng = np.random.default_rng(8)
    env.reset(seed=8)
    ob = env.observer
    for _ in range(40):
        hand = env.episode.hand if env.episode else None
        assert isinstance(hand, LayoutHand)
        if hand.over:
            break
        laid = 0
        for c in hand.laid:
            laid |= c.bit
        obs = env.observe("player_1")["observation"]
        fits = [float(not laid >> c.index & 1 and bool(hand.fits(c)))
                for c in env.actions.cards]
        assert ob.block(obs, "fits").tolist() == fits
        rel = [(1 + k) % 4 for k in range(4)]
        assert ob.block(obs, "cards_left").tolist() == [hand.hands[s].bit_count() / 8
                                                        for s in rel]
        places = {s: (i + 1) / 4 for i, s in enumerate(hand.order)}
        assert ob.block(obs, "out").tolist() == [places.get(s, 0.0) for s in rel]
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))


def test_the_bidding_is_observed_and_ends_when_settled() -> None:
    env = aec_env("herzla")  # contract_priority=position: the first announcement wins
    env.reset(seed=2)
    ob = env.observer
    beddl = env.actions.names().index("beddl")
    assert env.agent_selection == "player_0"  # forehand announces first
    with pytest.raises(ValueError, match="no hand record before the bidding"):
        env.record()
    env.step(env.actions.pass_action)
    env.step(beddl)  # seat 1 announces Beddl: settled at once
    episode = env.episode
    assert episode is not None and episode.contract is not None
    assert (episode.contract.id, episode.contract.declarer) == ("beddl", 1)
    obs = env.observe("player_2")["observation"]
    bids = ob.block(obs, "bids")
    assert bids.tolist()[-2:] == [[1, 0, 0], [0, 1, 0]]  # seats 0 and 1, from seat 2
    assert ob.block(obs, "declarer").tolist() == [0, 0, 0, 1]
    assert ob.block(obs, "contract").tolist() == [0, 1, 0]
    assert env.record().declarer == 1
    env2 = aec_env("herzla", options={"contract_priority": "mord-over-beddl"})
    env2.reset(seed=2)
    env2.step(beddl)  # a later Mord may still outbid it
    assert env2.episode is not None and env2.episode.contract is None


def test_a_partie_rewards_deal_by_deal_and_shows_the_totals() -> None:
    env = aec_env("herzeln", players=3)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    paid = 0
    for _agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if env.infos[env.possible_agents[0]]:
            paid += 1
            totals = env.episode.totals if env.episode else []
            o = env.observe("player_2")["observation"]
            unit = env.table.unit
            assert env.observer.block(o, "totals").tolist() == pytest.approx(
                [totals[2] / unit, totals[0] / unit, totals[1] / unit])
    assert paid == 8


def test_lowest_wins_rewards_minus_the_penalty_points() -> None:
    env = aec_env("herzla-kids", players=3)
    deals, got = play_random(env, 1)
    assert sum(deals[0]) == 9 and got == [-float(s) for s in deals[0]]  # 9 hearts, 36 cards


# -- illegal actions ---------------------------------------------------------------------------
def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = aec_env("herzla", "normal")
    env.reset(seed=7)
    before = env.observe("player_0")["observation"]
    with pytest.raises(IllegalAction, match=r"^seat 0 does not hold C7$"):
        env.step(0)
    with pytest.raises(IllegalAction, match="not an action"):
        env.step(99)
    with pytest.raises(ValueError, match="whole number, not str"):
        env.step("HA")
    assert (env.observe("player_0")["observation"] == before).all()
    assert env.agent_selection == "player_0" and not env.record().plays


def test_the_classic_convention_by_pettingzoo_s_wrapper() -> None:
    env = TerminateIllegalWrapper(aec_env("herzla", "normal"), illegal_reward=-1)
    env.reset(seed=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(0)
    assert all(env.terminations.values())
    assert env.rewards["player_0"] == -1


def test_the_gym_environment_penalizes_or_raises() -> None:
    env = gym_env("herzla", "normal")
    obs, _ = env.reset(seed=7)
    again, reward, terminated, _, info2 = env.step(0)
    assert (again == obs).all() and reward == -1.0 and not terminated
    assert info2["illegal"] == "seat 0 does not hold C7"
    strict = gym_env("herzla", "normal", illegal_reward=None)
    strict.reset(seed=7)
    with pytest.raises(IllegalAction, match="does not hold C7"):
        strict.step(0)


def test_a_gym_episode_plays_out_against_the_heuristic() -> None:
    env = gym_env("herzeln", seat=2, opponents=["heuristic", "random", "heuristic"])
    _, info = env.reset(seed=1)
    total = 0.0
    terminated = False
    rng = np.random.default_rng(1)
    steps = 0
    while not terminated:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        assert env.action_masks()[action]
        _, reward, terminated, _, info = env.step(action)
        total += reward
        steps += 1
    assert steps > 8 * 7  # every deal has at least 8 moves for the seat but the domino's
    replayed = [replay(r).scores for r in env.records()]
    assert total == info["totals"][2] == sum(s[2] for s in replayed if s is not None)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


# -- bad arguments -----------------------------------------------------------------------------
@pytest.mark.parametrize(("call", "kind", "message"), [
    (lambda: aec_env("herzel"), UnknownContract, 'unknown game "herzel"; did you mean herzeln'),
    (lambda: aec_env("herzeln", "dommino"), UnknownContract, "did you mean domino"),
    (lambda: aec_env("herzla", players=3), OptionError, "played by 4 players, not 3"),
    (lambda: aec_env("herzla", "normal", declarer=1), OptionError, "has no declarer"),
    (lambda: aec_env("herzla", declarer=1), OptionError, "the bidding chooses it"),
    (lambda: aec_env("herzeln", stock=5), OptionError, "herzeln has no stock"),
    (lambda: aec_env("herzla", stock=-1), OptionError, "stock"),
    (lambda: aec_env("herzla", dealer=4), OptionError, "dealer 4 is not a seat"),
    (lambda: aec_env("herzla", options={"heart_unit": "x"}), OptionError, "heart_unit"),
    (lambda: aec_env("herzla", render_mode="rgb_array"), ValueError, "render_mode"),
    (lambda: gym_env("herzla", seat=4), ValueError, "seat 4 is not a seat"),
    (lambda: gym_env("herzla", opponents="nobody"), PolicyError, 'unknown policy "nobody"'),
    (lambda: gym_env("herzla", opponents=["random"]), ValueError, "or 3 \\(one for each"),
    (lambda: gym_env("herzla", illegal_reward=float("nan")), ValueError, "illegal_reward"),
    (lambda: aec_env(7),  # type: ignore[arg-type]
     UnknownContract, "a game is named by text, not 7"),
    (lambda: aec_env("herzla", players=True), OptionError, "players true is not a whole"),
])
def test_bad_arguments_name_the_problem(call: Any, kind: type[Exception], message: str
                                        ) -> None:
    with pytest.raises(kind, match=message) as caught:
        call()
    assert "\n" not in str(caught.value)


def test_moves_by_their_codes() -> None:
    env = aec_env("herzerln", "auflegen", 4)
    env.reset(seed=8)
    episode = env.episode
    assert episode is not None
    first = str(episode.hand.legal_moves()[0]) if episode.hand else ""
    assert first.endswith("+")
    assert episode.action_of(first[:-1].lower()) == episode.action_of(first)  # the only end
    with pytest.raises(IllegalAction, match="must open with"):
        episode.action_of("SA")
    while episode.hand is not None and episode.hand.check("pass") is not None:
        episode.step(next(iter(episode.legal())))
    assert episode.action_of("pass") == env.actions.pass_action  # a layout deal's pass


def test_names_are_case_insensitive() -> None:
    env = aec_env("HerzEln", "DOMINO", 3)
    assert env.table.game.id == "herzeln" and env.table.deals == ("domino",)
    card = Card.from_str("HJ")
    assert env.actions.name(env.actions.slot(card) or 0) == "HJ"


# -- the documentation's example ---------------------------------------------------------------
def load_example() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "docs" / "examples" / "rl_tabular.py"
    spec = importlib.util.spec_from_file_location("rl_tabular", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tabular_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    module = load_example()
    module.main(["--train", "60", "--eval", "20", "--seed", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Herzla normal game, seat 0 against 3 random players: trained "
                               "on 60 hands in ")
    again = module.run(60, 20, 2)  # seeded: the same numbers again
    assert lines[1] == (f"over 20 evaluation deals: tabular {again['learned']:+.1f}, random "
                        f"{again['random']:+.1f} cents a hand")
    assert again["entries"] > 10 and again["low"] <= again["diff"] <= again["high"]
    assert module.interval([1.0, 3.0]) == pytest.approx((2.0, 2.0 - 1.96, 2.0 + 1.96))


@pytest.mark.slow
def test_the_tabular_agent_beats_random_as_the_docs_say() -> None:
    result = load_example().run(5_000, 4_000, 1)
    assert (round(result["diff"], 1), round(result["low"], 1), round(result["high"], 1)) == (
        3.3, 1.8, 4.8)
    assert result["low"] > 0
