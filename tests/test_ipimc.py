"""``ipimc`` and policy-based inference: the heuristic's order of preference, the exact
constraints on the unseen cards (voids, the lead bans' escapes), the likelihood weights on
hand-made positions, resampling, and the policy playing legally, deterministically and evenly
with itself."""

from __future__ import annotations

import json
import math
import random
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from herzla.analysis.inference import (
    constraints,
    draw_deals,
    likelihoods,
    log_likelihood,
    log_likelihoods,
    play_log_p,
    resample,
    weights,
)
from herzla.analysis.ipimc import Ipimc
from herzla.cards import HEARTS_MASK, SUIT_MASKS, Suit, cards_of, mask_of, parse_cards
from herzla.cli import main
from herzla.contracts import DealKind, contract_class, contract_classes, games, get_game
from herzla.contracts.base import TrickContract
from herzla.kinds.tricks import TrickHand
from herzla.players import PolicyError, TrickView, builtin_names, policy_of
from herzla.players.heuristic import heuristic_card, heuristic_order, heuristic_scores
from herzla.sim.match import match


def _hands(*texts: str) -> list[int]:
    return [mask_of(parse_cards(t)) for t in texts]


def _trick_contracts() -> list[TrickContract]:
    out = []
    for game in games():
        for cls in contract_classes(game):
            if cls.kind is not DealKind.TRICKS:
                continue
            for players in cls.player_counts:
                for declarer in (range(players) if cls.needs_declarer else [None]):
                    c = cls(players, None, declarer)
                    assert isinstance(c, TrickContract)
                    out.append(c)
    return out


def _random_state(contract: TrickContract, rng: random.Random, moves: int) -> TrickHand:
    pack = list(contract.pack().cards)
    rng.shuffle(pack)
    size = len(pack) // contract.players
    hands = [mask_of(pack[s * size:(s + 1) * size]) for s in range(contract.players)]
    state = TrickHand(contract, hands, rng.randrange(contract.players))
    for _ in range(moves):
        if state.over:
            break
        legal = cards_of(state.legal_mask())
        state.play(heuristic_card(state) if rng.random() < 0.5 else rng.choice(legal))
    return state


# -- the heuristic's order of preference --------------------------------------------------------

def test_the_heuristic_order_is_what_each_rule_chooses_next() -> None:
    """With its first choices taken out of the hand, the heuristic plays the next card of its
    order (so long as the seat still leads, follows or discards as before), in every contract."""
    rng = random.Random(3)
    checked = 0
    for contract in _trick_contracts():
        for _ in range(12):
            state = _random_state(contract, rng, rng.randrange(3 * contract.players * 2))
            if state.over:
                continue
            order = heuristic_order(state)
            assert sorted(order, key=lambda c: c.index) == cards_of(state.legal_mask())
            scores = heuristic_scores(state)
            assert max(scores, key=lambda c: scores[c]) == order[0] == heuristic_card(state)
            seat = state.turn
            led = state.trick[0].suit if state.trick else None
            follows = led is not None and bool(state.hands[seat] & SUIT_MASKS[led])
            for i in range(1, len(order)):
                cut = state.copy()
                for c in order[:i]:
                    cut.hands[seat] &= ~c.bit
                if led is not None and bool(cut.hands[seat] & SUIT_MASKS[led]) != follows:
                    break
                if cut.legal_mask() != state.legal_mask() & ~mask_of(order[:i]):
                    break  # a ban's escape changed what is legal
                assert heuristic_card(cut) == order[i], (contract, i)
                checked += 1
    assert checked > 500


# -- what the seat knows for sure -----------------------------------------------------------------

def _normal() -> TrickContract:
    c = contract_class("herzla", "normal")()
    assert isinstance(c, TrickContract)
    return c


NORMAL = _normal()


def _discard_position() -> TrickHand:
    """Seat 0 leads C7 holding every club; seat 1, void, sheds SA; seat 2 is to play."""
    hand = TrickHand(NORMAL, _hands("C7 C8 C9 CT CJ CQ CK CA", "SA S9 S8 DA DK DQ DJ DT",
                                    "S7 ST SJ SQ SK H7 H8 H9", "HA HK HQ HJ HT D9 D8 D7"), 3)
    for code in ("C7", "SA"):
        hand.play(code)
    return hand


def test_a_void_shown_is_kept_exactly() -> None:
    view = TrickView.of(_discard_position())
    unseen = constraints(view)
    at = unseen.holders.index(1)
    clubs = SUIT_MASKS[Suit.C] & NORMAL.pack().mask
    assert unseen.forbidden[at] & clubs == clubs
    for deal in draw_deals(view, random.Random(1), 50):
        assert not deal[1] & SUIT_MASKS[Suit.C] & ~view.played()
        assert deal[view.seat] == mask_of(parse_cards("S7 ST SJ SQ SK H7 H8 H9"))


def test_a_heart_led_under_the_ban_means_nothing_but_hearts() -> None:
    """Seat 1 wins trick 1 and leads a heart to trick 2, where hearts may not be led while a
    seat holds other cards: it holds nothing but hearts, in every deal drawn."""
    hand = TrickHand(NORMAL, _hands("C7 C8 C9 S7 S8 S9 D7 D8", "CA HA HK HQ HJ HT H9 H8",
                                    "CT CJ SA SK DA DK DQ H7", "CQ CK ST SJ SQ DJ DT D9"), 3)
    for code in ("C7", "CA", "CT", "CQ", "HA"):
        hand.play(code)
    view = TrickView.of(hand)  # seat 2
    unseen = constraints(view)
    assert unseen.forbidden[unseen.holders.index(1)] == NORMAL.pack().mask & ~HEARTS_MASK
    deals = draw_deals(view, random.Random(2), 40)
    for deal in deals:
        assert deal[1] & ~view.played() & ~HEARTS_MASK == 0
        assert log_likelihood(view, deal, 1.0) > -math.inf  # every play legal on it


def test_pimc_answers_after_a_heart_led_under_the_ban() -> None:
    """The same position for ``pimc``: its quick draw (voids, then a check that every play was
    legal) all but never gives seat 1 nothing but hearts, so it draws exactly then, and it
    answers with a legal card instead of raising (a match of expert and pimc once stopped so:
    the solver refused the deal on which seat 1's heart lead was illegal)."""
    import numpy as np

    from herzla.analysis.pimc import Pimc, sample_hands

    hand = TrickHand(NORMAL, _hands("C7 C8 C9 S7 S8 S9 D7 D8", "CA HA HK HQ HJ HT H9 H8",
                                    "CT CJ SA SK DA DK DQ H7", "CQ CK ST SJ SQ DJ DT D9"), 3)
    for code in ("C7", "CA", "CT", "CQ", "HA"):
        hand.play(code)
    view = TrickView.of(hand, uniform=1)  # seat 2
    gen = np.random.default_rng(5)
    for _ in range(3):
        deal = sample_hands(view, gen)
        assert deal[1] & ~view.played() & ~HEARTS_MASK == 0  # nothing but hearts
        assert deal[view.seat] == hand.hands[2] | mask_of(parse_cards("CT"))
        assert log_likelihood(view, deal, 1.0) > -math.inf  # every play legal on it
    for pimc in (Pimc(), Pimc(samples=2, tricks=8)):
        assert pimc.move(view).card in cards_of(view.legal)


def test_every_deal_drawn_makes_every_play_legal() -> None:
    rng = random.Random(5)
    for contract in _trick_contracts()[::3]:
        for _ in range(4):
            state = _random_state(contract, rng, rng.randrange(4, 5 * contract.players))
            if state.over:
                continue
            view = TrickView.of(state)
            for deal in draw_deals(view, rng, 6):
                replay = contract.new_hand(deal, state.dealer)
                for _, card in view.plays():
                    assert replay.check(card) is None
                    replay.play(card)
                assert replay.hands[view.seat] == state.hands[view.seat]


# -- the likelihood of the plays --------------------------------------------------------------

def test_shedding_a_spade_with_hearts_in_hand_is_unlikely() -> None:
    """Seat 1 shed SA on a club lead.  The heuristic sheds its highest heart first, so a deal in
    which seat 1 held four hearts puts SA fifth in its order: weight exp(-4 / temperature) of
    the deal in which it held none (every other play the same)."""
    hand = _discard_position()
    view = TrickView.of(hand)
    no_hearts = list(hand.dealt)
    hearts = _hands("C7 C8 C9 CT CJ CQ CK CA", "SA S9 S8 DA HA HK HQ HJ",
                    "S7 ST SJ SQ SK H7 H8 H9", "DK DQ DJ DT HT D9 D8 D7")
    for temperature in (0.5, 1.0, 3.0):
        w = weights(view, [no_hearts, hearts], temperature)
        assert w[0] == 1.0
        assert w[1] == pytest.approx(math.exp(-4 / temperature))
        # the probability of the plays itself: SA first of 8 cards, C7 first of 8
        z = sum(math.exp(-j / temperature) for j in range(8))
        assert log_likelihood(view, no_hearts, temperature) == pytest.approx(-2 * math.log(z))


def test_the_likelihoods_read_at_once_are_the_replayed_ones() -> None:
    """``log_likelihoods`` (one replay, a count of bits a play) gives every deal the number
    the replay of the hand gives it, in every trick contract: the deals that keep the
    constraints, the true one, and deals on which some play was not legal (-inf)."""
    rng = random.Random(11)
    seen = finite = impossible = 0
    for contract in _trick_contracts():
        for _ in range(2):
            state = _random_state(contract, rng, rng.randrange(1, 6 * contract.players))
            if state.over:
                continue
            view = TrickView.of(state)
            pack = list(contract.pack().cards)
            shuffled = []
            for _k in range(2):  # any cards at all: most make some play illegal
                rng.shuffle(pack)
                size = len(pack) // contract.players
                shuffled.append([mask_of(pack[s * size:(s + 1) * size])
                                 for s in range(contract.players)])
            deals = [*draw_deals(view, rng, 4), list(state.dealt), *shuffled]
            for temperature, doubt in ((0.3, 0.0), (0.5, 0.4)):
                fast = log_likelihoods(view, deals, temperature, doubt)
                slow = [log_likelihood(view, d, temperature, doubt) for d in deals]
                assert fast == pytest.approx(slow, abs=1e-9)
                seen += len(fast)
                finite += sum(x > -math.inf for x in fast)
                impossible += sum(x == -math.inf for x in fast)
    assert seen > 800 and finite > 400 and impossible > 80


def test_doubt_caps_what_a_play_off_the_heuristic_costs_a_deal() -> None:
    """With ``doubt`` a seat plays any legal card alike that share of the time: a deal on which
    seat 1 shed SA with four hearts in hand (SA fifth of its eight cards) keeps the weight
    ((1 - d) e^-4 / z + d / 8) / ((1 - d) / z + d / 8) instead of e^-4, and a play's
    probabilities still add up to 1."""
    hand = _discard_position()
    view = TrickView.of(hand)
    hearts = _hands("C7 C8 C9 CT CJ CQ CK CA", "SA S9 S8 DA HA HK HQ HJ",
                    "S7 ST SJ SQ SK H7 H8 H9", "DK DQ DJ DT HT D9 D8 D7")
    z = sum(math.exp(-j) for j in range(8))
    for doubt in (0.0, 0.3, 0.9):
        w = weights(view, [list(hand.dealt), hearts], 1.0, doubt)
        want = ((1 - doubt) * math.exp(-4) / z + doubt / 8) / ((1 - doubt) / z + doubt / 8)
        assert w == pytest.approx([1.0, want])
        for m in (2, 5, 8):
            assert sum(math.exp(play_log_p(k, m, 0.4, doubt)) for k in range(m)) == \
                pytest.approx(1.0)
    assert weights(view, [list(hand.dealt), hearts], 1.0, 1.0) == [1.0, 1.0]


def test_weighted_deals_put_seat_1s_hearts_elsewhere() -> None:
    view = TrickView.of(_discard_position())
    deals = draw_deals(view, random.Random(7), 400)

    def with_hearts(w: list[float]) -> float:
        return sum(x for d, x in zip(deals, w, strict=True) if d[1] & HEARTS_MASK) / sum(w)

    # seat 1 holds 7 of the 15 unseen cards that are not clubs, 5 of them hearts: all 7 from the
    # other 10 in C(10, 7) / C(15, 7) of the deals, under 2%
    uniform = with_hearts([1.0] * len(deals))
    assert uniform > 0.95
    # a cold model believes the heuristic (which would have shed a heart); a warm one less
    # (each heart held costs a factor exp(-1 / temperature), outweighed by how many more deals
    # hold one); a hot one hardly at all
    cold, warm, hot = (with_hearts(likelihoods(view, deals, t)) for t in (0.1, 0.5, 1000.0))
    assert cold < 0.01 < warm < 0.8 < hot


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 10), min_size=1, max_size=30), st.integers(1, 40),
       st.floats(0, 0.999))
@example(w=[5e-324, 5e-324], count=10, u=0.0)  # subnormal weights: drew 3 and 7
def test_resampling_draws_in_proportion(w: list[float], count: int, u: float) -> None:
    if sum(w) == 0:
        w = [1.0] * len(w)
    drawn = resample(w, count, u)
    assert sum(t for _, t in drawn) == count
    assert [i for i, _ in drawn] == sorted({i for i, _ in drawn})
    total = sum(w)
    for i, times in drawn:
        assert w[i] > 0
        assert abs(times - count * w[i] / total) < 2  # systematic: off by less than one each way


def test_equal_weights_draw_different_deals() -> None:
    assert resample([1.0] * 32, 8, 0.3) == [(i, 1) for i in range(1, 32, 4)]


# -- the policy -------------------------------------------------------------------------------

def test_ipimc_is_named_and_checked() -> None:
    assert "ipimc" in builtin_names()
    p = policy_of("ipimc[samples=3,temperature=0.25,candidates=10]")
    assert isinstance(p, Ipimc)
    assert (p.samples, p.temperature, p.candidates) == (3, 0.25, 10)
    assert p.spec() == "ipimc[samples=3,temperature=0.25,candidates=10]"
    for text, message in [("ipimc[temperature=0]", "temperature must be 0.01 to 1000"),
                          ("ipimc[candidates=0]", "candidates must be 1 to 100000"),
                          ("ipimc[temperature=hot]", "not a number"),
                          ("ipimc[depth=1]", 'no parameter "depth"')]:
        with pytest.raises(PolicyError, match=message):
            policy_of(text)


def test_ipimc_is_deterministic_for_a_seed() -> None:
    hand = TrickHand(NORMAL, _hands("CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
                                    "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"), 3)
    for code in ("C7", "CA", "C8", "C9", "SK", "S7", "S8", "S9", "DK"):
        hand.play(code)
    view = TrickView.of(hand, uniform=11)
    p = Ipimc(samples=3, tricks=8)
    deals = p.deals(view, _rng(view))
    assert deals == p.deals(view, _rng(view))
    assert sum(t for _, t in deals) == 3
    assert p.move(view).card == p.move(view).card and p.move(view).card in cards_of(view.legal)


def _rng(view: TrickView) -> Any:
    import numpy as np

    return np.random.default_rng([view.uniform, 0, view.seat, len(view.plays())])


def _simulate(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["simulate", *args, "--no-progress", "--json"])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    del out["elapsed_s"], out["hands_per_s"]
    return out


def test_ipimc_plays_legally_and_the_same_for_a_seed() -> None:
    args = ("herzla", "--contract", "normal", "--policy",
            "ipimc[samples=2,tricks=3],heuristic,pimc[samples=2,tricks=3],random",
            "--engine", "reference", "--hands", "2", "--seed", "3")
    first = _simulate(*args)
    assert first == _simulate(*args)
    assert set(first["checks"].values()) == {0}


def test_ipimc_ties_itself_in_a_duplicate_match() -> None:
    res = match("herzla", ["ipimc[samples=2,tricks=3]", "ipimc[tricks=3,samples=2]"],
                contract="normal", deals=3, seed=2, jobs=1)
    pair = res.pairs[0]
    assert pair.diff == 0 and pair.ci95 == (0.0, 0.0)


def _cases() -> list[Any]:
    out: list[Any] = [pytest.param(["herzla", "--contract", "normal"], "ipimc[samples=2,tricks=4]",
                                   "2", id="herzla-normal-fast")]
    for game in games():
        for cls in contract_classes(game):
            for players in sorted({cls.player_counts[0], cls.player_counts[-1]}):
                args = [game, "--contract", cls.id, "--players", str(players)]
                if cls.needs_declarer:
                    args += ["--declarer", "1"]
                out.append(pytest.param(args, "ipimc[samples=2]", "5",
                                        id=f"{game}-{cls.id}-{players}", marks=pytest.mark.slow))
        # the game's default: the bidding, or whole parties (of 6 or 8 deals)
        parties = get_game(game).partie > 0
        out.append(pytest.param([game], "ipimc[samples=2]", "1" if parties else "5",
                                id=f"{game}-default", marks=pytest.mark.slow))
    return out


@pytest.mark.parametrize(("args", "policy", "hands"), _cases())
def test_ipimc_plays_legally_everywhere(args: list[str], policy: str, hands: str) -> None:
    """Every game, every contract, the fewest and the most players, and each game's default
    (the bidding, whole parties): the reference engine checks every move."""
    out = _simulate(*args, "--policy", policy, "--engine", "reference", "--hands", hands,
                    "--seed", "1")
    assert out["hands"] == int(hands)
    assert set(out["checks"].values()) <= {0}
