"""The play policies: the heuristic's rules on hand-made states, and the batch engine's bit-level
policies making the same choice as the scalar ones in the same state (random states reached by
random play, so states the heuristic itself would avoid are covered too)."""

from __future__ import annotations

import functools
import json
import operator
import random
import re
from typing import Any

import attrs
import numpy as np
import pytest
from click.testing import CliRunner, Result
from hypothesis import given, settings
from hypothesis import strategies as st

from herzla.analysis.pimc import Pimc, sample_hands
from herzla.cards import SUIT_MASKS, Card, cards_of, mask_of, parse_cards
from herzla.cli import main
from herzla.contracts import contract_class, contract_classes
from herzla.contracts.base import Contract, LayoutContract, TrickContract
from herzla.hand import PASS, Move
from herzla.kinds.layout import LayoutHand
from herzla.kinds.tricks import TrickHand
from herzla.players import (
    LayoutView,
    Policy,
    PolicyError,
    TrickView,
    builtin_names,
    policy_of,
    seat_policies,
    split_policies,
)
from herzla.players.bidding import bidding
from herzla.players.heuristic import (
    announce,
    heuristic_card,
    heuristic_lay,
    heuristic_move,
    random_card,
    random_lay,
    sure_winners,
    trick_profile,
)
from herzla.sim import batch, reference
from herzla.sim.api import simulate
from herzla.sim.batch import batch_form_of, bid_hands
from herzla.sim.batch.bits import bits_of
from herzla.sim.batch.builtin import choose_lays, heuristic_cards, random_cards
from herzla.sim.batch.profiles import BitProfile
from herzla.sim.batch.rows import LayoutSetup
from herzla.sim.reference import play_hand
from herzla.sim.spec import DealSpec
from herzla.support.streams import pick
from tests.shares import some_in_default


def _hands(*texts: str) -> list[int]:
    return [mask_of(parse_cards(t)) for t in texts]


def _play(state: TrickHand, codes: str) -> None:
    for code in codes.split():
        card = Card.from_str(code)
        assert state.check(card) is None, code
        state.play(card)


def _trick(game: str, cid: str, declarer: int | None = None) -> TrickContract:
    rules = contract_class(game, cid)(declarer=declarer)
    assert isinstance(rules, TrickContract)
    return rules


HANDS = _hands("CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
               "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")


def test_pick_is_floor_u_times_m() -> None:
    assert [pick(r, 3) for r in (0, 2**32 // 3, 2**32 // 3 + 1, 2**32 - 1)] == [0, 0, 1, 2]
    state = TrickHand(_trick("herzla", "normal"), HANDS, dealer=3)
    legal = cards_of(state.legal_mask())  # hearts may not be led: 8 cards less none
    assert [str(random_card(state, r)) for r in (0, 2**32 - 1)] == [str(legal[0]),
                                                                   str(legal[-1])]


def test_heuristic_ducks_and_sheds_hearts() -> None:
    state = TrickHand(_trick("herzla", "normal"), HANDS, dealer=3)
    assert str(heuristic_card(state)) == "C7"  # lead low, no heart
    _play(state, "C7")
    assert str(heuristic_card(state)) == "CK"  # seat 1 cannot duck under C7: lowest club
    _play(state, "CA C8")
    assert str(heuristic_card(state)) == "C9"  # duck: the highest club below the ace
    _play(state, "C9")  # seat 1 won; it leads
    _play(state, "SA ST SJ SQ D7 DT D8 DQ")  # seat 0 won the diamonds with DQ
    _play(state, "CT CK")
    assert str(heuristic_card(state)) == "HA"  # seat 2, void in clubs: the highest heart


def test_heuristic_profiles() -> None:
    beddl = _trick("herzla", "beddl", declarer=1)
    mord = _trick("herzla", "mord", declarer=0)
    assert trick_profile(beddl, 1).follow == "duck"
    assert trick_profile(beddl, 2).follow == "low"
    assert trick_profile(mord, 0) == trick_profile(mord, 3)
    state = TrickHand(mord, HANDS, dealer=3)
    assert str(heuristic_card(state)) == "CQ"  # Mord: lead the highest card (lowest suit)
    every = _trick("herzeln", "every-trick")
    state = TrickHand(every, HANDS, dealer=3)
    _play(state, "C7")
    assert str(heuristic_card(state)) == "CA"  # try to win: the highest card
    _play(state, "CA")
    assert str(heuristic_card(state)) == "C8"  # cannot beat the ace: the lowest
    _play(state, "C8")
    assert str(heuristic_card(state)) == "C9"


def test_bidding_heuristic() -> None:
    rules = contract_class("herzla", "normal")()
    nearly = mask_of(parse_cards("CA CK CQ SA SK HA DA D7"))
    assert sure_winners(nearly, rules) == 7
    assert announce(nearly, rules) == "pass"
    strong = mask_of(parse_cards("CA CK CQ CJ SA SK HA DA"))
    assert sure_winners(strong, rules) == 8
    assert announce(strong, rules) == announce(strong, rules, forehand=False) == "mord"
    clubs = mask_of(parse_cards("CA CK CQ CJ CT C9 C8 SA"))
    assert announce(clubs, rules) == "mord"  # forehand leads its clubs
    assert announce(clubs, rules, forehand=False) == "pass"  # a red suit may be led first
    run = mask_of(parse_cards("CA CK CQ CJ C7 SA HA D7"))  # the others' 3 clubs fall: C7 wins
    assert sure_winners(run, rules) == 7 and announce(run, rules) == "pass"
    assert announce(HANDS[3], rules) == "beddl"
    hands = [HANDS[0], HANDS[3], HANDS[1], HANDS[2]]
    assert bidding(hands, 3, rules)[1] == 1
    assert bidding([HANDS[0], HANDS[3], HANDS[1], clubs], 2, rules) == ("mord", 3)
    late = bidding([HANDS[0], HANDS[3], HANDS[1], strong], 3, rules)
    assert late == ("beddl", 1)
    priority = contract_class("herzla", "normal")(options={"contract_priority": "mord-over-beddl"})
    assert bidding([HANDS[0], HANDS[3], HANDS[1], strong], 3, priority) == ("mord", 3)
    ace_ten = contract_class("herzla", "normal")(options={"rank_order": "ace-ten"})
    assert announce(mask_of(parse_cards("CQ CJ C9 S8 S7 HQ H9 DJ")), ace_ten) == "beddl"
    assert announce(mask_of(parse_cards("CT CJ C9 S8 S7 HQ H9 DJ")), ace_ten) == "pass"


# -- the batch engine's policies in single states ---------------------------------------------

def batch_card(state: TrickHand, r: int | None) -> Card:
    """The batch engine's choice in this state (random with uniform ``r``, else heuristic)."""
    rules = state.contract
    bits = bits_of(rules.pack(), rules.rank_order())
    dt = bits.dtype
    legal = np.array([bits.mask_of_indices(state.legal_mask())], dtype=dt)
    if r is not None:
        out = random_cards(bits, legal, np.array([r * 2.0**-32]))
        return bits.card_of_mask(int(out[0]))
    prof = BitProfile.of(trick_profile(rules, state.turn), bits)
    follows = top = None
    if state.trick:
        led = state.trick[0].suit
        follows = np.array([bool(state.hands[state.turn] & SUIT_MASKS[led])])
        winner = state.current_winner()
        assert winner is not None
        card = state.trick[(winner - state.leader) % state.players]
        top = np.array([bits.mask([card])], dtype=dt)
    out = heuristic_cards(bits, [(prof, None)], len(state.trick), state.players, legal,
                          follows, top)
    return bits.card_of_mask(int(out[0]))


def batch_lay(state: LayoutHand, r: int | None) -> Move | None:
    rules = state.contract
    bits = bits_of(rules.pack(), rules.rank_order())
    setup = LayoutSetup.of(rules, bits)
    dt = bits.dtype
    hand = state.hands[state.turn]
    plus = minus = unopened = 0
    for c in cards_of(hand):
        ends = state.fits(c)
        if "+" in ends:
            plus |= bits.mask([c])
        if "-" in ends:
            minus |= bits.mask([c])
    f_up = f_down = 0
    if setup.any_suit:
        jacks = setup.ranks[setup.jack]
        if 0 in state.rows:
            low, high = state.rows[0]
            f_up, f_down = setup.ranks[(high + 1) % setup.n], setup.ranks[(low - 1) % setup.n]
        else:
            f_up = unopened = jacks
    else:
        for c in cards_of(rules.pack().mask):
            rows = rules.declaration.rows
            if c.rank == rows.opening and rows.row_of(c) not in state.rows:
                unopened |= bits.mask([c])
    u = None if r is None else np.array([r * 2.0**-32])
    arr = [np.array([m], dtype=dt) for m in (bits.mask_of_indices(hand), plus, minus, f_up,
                                             f_down, unopened)]
    card, at_minus = choose_lays(setup, arr[0], arr[1], arr[2], arr[3], arr[4], arr[5], u)
    if not card[0]:
        return None
    return Move(bits.card_of_mask(int(card[0])), "-" if at_minus[0] else "+")


def _contract(game: str, cid: str, players: int, options: dict[str, Any],
              declarer: int) -> Contract:
    cls = contract_class(game, cid)
    return cls(players, options, declarer if cls.needs_declarer else None)


def _deal(rules: Contract, rng: random.Random) -> list[int]:
    cards = rules.pack().cards
    rng.shuffle(cards)
    h = rules.hand_size
    return [mask_of(cards[s * h:(s + 1) * h]) for s in range(rules.players)]


TRICK_CASES = [("herzla", c.id, 4) for c in contract_classes("herzla")] + [
    ("herzla-kids", "normal", p) for p in (3, 4, 5, 8)] + [
    (g, c.id, p) for g in ("herzeln", "herzerln") for c in contract_classes(g)
    if c.kind == "tricks" for p in (3, 4)]


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(TRICK_CASES), seed=st.integers(0, 2**32),
       ace_ten=st.booleans(), declarer=st.integers(0, 3), dealer=st.integers(0, 7))
def test_batch_trick_policies_agree(case: tuple[str, str, int], seed: int, ace_ten: bool,
                                    declarer: int, dealer: int) -> None:
    game, cid, players = case
    options = {"rank_order": "ace-ten"} if ace_ten and game == "herzla" else {}
    rules = _contract(game, cid, players, options, declarer % players)
    assert isinstance(rules, TrickContract)
    rng = random.Random(seed)
    state = TrickHand(rules, _deal(rules, rng), dealer % players)
    while not state.over:
        assert heuristic_card(state) == batch_card(state, None)
        r = rng.getrandbits(32)
        card = random_card(state, r)
        assert card == batch_card(state, r)
        state.play(card)


LAYOUT_CASES = [("herzeln", "domino", p, o) for p in (3, 4) for o in (
    {}, {"domino_suits": "same-suit"}, {"domino_suits": "same-suit", "domino_wrap": False})] + [
    ("herzerln", "auflegen", p, {}) for p in (3, 4)]


@settings(max_examples=30, deadline=None)
@given(case=st.sampled_from(LAYOUT_CASES), seed=st.integers(0, 2**32),
       dealer=st.integers(0, 3))
def test_batch_layout_policies_agree(case: tuple[str, str, int, dict[str, Any]], seed: int,
                                     dealer: int) -> None:
    game, cid, players, options = case
    rules = _contract(game, cid, players, options, 0)
    assert isinstance(rules, LayoutContract)
    rng = random.Random(seed)
    state = LayoutHand(rules, _deal(rules, rng), dealer % players)
    while not state.over:
        assert heuristic_lay(state) == batch_lay(state, None)
        r = rng.getrandbits(32)
        lay = random_lay(state, r)
        assert lay == batch_lay(state, r)
        state.play(PASS if lay is None else lay)


@pytest.mark.parametrize("options", some_in_default([{}, {"rank_order": "ace-ten"},
                                     {"contract_priority": "mord-over-beddl"}], every=3))
def test_batch_bidding_agrees(options: dict[str, Any]) -> None:
    rules = contract_class("herzla", "normal")(4, options)
    bits = bits_of(rules.pack(), rules.rank_order())
    rng = random.Random(3)
    deals = [_deal(rules, rng) for _ in range(1000)]
    strong = [mask_of(parse_cards(h)) for h in ("CA CK CQ CJ SA SK HA DA",
                                                 "CA CK CQ CJ CT C9 C8 SA")]
    weak = mask_of(parse_cards("CJ CT C9 S8 S7 H9 DJ D8"))
    for i in range(0, 1000, 25):  # make sure both announcements and both priorities happen
        deals[i][i % 4] = strong[i // 25 % 2]
        deals[i][(i + 1 + i // 50 % 3) % 4] = weak
    for dealer in range(4):
        hands = [np.array([bits.mask_of_indices(d[s]) for d in deals], dtype=bits.dtype)
                 for s in range(4)]
        code, decl = bid_hands(bits, rules, hands, (dealer + 1) % 4)
        for i, d in enumerate(deals):
            contract_id, declarer = bidding(d, dealer, rules)
            assert ("normal", "beddl", "mord")[code[i]] == contract_id
            assert (None if code[i] == 0 else int(decl[i])) == declarer


# -- the policy interface: views, naming, plug-ins ---------------------------------------------



@attrs.frozen
class Spy(Policy):
    """Plays like the heuristic, checking each view against the true state it is handed."""

    name = "spy"
    seen: list[Any] = attrs.field(factory=list, eq=False)

    def move(self, view: TrickView | LayoutView) -> Move:
        self.seen.append(view)
        return heuristic_move(view)


@pytest.mark.parametrize(("game", "cid"), [("herzla", "normal"), ("herzla", "beddl"),
                                          ("herzeln", "no-hearts"), ("herzeln", "domino"),
                                          ("herzerln", "auflegen"), ("herzla-kids", "normal")])
def test_a_policy_sees_its_view_not_the_deal(game: str, cid: str) -> None:
    cls = contract_class(game, cid)
    contract = cls(cls.player_counts[0], {}, 0 if cls.needs_declarer else None)
    pack = contract.pack()
    rng = random.Random(5)
    for _ in range(5):
        cards = list(pack.cards)
        rng.shuffle(cards)
        size = contract.hand_size
        hands = [mask_of(cards[s * size:(s + 1) * size]) for s in range(contract.players)]
        spy = Spy()
        _, plays = play_hand(contract, hands, contract.players - 1, [7] * 200, spy)
        _, heur_plays = play_hand(contract, hands, contract.players - 1, [7] * 200,
                                     "heuristic")
        assert plays == heur_plays  # the view holds all the heuristic needs
        assert spy.seen
        for view in spy.seen:
            assert not hasattr(view, "hands")
            if isinstance(view, TrickView):
                assert view.legal and view.legal & ~view.hand == 0
                assert view.hand & view.played() == 0
                # cards played by whom: exactly the cards the seats lost
                for seat, card in view.plays():
                    assert hands[seat] >> card.index & 1
                # voids shown are real: the seat holds none of the suit now
                for seat, suits in enumerate(view.voids()):
                    if seat == view.seat:
                        for s in suits:
                            assert not view.hand & SUIT_MASKS[s]
            else:
                assert view.legal_moves() == [m for m in view.legal_moves()
                                              if view.hand >> m.card.index & 1]
                assert sum(view.counts) + sum(1 for _, m in view.history if m) == \
                    sum(h.bit_count() for h in hands)


def test_policy_names_and_parameters() -> None:
    assert set(builtin_names()) >= {"random", "heuristic", "pimc"}
    p = policy_of("pimc[samples=3, seed=9]")
    assert isinstance(p, Pimc) and (p.samples, p.seed) == (3, 9)
    assert p.spec() == "pimc[samples=3,seed=9]"
    assert policy_of(p.spec()) == p
    assert split_policies("pimc[samples=3,seed=1],random") == ["pimc[samples=3,seed=1]",
                                                              "random"]
    assert [q.name for q in seat_policies("heuristic", 3)] == ["heuristic"] * 3
    for bad, match in [('nobody', 'unknown policy "nobody"'),
                       ('pimc[depth=3]', 'has no parameter "depth"'),
                       ("pimc[samples=many]", "not a whole number"),
                       ("pimc[samples=0]", "samples must be 1 to 10000"),
                       ("no_such_module_x:POLICY", "cannot import no_such_module_x"),
                       ("herzla.cards:Card", "is not a herzla policy"),
                       ("pimc[samples=3", "parameters go in brackets")]:
        with pytest.raises(PolicyError, match=re.escape(match)):
            policy_of(bad)
    with pytest.raises(PolicyError, match="3 policies for 4 seats"):
        seat_policies("random,random,random", 4)


def test_only_built_in_batch_forms_and_engines_are_registered() -> None:
    """A name nothing implements is an error everywhere: the engines take the policy's batch
    form, never its name."""
    assert batch_form_of(policy_of("random")) is not None
    assert batch_form_of(policy_of("heuristic")) is not None
    assert batch_form_of(policy_of("pimc")) is None
    with pytest.raises(ValueError, match="unknown policy"):  # before either engine sees it
        DealSpec.of("herzla", "normal", 4, 3, policy="tricky")
    spec = DealSpec.of("herzla", "normal", 4, 3, policy="heuristic")
    assert spec.policies == (policy_of("heuristic"),) * 4
    assert (batch.play_block(spec, 1, (0, 0), 3).scores
            == reference.play_block(spec, 1, (0, 0), 3).scores).all()


def test_a_built_in_policy_names_its_batch_form_and_the_batch_engine_maps_it() -> None:
    """The built-in policies return a descriptor (the players sit below the simulator); the
    batch engine maps its type to the form.  A subclass that chooses otherwise has none."""
    from herzla.players import BuiltinForm
    from herzla.players.builtin import HeuristicForm, HeuristicPolicy, RandomForm

    assert policy_of("random").batch_form() == RandomForm()
    assert policy_of("heuristic").batch_form() == HeuristicForm()
    assert batch_form_of(policy_of("random")) is batch.RANDOM
    assert batch_form_of(policy_of("heuristic")) is batch.HEURISTIC

    class Renamed(HeuristicPolicy):  # the heuristic's choices under another name
        name = "renamed"

    class Bolder(HeuristicPolicy):  # a choice of its own: no batch form
        def move(self, view: TrickView | LayoutView) -> Move:
            return view.legal_moves()[-1]

    assert batch_form_of(Renamed()) is batch.HEURISTIC
    assert Bolder().batch_form() is None and batch_form_of(Bolder()) is None

    class Unknown(BuiltinForm):
        pass

    class Odd(Policy):
        def move(self, view: TrickView | LayoutView) -> Move:
            return view.legal_moves()[0]

        def batch_form(self) -> BuiltinForm:
            return Unknown()

    assert batch_form_of(Odd()) is None  # a descriptor the batch engine does not hold


def _cli(*args: str) -> Result:
    return CliRunner().invoke(main, ["simulate", *args, "--no-progress"])


def _json_without_timing(result: Result) -> dict[str, Any]:
    assert result.exit_code == 0, result.output
    obj: dict[str, Any] = json.loads(result.stdout)
    del obj["elapsed_s"], obj["hands_per_s"]
    return obj


@pytest.mark.parametrize("policy", ["house", "house_policy:POLICY",
                                    "house_policy:POLICY[spare=true],heuristic,random,house"])
def test_third_party_policy_plays_on_both_engines(plugin_path: None, policy: str) -> None:
    batch_run = _cli("herzla", "--hands", "120", "--seed", "3", "--policy", policy,
                     "--engine", "batch", "--json")
    ref_run = _cli("herzla", "--hands", "120", "--seed", "3", "--policy", policy,
                   "--engine", "reference", "--json")
    assert _json_without_timing(batch_run) == _json_without_timing(ref_run)
    assert "has no batch form: the reference engine plays it" in batch_run.stderr
    assert "batch form" not in ref_run.stderr
    assert _json_without_timing(batch_run)["policy"] == policy


@pytest.mark.parametrize(("game", "extra"), some_in_default([("herzla", ()),
                                                             ("herzla", ("-c", "normal")),
                                             ("herzla", ("-c", "mord")),
                                             ("herzla-kids", ("-p", "5")),
                                             # whole parties: the slow set
                                             pytest.param("herzeln", (), marks=pytest.mark.slow),
                                             pytest.param("herzerln", (), marks=pytest.mark.slow),
                                             ("herzerln", ("-c", "auflegen")),
                                             ("herzeln", ("-c", "domino"))],
                                                            kind=lambda case: case[0]))
@pytest.mark.parametrize("policy", [pytest.param("random", marks=pytest.mark.slow), "heuristic",
                                    "heuristic,random,random,heuristic"])
def test_both_engines_give_the_same_json(game: str, extra: tuple[str, ...], policy: str) -> None:
    """Every built-in policy with a batch form, alone or one a seat, in every game."""
    players = 5 if "-p" in extra else 4
    if "," in policy:
        policy = ",".join(split_policies(policy) + ["random"] * (players - 4))
    runs = [_json_without_timing(_cli(game, *extra, "--hands", "150", "--seed", "11",
                                      "--policy", policy, "--engine", e, "--json"))
            for e in ("batch", "reference")]
    assert runs[0] == runs[1]


@pytest.mark.parametrize(("policy", "message"), [
    ('nobody', 'unknown policy "nobody"'),
    ('pimc[bogus=1]', 'the policy pimc has no parameter "bogus"'),
    ("no_such_module_x:P", "cannot import no_such_module_x"),
    ("random,random", "2 policies for 4 seats"),
])
def test_bad_policies_exit_2_with_one_line(policy: str, message: str) -> None:
    result = _cli("herzla", "--hands", "10", "--policy", policy)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_pimc_samples_fit_what_the_seat_has_seen() -> None:
    """Sampled deals keep the seat's hand, the other seats' card counts, the voids shown and the
    legality of every play so far, and the announcements."""
    rng = random.Random(2)
    herzla_cls = contract_class("herzla", "normal")
    for trial in range(12):
        contract = herzla_cls()
        assert isinstance(contract, TrickContract)
        cards = list(contract.pack().cards)
        rng.shuffle(cards)
        hands = [mask_of(cards[s * 8:(s + 1) * 8]) for s in range(4)]
        state = TrickHand(contract, hands, 3)
        for _ in range(rng.randrange(1, 28)):
            state.play(rng.choice(cards_of(state.legal_mask())))
        view = TrickView.of(state, uniform=trial, announcements=("pass",) * 4)
        gen = np.random.default_rng(trial)
        for _ in range(5):
            sample = sample_hands(view, gen)
            assert sample[view.seat] == hands[view.seat]
            assert sum(h.bit_count() for h in sample) == 32
            assert functools.reduce(operator.or_, sample) == contract.pack().mask
            for seat, card in view.plays():
                assert sample[seat] >> card.index & 1
            left = [h & ~view.played() for h in sample]
            for seat, suits in enumerate(view.voids()):
                for s in suits:
                    assert not left[seat] & SUIT_MASKS[s]
            replayed = TrickHand(contract, sample, 3)
            for _, card in view.plays():
                assert replayed.check(card) is None
                replayed.play(card)
            for seat in range(4):
                assert announce(sample[seat], contract, seat == 0) == "pass"


def test_pimc_is_deterministic_and_legal() -> None:
    res = [simulate("herzla", "normal", hands=2, seed=4, jobs=1,
                    policy="pimc[samples=2,tricks=3],heuristic,random,heuristic").to_dict()
           for _ in range(2)]
    for r in res:
        del r["elapsed_s"], r["hands_per_s"]
    assert res[0] == res[1]
    assert set(res[0]["checks"].values()) == {0}


@pytest.mark.parametrize(("game", "unit"), [("herzla", "(cents)"),
                                            ("herzla-kids", "(penalty points)")])
def test_pimc_names_the_unit_of_its_means(game: str, unit: str) -> None:
    """The measure of pimc's hint counts what the solver's values count: penalty points in
    the children's Herzla, where the lowest total wins."""
    rng = random.Random(5)
    contract = contract_class(game, "normal")()
    assert isinstance(contract, TrickContract)
    cards = list(contract.pack().cards)
    rng.shuffle(cards)
    size = contract.hand_size
    hands = [mask_of(cards[s * size:(s + 1) * size]) for s in range(contract.players)]
    state = TrickHand(contract, hands, contract.players - 1)
    while len(cards_of(state.legal_mask())) < 2 or len(state.tricks) < size - 3:
        state.play(rng.choice(cards_of(state.legal_mask())))
    hint = Pimc(samples=2, tricks=8).explain(TrickView.of(state, uniform=1))
    assert hint.measure is not None and hint.measure.endswith(f"of its score {unit} with "
                                                              "perfect play after the card")


def test_every_reason_a_policy_gives_has_its_words_for_the_player() -> None:
    """A policy declares its reasons twice: as the third-person ``WHY``/``HOW`` of its hints and
    as the second-person ``SAID`` the table app says them in, key for key."""
    from herzla.analysis import expert, pimc
    from herzla.players import heuristic

    for reasons, said in ((heuristic.WHY, heuristic.SAID), (expert.HOW, expert.SAID),
                          (pimc.HOW, pimc.SAID)):
        assert set(said) == set(reasons)
        assert all(text.endswith(".") and text[0].isupper() for text in said.values())
