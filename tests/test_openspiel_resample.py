"""Resampling an OpenSpiel information state (IS-MCTS) after an escape: a seat that led or
discarded a banned heart held nothing but hearts, and the resampler deals it so, by constrained
dealing (one draw, no rejection), like the voids it has shown."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import herzla.openspiel  # noqa: E402, F401  (registers the games)
from herzla.cards import HEARTS_MASK, SUIT_MASKS, Suit, parse_cards  # noqa: E402
from herzla.hand import as_move  # noqa: E402
from herzla.players.unseen import uniform_deal  # noqa: E402
from herzla.records import Record, replay  # noqa: E402
from tests.spiel_deals import consistent_deals  # noqa: E402

pytestmark = pytest.mark.openspiel


def build(spec: str, hands: list[str], plays: list[str]) -> Any:
    """The state of ``spec`` with ``hands`` dealt (seat 0 first) and ``plays`` made."""
    state = pyspiel.load_game(spec).new_initial_state()
    setup = state._episode.setup
    left = [[c.index for c in reversed(parse_cards(h))] for h in hands]
    for k in range(setup.cards_dealt):
        state.apply_action(left[(setup.forehand + k) % setup.players].pop())
    for play in plays:
        state.apply_action(state.action_of(as_move(play)))
    return state


#: seat 1 holds every heart and is void in clubs: its discard to the heart-free first trick of
#: Herzerln's hearts is a forced heart (the position of the report: no deal fitted in 100,000
#: draws before)
FORCED_DISCARD = ("python_herzerln(contract=hearts)",
                  ["CA CK CQ CJ SA SK SQ SJ", "HA HK HQ HJ HT H9 H8 H7",
                   "CT C9 C8 C7 ST S9 S8 S7", "DA DK DQ DJ DT D9 D8 D7"],
                  ["CA", "HA", "C7", "DA"])
#: seat 1 wins trick 1 and leads a heart to trick 2 holding nothing but hearts (Herzla's lead
#: ban, its escape)
HEART_LEAD = ("python_herzla(contract=normal)",
              ["C7 C8 SA SK SQ SJ ST S9", "CA HA HK HQ HJ HT H9 H8",
               "C9 CT S8 S7 H7 DA DK DQ", "CJ CQ CK DJ DT D9 D8 D7"],
              ["C7", "CA", "C9", "CJ", "HA"])


def _draws(state: Any, player: int, count: int, seed: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    return [state.resample_from_infostate(player, rng.random) for _ in range(count)]


def _check_draw(state: Any, other: Any, player: int) -> None:
    """``other`` is a legal hand (its record replays) that ``player`` cannot tell apart."""
    answer = replay(Record.from_json(other.record()))
    assert answer.illegal is None
    assert other.information_state_string(player) == state.information_state_string(player)
    assert other.information_state_tensor(player) == state.information_state_tensor(player)
    assert other.current_player() == state.current_player()
    assert other._episode.hands()[player] == state._episode.hands()[player]


@pytest.mark.parametrize(("position", "escaper"), [(FORCED_DISCARD, 1), (HEART_LEAD, 1)])
def test_an_escaper_is_dealt_nothing_but_hearts(position: Any, escaper: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    state = build(*position)
    calls: list[int] = []

    def counted(*args: Any) -> list[int]:
        calls.append(1)
        return uniform_deal(*args)

    monkeypatch.setattr("herzla.openspiel.resample.uniform_deal", counted)
    for player in range(4):
        if player == escaper:
            continue
        calls.clear()
        draws = _draws(state, player, 40, player)
        assert len(calls) == len(draws)  # one draw each: dealt under the constraints
        for other in draws:
            _check_draw(state, other, player)
            assert other._episode.hands()[escaper] & ~HEARTS_MASK == 0


def test_the_voids_shown_still_hold_after_an_escape() -> None:
    state = build(*FORCED_DISCARD)
    for other in _draws(state, 2, 40, 5):
        hands = other._episode.hands()
        assert hands[3] & SUIT_MASKS[Suit.C] == 0  # seat 3 discarded to clubs
        assert hands[1] == state._episode.hands()[1]  # every heart left is seat 1's
    # seat 0 led and seat 2 followed: nothing rules their cards out, so they move
    assert len({other._episode.hands()[0] for other in _draws(state, 2, 40, 6)}) > 1


def test_late_in_an_escaped_hand_every_consistent_deal_is_drawn_and_no_other() -> None:
    # trick 2 led by the escaper, then played on until few cards are unseen
    plays = [*HEART_LEAD[2], "H7", "D7", "S9",  # seat 1 wins trick 2 with HA, and leads on
             "HK", "DQ", "D8", "ST", "HQ", "DK", "D9", "SJ", "HJ", "DA", "DT", "SQ",
             "HT", "CT", "DJ", "SK"]
    state = build(HEART_LEAD[0], HEART_LEAD[1], plays)
    player = 0
    deals = consistent_deals(state, player)
    assert 2 <= len(deals) <= 60
    drawn = {tuple(o._episode.hands()) for o in _draws(state, player, 30 * len(deals), 1)}
    assert drawn == deals


def test_the_opening_seat_of_auflegen_holds_the_heart_jack_in_every_draw() -> None:
    game = pyspiel.load_game("python_herzerln(contract=auflegen)")
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
    opener = state.current_player()
    for player in (s for s in range(4) if s != opener):
        for other in _draws(state, player, 20, player):
            _check_draw(state, other, player)
