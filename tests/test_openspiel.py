"""The OpenSpiel games (herzla.openspiel): OpenSpiel's own conformance test for every contract and
player count, records that herzla replays to the same scores, serialization, the bidding, the
domino's two ends, observations, parameters, and OpenSpiel's algorithms on the games."""

from __future__ import annotations

import importlib.util
import json
import math
import pickle
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import outcome_sampling_mccfr  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from herzla import openspiel as hos  # noqa: E402
from herzla.cards import Card, cards_of  # noqa: E402
from herzla.contracts import contract_classes, game_options  # noqa: E402
from herzla.kinds.layout import LayoutHand  # noqa: E402
from herzla.kinds.tricks import TrickHand  # noqa: E402
from herzla.options import OptionError  # noqa: E402
from herzla.records import Record, replay  # noqa: E402
from tests.spiel_deals import consistent_deals  # noqa: E402

pytestmark = pytest.mark.openspiel

ROOT = Path(__file__).resolve().parents[1]


def all_specs() -> list[str]:
    """Every contract of every game at every player count (Herzla: and the bidding)."""
    specs = [f"python_herzla(contract={c})" for c in ("normal", "beddl", "mord", "bidding")]
    specs += [f"python_herzla_kids(players={n})" for n in range(3, 9)]
    for game in ("herzeln", "herzerln"):
        specs += [f"python_{game}(contract={c.id},players={n})"
                  for c in contract_classes(game) for n in (3, 4)]
    return specs


SPECS = all_specs()


def test_the_specs_cover_every_contract() -> None:
    assert len(SPECS) == 4 + 6 + 8 * 2 + 6 * 2


def play(state: Any, rnd: random.Random, stop: int | None = None) -> Any:
    """Random legal actions (chance: uniform) until the end, or until ``stop`` actions."""
    while not state.is_terminal() and (stop is None or len(state.history()) < stop):
        if state.is_chance_node():
            state.apply_action(rnd.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    return state


def deal(game: Any, rnd: random.Random) -> Any:
    """A state whose cards are all dealt."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rnd.choice([a for a, _ in state.chance_outcomes()]))
    return state


# -- registration and parameters ---------------------------------------------------------------
def test_importing_registers_the_four_games_with_every_option() -> None:
    names = {t.short_name for t in pyspiel.registered_games()}
    for short, game in hos.GAMES.items():
        assert short in names
        params = pyspiel.load_game(short).get_parameters()
        assert params["contract"] == contract_classes(game)[0].id
        assert params["dealer"] == -1
        for option in game_options(game):
            assert params[option.name] == option.default
        assert ("stock" in params) == (game == "herzla")
        assert ("declarer" in params) == (game == "herzla")


@pytest.mark.parametrize(("spec", "problem"), [
    ("python_herzla(contract=slam)", '"slam" is not a herzla contract (known: normal, beddl, '
                                     "mord, bidding)"),
    ("python_herzeln(contract=bidding)", '"bidding" is not a herzeln contract'),
    ("python_herzla(players=5)", "herzla normal is played by 4 players, not 5"),
    ("python_herzla_kids(players=9)", "is played by 3, 4, 5, 6, 7 or 8 players, not 9"),
    ("python_herzla(declarer=2)", "herzla normal has no declarer"),
    ("python_herzla(dealer=4)", "dealer 4 is not a seat"),
    ("python_herzla(heart_unit=0)", "option heart_unit: 0 is less than 1"),
    ("python_herzla(stock=-10)", "must be 0 to 1,000,000,000,000, not -10"),
    ("python_herzeln(contract=domino,domino_wrap=false)", "domino_wrap=false needs"),
])
def test_wrong_parameters_say_what_is_wrong(spec: str, problem: str) -> None:
    with pytest.raises(OptionError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        pyspiel.load_game(spec)


def test_dealer_declarer_stock_and_options_reach_the_record() -> None:
    game = pyspiel.load_game("python_herzla(contract=beddl,dealer=1,stock=30,"
                             "rank_order=ace-ten)")
    rec = deal(game, random.Random(1)).record()
    assert (rec["dealer"], rec["declarer"], rec["stock"]) == (1, 2, 30)  # declarer: forehand
    assert rec["options"]["rank_order"] == "ace-ten"
    state = deal(pyspiel.load_game("python_herzla(contract=mord,declarer=0)"), random.Random(1))
    assert state.record()["declarer"] == 0
    assert state.current_player() == 0  # forehand (the dealer is the last seat) leads


def test_utility_bounds_come_from_the_contracts_scoring() -> None:
    normal = pyspiel.load_game("python_herzla")
    # all hearts to one seat pays 80c; Schleichermord collects 3 x 80c
    assert (normal.min_utility(), normal.max_utility()) == (-80, 240)
    rich = pyspiel.load_game("python_herzla(stock=200)")
    assert rich.max_utility() == 280  # the only void seat collects 80c and the stock
    assert normal.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    domino = pyspiel.load_game("python_herzeln(contract=domino)")
    assert (domino.min_utility(), domino.max_utility(), domino.utility_sum()) == (-30, 0, -60)
    auflegen = pyspiel.load_game("python_herzerln(contract=auflegen,players=3)")
    assert (auflegen.min_utility(), auflegen.max_utility(), auflegen.utility_sum()) == (7, 21, 42)
    kids = pyspiel.load_game("python_herzla_kids(players=5)")
    assert (kids.min_utility(), kids.max_utility()) == (0, 9)


# -- OpenSpiel's conformance test ----------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
def test_openspiel_random_simulation(spec: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(spec), num_sims=8, serialize=True, verbose=False)


OPTION_SPECS = [
    "python_herzla(contract=mord,heart_lead_ban_in_contracts=false,rank_order=ace-ten)",
    "python_herzla(contract=bidding,contract_priority=mord-over-beddl,stock=50,"
    "no_void=no-payment,stock_payout=never,heart_unit=20,contract_stake=30)",
    "python_herzla(stock=70,heart_lead_ban_tricks=0)",
    "python_herzeln(contract=domino,domino_suits=same-suit,domino_wrap=false,players=3)",
    "python_herzeln(contract=domino,domino_suits=same-suit,players=4)",
    "python_herzla_kids(players=6,heart_lead_ban_tricks=0,dealer=2)",
]


@pytest.mark.parametrize("spec", OPTION_SPECS)
def test_openspiel_random_simulation_with_options(spec: str) -> None:
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    state = play(game.new_initial_state(), random.Random(spec))
    result = replay(Record.from_json(state.record()))
    assert result.scores is not None and list(result.scores) == state.returns()


# -- records ----------------------------------------------------------------------------------
@pytest.mark.parametrize("spec", SPECS)
def test_records_replay_to_the_returns(spec: str) -> None:
    game = pyspiel.load_game(spec)
    rnd = random.Random(spec)
    for _ in range(3):
        state = game.new_initial_state()
        shown = []  # the plays as OpenSpiel names them
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rnd.choice([a for a, _ in state.chance_outcomes()]))
                continue
            action = rnd.choice(state.legal_actions())
            if state.engine() is not None:
                shown.append(state.action_to_string(action))
            state.apply_action(action)
        rec = json.loads(json.dumps(state.record()))
        assert rec["plays"] == shown
        result = replay(Record.from_json(rec))
        assert result.complete and result.illegal is None
        assert result.scores is not None
        assert list(result.scores) == state.returns()


def test_a_record_of_a_hand_in_progress_replays_to_the_same_point() -> None:
    game = pyspiel.load_game("python_herzerln(contract=hearts)")
    state = play(game.new_initial_state(), random.Random(5), stop=32 + 11)
    result = replay(Record.from_json(state.record()))
    assert not result.complete and result.illegal is None and result.scores is None
    engine = state.engine()
    assert isinstance(engine, TrickHand) and len(engine.trick) == 3  # 2 tricks and one begun
    assert result.tricks is not None and list(result.tricks[:-1]) == engine.tricks
    in_progress = result.tricks[-1]  # the trick begun comes last, without a winner
    assert in_progress.winner is None and list(in_progress.cards) == engine.trick
    assert state.record()["plays"][8:] == [str(c) for c in engine.trick]


def test_there_is_no_record_during_the_deal_or_the_bidding() -> None:
    game = pyspiel.load_game("python_herzla(contract=bidding)")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="being dealt"):
        state.record()
    state = deal(game, random.Random(2))
    with pytest.raises(ValueError, match="before the bidding"):
        state.record()


# -- the bidding ------------------------------------------------------------------------------
@pytest.mark.parametrize(("priority", "bids", "contract", "declarer"), [
    ("position", ["pass", "pass", "pass", "pass"], "normal", None),
    ("position", ["beddl"], "beddl", 0),
    ("position", ["pass", "mord"], "mord", 1),
    ("position", ["pass", "pass", "pass", "beddl"], "beddl", 3),
    ("mord-over-beddl", ["beddl", "pass", "mord"], "mord", 2),
    ("mord-over-beddl", ["pass", "beddl", "pass", "pass"], "beddl", 1),
    ("mord-over-beddl", ["mord"], "mord", 0),
])
def test_the_bidding_reaches_each_contract(priority: str, bids: list[str], contract: str,
                                           declarer: int | None) -> None:
    dealer = 1  # forehand is seat 2: the bids are made by seats 2, 3, 0, 1
    game = pyspiel.load_game(f"python_herzla(contract=bidding,dealer={dealer},"
                             f"contract_priority={priority})")
    rnd = random.Random(contract)
    state = deal(game, rnd)
    for i, word in enumerate(bids):
        assert state.current_player() == (dealer + 1 + i) % 4
        assert state.contract() is None
        assert [state.action_to_string(a) for a in state.legal_actions()] == \
               ["pass", "beddl", "mord"]
        state.apply_action(state.action_of(word))
    rules = state.contract()
    assert rules is not None and rules.id == contract
    seat = None if declarer is None else (dealer + 1 + declarer) % 4
    assert rules.declarer == seat
    assert state.current_player() == (dealer + 1) % 4  # forehand leads to the first trick
    assert isinstance(state.engine(), TrickHand)
    play(state, rnd)
    rec = state.record()
    assert (rec["contract"], rec["declarer"]) == (contract, seat)
    result = replay(Record.from_json(rec))
    assert result.scores is not None and list(result.scores) == state.returns()


# -- moves and their strings --------------------------------------------------------------------
def test_trick_actions_are_the_engines_legal_cards() -> None:
    game = pyspiel.load_game("python_herzla")
    state = deal(game, random.Random(3))
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 26) == "deal HA"
    rnd = random.Random(4)
    while not state.is_terminal():
        engine = state.engine()
        assert isinstance(engine, TrickHand)
        legal = state.legal_actions()
        assert legal == [c.index for c in cards_of(engine.legal_mask())]
        assert [state.action_to_string(a) for a in legal] == [
            str(c) for c in cards_of(engine.legal_mask())]
        for other in range(4):
            if other != state.current_player():
                assert state.legal_actions(other) == []
        state.apply_action(rnd.choice(legal))
    with pytest.raises(ValueError, match="the hand is over"):
        state.apply_action(legal[0])


def test_an_illegal_card_is_refused_with_the_engines_reason() -> None:
    state = deal(pyspiel.load_game("python_herzla"), random.Random(3))
    engine = state.engine()
    assert isinstance(engine, TrickHand)
    others = [c for c in cards_of(engine.hands[1])]
    with pytest.raises(ValueError, match=f"seat 0 does not hold {others[0]}"):
        state.apply_action(others[0].index)
    with pytest.raises(ValueError, match="there is no pass in a trick deal"):
        state.apply_action(hos.PASS)
    state = deal(pyspiel.load_game("python_herzerln(contract=auflegen)"), random.Random(3))
    with pytest.raises(ValueError, match=r"seat \d passed but can lay HJ"):
        state.apply_action(hos.PASS)


@pytest.mark.parametrize("spec", ["python_herzeln(contract=domino,players=4)",
                                  "python_herzeln(contract=domino,players=3)",
                                  "python_herzerln(contract=auflegen,players=4)",
                                  "python_herzerln(contract=auflegen,players=3)"])
def test_a_layout_seat_passes_only_when_it_cannot_lay(spec: str) -> None:
    game = pyspiel.load_game(spec)
    rnd = random.Random(spec)
    passes = recorded = 0
    for _ in range(4):
        state = deal(game, rnd)
        while not state.is_terminal():
            engine = state.engine()
            assert isinstance(engine, LayoutHand)
            legal = state.legal_actions()
            moves = engine.lays()
            if hos.PASS in legal:
                passes += 1
                assert legal == [hos.PASS] and moves == []
                assert state.action_to_string(hos.PASS) == "pass"
            else:
                assert len(legal) == len(moves)
                assert {a % hos.LOWER for a in legal} == {
                    m.card.index for m in moves if m.card is not None}
            state.apply_action(rnd.choice(legal))
        recorded += state.record()["plays"].count("pass")
    assert passes == recorded > 0


def test_a_domino_card_that_fits_both_ends_is_two_actions() -> None:
    game = pyspiel.load_game("python_herzeln(contract=domino)")
    rnd = random.Random(11)
    for _ in range(200):
        state = deal(game, rnd)
        while not state.is_terminal():
            both = [a for a in state.legal_actions() if hos.LOWER <= a < hos.PASS]
            if both:
                break
            state.apply_action(rnd.choice(state.legal_actions()))
        if both:
            break
    else:
        pytest.fail("no domino card fitting both ends in 200 hands")
    legal = state.legal_actions()
    for action in legal:
        if action < hos.LOWER:
            mark = "+" if action + hos.LOWER in legal else ""
            assert state.action_to_string(action) == f"{Card.from_index(action)}{mark}"
    card = Card.from_index(both[0] - hos.LOWER)
    assert card.index in legal
    assert state.action_to_string(card.index) == f"{card}+"
    assert state.action_to_string(both[0]) == f"{card}-"
    upper = state.clone()
    upper.apply_action(card.index)
    state.apply_action(both[0])
    assert state.record()["plays"][-1] == f"{card}-"
    assert upper.record()["plays"][-1] == f"{card}+"
    assert state.observation_string(0) != upper.observation_string(0)
    for s in (state, upper):
        play(s, rnd)
        result = replay(Record.from_json(s.record()))
        assert result.scores is not None and list(result.scores) == s.returns()


def test_action_of_maps_the_engines_moves() -> None:
    state = deal(pyspiel.load_game("python_herzerln(contract=auflegen)"), random.Random(8))
    engine = state.engine()
    assert isinstance(engine, LayoutHand)
    [opening] = engine.legal_moves()  # HJ opens
    assert state.action_of(opening) == state.action_of(opening.card) == Card.from_str("HJ").index
    with pytest.raises(ValueError, match="not a legal move"):
        state.action_of(Card.from_str("SJ"))


# -- serialization and copies -----------------------------------------------------------------
@pytest.mark.parametrize(("spec", "cut"), [
    ("python_herzla(contract=bidding,contract_priority=mord-over-beddl)", 33),
    ("python_herzla(contract=normal,stock=40)", 32 + 6),
    ("python_herzeln(contract=domino,players=3)", 24 + 9),
    ("python_herzla_kids(players=7)", 20),
])
def test_serialization_round_trips(spec: str, cut: int) -> None:
    game = pyspiel.load_game(spec)
    rnd = random.Random(cut)
    state = play(game.new_initial_state(), rnd, stop=cut)
    assert len(state.history()) == cut
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    copies = [state2, pickle.loads(pickle.dumps(state)), state.clone()]
    assert str(game2) == str(game)
    for other in copies:
        assert str(other) == str(state) and other.history() == state.history()
        assert other.legal_actions() == state.legal_actions()
        for seat in range(game.num_players()):
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
    # a copy goes on on its own
    before, ahead = str(state), state.clone()
    ahead.apply_action(ahead.chance_outcomes()[0][0] if ahead.is_chance_node()
                       else ahead.legal_actions()[0])
    assert str(state) == before != str(ahead)
    # and the copies end like the original
    play(state, rnd)
    for other in copies:
        for item in state.full_history()[len(other.history()):]:
            other.apply_action(item.action)
        assert other.returns() == state.returns()
        assert other.record() == state.record()


def test_the_engine_given_out_is_a_copy() -> None:
    state = deal(pyspiel.load_game("python_herzla"), random.Random(6))
    legal = state.legal_actions()
    engine = state.engine()
    assert isinstance(engine, TrickHand)
    engine.play(cards_of(engine.legal_mask())[0])
    assert state.current_player() == 0 and state.legal_actions() == legal
    fresh = state.engine()
    assert isinstance(fresh, TrickHand) and fresh.trick == [] and fresh.turn == 0


# -- observations -----------------------------------------------------------------------------
def test_observations_show_a_seats_own_hand_and_the_table() -> None:
    game = pyspiel.load_game("python_herzla")
    state = deal(game, random.Random(9))
    hands = [[Card.from_str(c) for c in h] for h in state.record()["hands"]]
    recall = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    plain = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    recall.set_from(state, 2)
    assert sorted(np.flatnonzero(recall.dict["hand"])) == sorted(c.index for c in hands[2])
    assert recall.dict["contract"].tolist() == [1, 0, 0]
    text = state.information_state_string(2)
    assert all(str(c) in text for c in hands[2]) and not any(str(c) in text for c in hands[1])
    rnd = random.Random(10)
    for _ in range(5):  # one trick and one card of the next
        state.apply_action(rnd.choice(state.legal_actions()))
    engine = state.engine()
    assert isinstance(engine, TrickHand)
    first = engine.tricks[0]
    recall.set_from(state, 2)
    plain.set_from(state, 2)
    for i, card in enumerate(first.cards):
        seat = (first.leader + i) % 4
        assert recall.dict["tricks"][0, seat, card.index] == 1
        assert plain.dict["captured"][first.winner, card.index] == 1
    assert recall.dict["leaders"][0, first.leader] == 1
    assert recall.dict["leaders"][1, first.winner] == 1
    assert plain.dict["leader"][first.winner] == 1
    assert plain.dict["trick"][first.winner, engine.trick[0].index] == 1
    assert plain.dict["trick"].sum() == 1 and plain.dict["captured"].sum() == 4
    assert f"trick 2 led by {first.winner} {first.winner}:{engine.trick[0]}" in \
           state.observation_string(2)


def test_a_seat_cannot_see_the_other_hands() -> None:
    game = pyspiel.load_game("python_herzeln(contract=no-queens)")
    rnd = random.Random(12)
    a = deal(game, rnd)
    order = [a.history()[i] for i in range(32)]
    # forehand is seat 0: seat 1 is dealt cards 1, 5, 9, ... and seat 2 cards 2, 6, 10, ...
    order[1], order[2] = order[2], order[1]
    b = game.new_initial_state()
    for action in order:
        b.apply_action(action)
    assert a.record()["hands"][0] == b.record()["hands"][0]
    assert a.record()["hands"][1] != b.record()["hands"][1]
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.information_state_tensor(2) != b.information_state_tensor(2)


def test_the_bids_and_the_layout_are_observed() -> None:
    game = pyspiel.load_game("python_herzla(contract=bidding,contract_priority=mord-over-beddl)")
    state = deal(game, random.Random(13))
    state.apply_action(hos.announcement_action("herzla", "beddl"))  # seat 0 (forehand)
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    obs.set_from(state, 3)
    assert obs.dict["bids"].tolist()[0] == [0, 1, 0] and obs.dict["bids"].sum() == 1
    assert "bids 0:beddl" in state.information_state_string(3)
    game = pyspiel.load_game("python_herzerln(contract=auflegen)")
    state = deal(game, random.Random(14))
    state.apply_action(state.legal_actions()[0])  # HJ opens its row
    plain = make_observation(game)
    plain.set_from(state, 0)
    assert plain.dict["laid"][Card.from_str("HJ").index] == 1
    hearts = 2  # row keys are the suits
    assert plain.dict["ends"][hearts, 0].tolist() == [0, 0, 0, 0, 0, 0, 1, 0, 0]  # Q above
    assert plain.dict["ends"][hearts, 1].tolist() == [0, 0, 0, 0, 1, 0, 0, 0, 0]  # T below
    assert "row 2: HJ (asks Q above, T below)" in state.observation_string(0)


# -- OpenSpiel's algorithms ---------------------------------------------------------------------
def test_openspiels_mccfr_and_rl_environment_run_unchanged() -> None:
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import random_agent

    game = pyspiel.load_game("python_herzla_kids(players=3)")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(20):
        solver.iteration()
    policy = solver.average_policy()
    state = deal(game, random.Random(15))
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions()) and abs(sum(probs.values()) - 1) < 1e-9
    env = rl_environment.Environment(game, seed=3)
    agents = [random_agent.RandomAgent(player_id=p, num_actions=env.action_spec()["num_actions"])
              for p in range(3)]
    step = env.reset()
    while not step.last():
        seat = step.observations["current_player"]
        step = env.step([agents[seat].step(step).action])
    assert sum(step.rewards) == 9  # 36 cards, 3 players: every heart is captured


# -- the documentation's example -----------------------------------------------------------------
def test_the_mcts_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "docs" / "examples" / "openspiel_mcts.py"
    spec = importlib.util.spec_from_file_location("openspiel_mcts", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--hands", "2", "--simulations", "4", "--seed", "3"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Herzla, normal game, 2 hands: seat 0 MCTS (4 simulations")
    means = module.mean_cents(2, 4, 3)  # seeded: the same hands again
    assert lines[1:] == [f"seat {s}: {c:+.1f} cents a hand" for s, c in enumerate(means)]
    assert all(-80 <= c <= 240 for c in means) and any(means)


# -- the games come from their declarations ------------------------------------------------------
@pytest.mark.parametrize("game", ["herzla", "herzla-kids", "herzeln", "herzerln"])
def test_sizes_come_from_the_game(game: str) -> None:
    from herzla.contracts import LayoutContract, get_game

    g = get_game(game)
    loaded = pyspiel.load_game(hos.register(game))
    classes = g.contract_classes()
    packs = [c.default(n).pack().mask for c in classes for n in c.player_counts]
    cards = max(p.bit_length() for p in packs)
    assert loaded.max_chance_outcomes() == cards
    layout = any(issubclass(c, LayoutContract) for c in classes)
    expected = hos.PASS + len(g.bidding) if g.bidding else hos.PASS + 1 if layout else cards
    assert loaded.num_distinct_actions() == expected
    game_type = loaded.get_type()
    assert (game_type.min_num_players, game_type.max_num_players) == (
        min(g.player_counts()), max(g.player_counts()))
    words = ("pass", *g.bidding[1:]) if g.bidding else ()
    assert sorted(hos.announcement_action(game, w) for w in words) == list(
        range(hos.PASS, expected) if g.bidding else [])
    with pytest.raises(ValueError, match="not an announcement"):
        hos.announcement_action(game, "slam")


def test_a_plugin_game_registers_and_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    from herzla import contracts as registry
    from tests.test_vocabulary import Ladder, NoSpades, Solo

    monkeypatch.setattr(registry, "_registry", dict(registry._load()))
    from herzla.openspiel import game as hos_game

    games = dict(hos.GAMES)  # herzla's own again afterwards
    monkeypatch.setattr(hos_game, "GAMES", games)
    monkeypatch.setattr(hos, "GAMES", games)
    for cls in (NoSpades, Solo, Ladder):
        registry.register(cls)
    short = hos.register("test-vocab")
    assert short == "python_test_vocab" and hos.GAMES[short] == "test-vocab"
    assert short in {t.short_name for t in pyspiel.registered_games()}
    assert hos.register("test-vocab") == short  # once
    for contract, players in (("ladder", 4), ("no-spades", 3), ("solo", 4)):
        game = pyspiel.load_game(short, {"contract": contract, "players": players})
        assert game.num_distinct_actions() == hos.PASS + 1  # a layout deal: lower ends, a pass
        assert game.num_players() == players
        assert "declarer" in game.get_parameters()  # Solo has one
        rnd = random.Random(5)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rnd.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rnd.choice(state.legal_actions()))
        result = replay(Record.from_json(state.record()))
        assert result.scores is not None and list(result.scores) == state.returns()


# -- resampling information states (IS-MCTS) and bots --------------------------------------------
RESAMPLE_SPECS = ["python_herzla(contract=normal)", "python_herzla(contract=bidding)",
                  "python_herzla(contract=beddl)", "python_herzla_kids(players=5)",
                  "python_herzeln(contract=domino,players=3)", "python_herzeln(contract=domino)",
                  "python_herzerln(contract=auflegen)", "python_herzeln(contract=no-tricks)"]


def _hidden_codes(state: Any, player: int) -> set[str]:
    """The cards the other seats hold now (hidden from ``player``)."""
    hands = state._episode.hands()
    return {str(c) for s, h in enumerate(hands) if s != player for c in cards_of(h)}


@pytest.mark.parametrize("spec", RESAMPLE_SPECS)
def test_resampling_keeps_the_information_state(spec: str) -> None:
    game = pyspiel.load_game(spec)
    rnd = random.Random(spec)
    rng = np.random.default_rng(7)
    moved = 0
    tried = 0
    for trial in range(400):
        state = play(game.new_initial_state(), rnd, stop=rnd.randrange(1, 80))
        if state.is_terminal() or state.is_chance_node():
            continue
        tried += 1
        if tried > 5:
            break
        for player in range(game.num_players()):
            info = state.information_state_string(player)
            tensor = state.information_state_tensor(player)
            hidden = _hidden_codes(state, player)
            hands = state._episode.hands()
            for _ in range(3):
                other = state.resample_from_infostate(player, rng.random)
                assert other.information_state_string(player) == info
                assert other.information_state_tensor(player) == tensor
                assert other.current_player() == state.current_player()
                if player == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
                moved += other._episode.hands() != hands
                assert other._episode.hands()[player] == hands[player]
                # nothing hidden shows in the information state
                words = set(re.findall(r"\b[CSHD][AKQJT987]\b", info))
                assert not words & hidden & _hidden_codes(other, player), trial
    assert moved  # the hidden cards do change


def _chi2_limit(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at p = 0.001 (Wilson-Hilferty)."""
    return float(df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3)


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "seed"), [("python_herzla(contract=normal)", 3),
                                            ("python_herzla(contract=normal)", 11),
                                            ("python_herzeln(contract=domino,players=3)", 5)])
def test_resampling_draws_uniformly(spec: str, seed: int) -> None:
    """Late in a hand, where the consistent deals can be listed, each comes up equally often."""
    game = pyspiel.load_game(spec)
    rnd = random.Random(seed)
    for _ in range(200):
        state = play(game.new_initial_state(), rnd)
        # back up to the last position with few unseen cards
        history = state.history()
        for cut in range(len(history) - 1, 0, -1):
            state = game.new_initial_state()
            for a in history[:cut]:
                state.apply_action(a)
            if state.is_chance_node():
                continue
            player = state.current_player()
            unseen = sum(len(_hidden_codes(state, player)) for _ in [0])
            if 6 <= unseen <= 8:
                break
        else:
            continue
        deals = consistent_deals(state, player)
        if 4 <= len(deals) <= 120:
            break
    else:
        pytest.fail("no small information set found")
    draws = 40 * len(deals)
    counts = dict.fromkeys(deals, 0)
    rng = np.random.default_rng(seed)
    for _ in range(draws):
        key = tuple(state.resample_from_infostate(player, rng.random)._episode.hands())
        assert key in counts  # every draw is consistent
        counts[key] += 1
    expected = draws / len(deals)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < _chi2_limit(len(deals) - 1), (chi2, len(deals))


@pytest.mark.parametrize("spec", ["python_herzla(contract=normal)",
                                  "python_herzla(contract=bidding)",
                                  "python_herzeln(contract=no-tricks)",
                                  "python_herzeln(contract=domino)"])
def test_ismcts_plays_whole_hands_against_a_policy(spec: str) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(spec)
    rnd = random.Random(1)
    state = deal(game, rnd)
    n = game.num_players()
    bots: list[Any] = [
        ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(s)), 2.0, 8,
                         random_state=np.random.RandomState(s))
        for s in range(n)]
    bots[1] = hos.PolicyBot("heuristic")
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    record = state.record()
    answer = replay(Record.from_json(record))
    assert answer.complete and answer.illegal is None
    assert answer.scores is not None and list(answer.scores) == state.returns()


def test_an_openspiel_bot_plays_as_a_herzla_policy() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    from herzla.contracts import contract_class
    from herzla.players import policy_of
    from herzla.sim.reference import play_hand
    from herzla.support.streams import seeded_deal

    game = pyspiel.load_game("python_herzla(contract=normal)")

    def make(g: Any, seat: int) -> Any:
        return ismcts.ISMCTSBot(g, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seat)),
                                2.0, 6, random_state=np.random.RandomState(seat))

    bot = hos.bot_policy(game, make)
    normal = contract_class("herzla", "normal")()
    hands = seeded_deal(normal.pack(), 4, 8, 3)
    heuristic = policy_of("heuristic")
    state, plays = play_hand(normal, hands, 3, [5] * 32, [bot, heuristic, bot, heuristic])
    assert len(plays) == 32 and state.over
    rec = {"game": "herzla", "contract": "normal", "players": 4, "dealer": 3, "stock": 0,
           "hands": [[str(c) for c in cards_of(h)] for h in hands], "plays": plays}
    assert replay(Record.from_json(rec)).illegal is None


@pytest.mark.parametrize(("spec", "policy", "says"), [
    ("python_herzla(contract=normal)", "broken_policies:Three",
     "the policy broken_policies:Three answered 3 for a move"),
    ("python_herzla(contract=normal)", "broken_policies:Raises",
     "the policy broken_policies:Raises raised KeyError choosing a move: 'no move today'"),
    ("python_herzeln(contract=domino)", "broken_policies:LaysACard",
     "the policy broken_policies:LaysACard answered the Card "),
    ("python_herzla(contract=bidding)", "broken_policies:Shouts",
     'the policy broken_policies:Shouts announced "slam"'),
])
def test_a_policy_bot_refuses_what_is_not_a_move(plugin_path: None, spec: str, policy: str,
                                                 says: str) -> None:
    """The bots ask a policy as the engines do (herzla.players.policy.decide_move)."""
    from herzla.players import PolicyError

    game = pyspiel.load_game(spec)
    state = deal(game, random.Random(2))
    bot = hos.PolicyBot(policy)
    with pytest.raises(PolicyError, match=re.escape(says)):
        while not state.is_terminal():
            state.apply_action(bot.step(state))


# -- parameters out of range ------------------------------------------------------------------
@pytest.mark.openspiel
@pytest.mark.parametrize(("params", "says"), [
    ({"stock": 2**31}, "parameter stock: 2147483648 is beyond what an OpenSpiel parameter holds"),
    ({"heart_unit": -(2**40)}, "parameter heart_unit: -1099511627776 is beyond"),
    ({"players": -1}, "herzla normal is played by 4 players, not -1"),
    ({"players": 0, "contract": "beddl"}, "herzla beddl is played by 4 players, not 0"),
])
def test_openspiel_parameters_say_what_is_wrong(params: dict[str, Any], says: str) -> None:
    pytest.importorskip("pyspiel")
    from herzla.openspiel import HerzlaGame
    from herzla.options import OptionError

    class Game(HerzlaGame):
        game = "herzla"

    with pytest.raises(OptionError, match=re.escape(says)):
        Game(params)


@pytest.mark.openspiel
def test_openspiel_players_are_checked_before_the_dealer() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import herzla.openspiel  # noqa: F401  (registers the games)
    from herzla.options import OptionError

    with pytest.raises(OptionError, match="herzla-kids normal is played by 3, 4, 5, 6, 7 or 8 "
                                          "players, not -1"):
        pyspiel.load_game("python_herzla_kids(players=-1)")
