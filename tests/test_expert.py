"""``expert``: the worlds it plays in (every deal late in the hand, each with its likelihood), max^n
with its tie rule, the policy playing legally in every game and contract (layout deals and the
bidding included), reproducibly for a seed and for any number of processes, and its parameters."""

from __future__ import annotations

import math
import random

import pytest

from herzla.analysis.expert import Expert, coalition, maxn, play_out
from herzla.analysis.inference import constraints
from herzla.analysis.worlds import all_deals, layout_worlds, trick_worlds
from herzla.cards import cards_of, mask_of, parse_cards
from herzla.contracts import TrickContract, contract_class, contract_classes
from herzla.kinds.tricks import TrickHand
from herzla.options import OptionError
from herzla.players import PolicyError, TrickView, builtin_names, policy_of
from herzla.players.heuristic import heuristic_order
from herzla.players.unseen import count_deals
from herzla.players.views import LayoutView, view_of
from herzla.sim.batch import HEURISTIC, batch_form_of
from herzla.sim.batch.softened import Softened
from herzla.sim.match import match
from tests.shares import some_in_default

#: the learned net's batch form, which plays expert's own later cards in its play-outs
NET = batch_form_of(policy_of("net"))

CHEAP = "expert[worlds=4,candidates=8,bids=4]"
NORMAL = contract_class("herzla", "normal")()
assert isinstance(NORMAL, TrickContract)
DEAL = ["CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
        "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8"]


def _played(codes: list[str], contract: object = NORMAL, deal: list[str] = DEAL) -> TrickHand:
    state = TrickHand(contract, deal, dealer=3)  # type: ignore[arg-type]
    for code in codes:
        state.play(code)
    return state


def _late() -> TrickHand:
    """Six tricks played by the heuristic: two to go."""
    state = _played([])
    while len(state.tricks) < 6:
        state.play(heuristic_order(state)[0])
    return state


def test_expert_is_built_in_with_its_parameters() -> None:
    assert "expert" in builtin_names()
    assert policy_of("expert[worlds=8,exact=2]").spec() == "expert[worlds=8,exact=2]"
    with pytest.raises(PolicyError, match="worlds must be 1 to 10000"):
        policy_of("expert[worlds=0]")
    with pytest.raises(PolicyError, match="no parameter"):
        policy_of("expert[samples=3]")


def test_every_deal_is_enumerated_as_count_deals_counts() -> None:
    cards = parse_cards("HA HK SA SK DA D7")
    hearts = mask_of(parse_cards("HA HK"))
    for forbidden in ([0, 0, 0], [hearts, 0, 0], [hearts, hearts, 0]):
        deals = list(all_deals(cards, [2, 2, 2], forbidden))
        assert len(deals) == count_deals(cards, [2, 2, 2], forbidden)
        assert len({tuple(d) for d in deals}) == len(deals)
        for d in deals:
            assert all(not d[h] & forbidden[h] for h in range(3))
            assert [x.bit_count() for x in d] == [2, 2, 2]


def test_late_in_the_hand_every_world_is_taken() -> None:
    """With two tricks left each other seat holds two cards: every deal of the six unseen cards
    that keeps the voids is a world, and the true deal is one of them."""
    state = _late()
    view = view_of(state)
    assert isinstance(view, TrickView)
    unseen = constraints(view)
    n = count_deals(unseen.cards, unseen.need, unseen.forbidden)
    worlds = trick_worlds(view, random.Random(1), 4, 8, enumerate=200)
    assert len(worlds) == n
    assert any(w == list(state.dealt) for w, _ in worlds)
    assert all(times >= 1 for _, times in worlds)


def test_sampled_worlds_keep_what_the_seat_has_seen() -> None:
    state = _played(["C7", "CA", "C8", "C9", "D7"])
    view = view_of(state)
    assert isinstance(view, TrickView)
    worlds = trick_worlds(view, random.Random(2), 6, 12)
    assert sum(t for _, t in worlds) == 6
    for hands, _ in worlds:
        assert hands[view.seat] == state.dealt[view.seat]
        assert sum(h.bit_count() for h in hands) == 32
        replay = TrickHand(view.contract, hands, 3)
        for _, c in view.plays():
            assert replay.check(c) is None
            replay.play(c)


def test_maxn_plays_each_seat_for_itself_and_ties_go_to_the_heuristic() -> None:
    """On the last two tricks max^n gives each seat the score of its own best card; a seat
    whose cards are all equal to it plays the heuristic's."""
    state = _late()
    before = list(state.moves)
    value = maxn(state, 1)
    assert list(state.moves) == before  # restored
    seat = state.turn
    options = []
    for c in heuristic_order(state):
        s = state.copy()
        s.play(c)
        options.append(maxn(s, 1))
    assert value[seat] == max(v[seat] for v in options)
    assert value == next(v for v in options if v[seat] == value[seat])
    assert sum(value) <= 0  # cents: what the seats pay goes to one another or to the stock
    s = state.copy()
    assert len(play_out(s, 1)) == 4 and s.over


def _maxn_in_heuristic_order(st: TrickHand, sign: int) -> tuple[int, ...]:
    """max^n as its rule reads: every node walks the cards in the heuristic's order and keeps
    the first of the seat's best score."""
    if st.over:
        scores = st.contract.settle(st.contract.counts(st.outcome()), st.stock).column(0)[0]
        return tuple(sign * int(v) for v in scores)
    best: tuple[int, ...] | None = None
    for c in heuristic_order(st):
        st.play(c)
        v = _maxn_in_heuristic_order(st, sign)
        st.undo()
        if best is None or v[st.turn] > best[st.turn]:
            best = v
    assert best is not None
    return best


#: every trick contract in which each seat plays for itself (max^n's deals)
def _for_itself() -> list[tuple[str, str, int]]:
    out = []
    for g in ("herzla", "herzla-kids", "herzeln", "herzerln"):
        n = 3 if g == "herzla-kids" else 4
        for c in contract_classes(g):
            try:
                rules = c(n)
            except OptionError:  # a declarer's contract: the coalition's
                continue
            if isinstance(rules, TrickContract) and not coalition(rules):
                out.append((g, c.id, n))
    return out


FOR_ITSELF = _for_itself()


def test_max_n_is_checked_in_every_deal_where_each_seat_plays_for_itself() -> None:
    assert len(FOR_ITSELF) == 14 and ("herzeln", "last-trick", 4) in FOR_ITSELF


@pytest.mark.parametrize(("game", "contract", "players"),
                         some_in_default(FOR_ITSELF, kind=lambda case: case[0]))
def test_maxn_searches_equivalent_cards_once_and_agrees_with_its_rule(
        game: str, contract: str, players: int) -> None:
    """maxn tries one card of each run of equivalent cards and orders the cards by the
    heuristic only where a seat's best cards leave the others different scores; its values are
    those of the rule (every card tried, in the heuristic's order, at every node)."""
    rules = contract_class(game, contract)(players)
    per = len(rules.pack().cards) // players
    for seed in range(3):
        cards = list(rules.pack().cards)
        random.Random(seed).shuffle(cards)
        st = rules.new_hand([mask_of(cards[i * per:(i + 1) * per]) for i in range(players)], 0)
        assert isinstance(st, TrickHand)
        while sum(h.bit_count() for h in st.hands) > min(4, players) * 3:
            st.play(heuristic_order(st)[0])
        sign = -1 if game == "herzla-kids" else 1
        assert maxn(st.copy(), sign) == _maxn_in_heuristic_order(st.copy(), sign)


def test_the_coalition_is_kept_only_where_a_declarer_plays() -> None:
    beddl = contract_class("herzla", "beddl")(4, None, 1)
    assert coalition(beddl) and not coalition(NORMAL)
    state = _played(["C7"], beddl)
    view = view_of(state)
    assert isinstance(view, TrickView)
    val = Expert(worlds=4).value(view)
    assert val.how == "coalition" and val.move.card in cards_of(view.legal)


def test_the_card_is_legal_and_explained() -> None:
    state = _played(["C7", "CA", "C8", "C9", "D7"])
    view = TrickView.of(state, uniform=5)
    expert = Expert(worlds=6)
    hint = expert.explain(view)
    assert hint.move.card == expert.move(view).card
    assert set(hint.values) == {str(c) for c in cards_of(view.legal)}
    assert hint.measure is not None and "likely deals" in hint.measure
    # why, in a player's words, and no card named (the page writes cards in its own faces)
    assert hint.reason is not None and "likely deals" in hint.reason
    assert not any(str(c) in hint.reason for c in cards_of(view.legal))


def test_layout_worlds_and_lays() -> None:
    domino = contract_class("herzeln", "domino")()
    hand = domino.new_hand(DEAL, dealer=3)
    for _ in range(5):
        moves = hand.legal_moves()
        hand.play(moves[0])
    view = view_of(hand)
    assert isinstance(view, LayoutView)
    worlds = layout_worlds(view, random.Random(3), 4)
    assert len(worlds) == 4
    for world, _ in worlds:
        assert world.hands[view.seat] == hand.hands[view.seat]
        assert [h.bit_count() for h in world.hands] == [h.bit_count() for h in hand.hands]
        assert world.turn == hand.turn
    lay = Expert(lay_worlds=4).move(view)
    assert lay in view.legal_moves()
    # a lay is valued over lay_worlds deals (worlds counts the trick deals' alone)
    assert Expert().lay_worlds == 48
    assert len(view.legal_moves()) > 1  # a choice to value
    assert Expert(lay_worlds=4, worlds=1).value_lay(view).worlds == 4
    assert policy_of("expert[lay_worlds=8]") == Expert(lay_worlds=8)
    with pytest.raises(PolicyError, match="lay_worlds must be 1 to 10000, not 0"):
        policy_of("expert[lay_worlds=0]")


def test_a_seeded_match_plays_the_same_twice() -> None:
    one = match("herzla", [CHEAP, "heuristic"], "normal", deals=1, seed=9, jobs=1).to_dict()
    two = match("herzla", [CHEAP, "heuristic"], "normal", deals=1, seed=9, jobs=1).to_dict()
    one.pop("elapsed_s")
    two.pop("elapsed_s")
    assert one == two


@pytest.mark.slow
@pytest.mark.parametrize(("game", "contract", "partie"), [
    ("herzla", None, False), ("herzla-kids", None, False), ("herzeln", None, True),
    ("herzerln", None, True)])
def test_it_plays_every_game_legally_and_reproducibly(game: str, contract: str | None,
                                                      partie: bool) -> None:
    """A short match against the heuristic: every move checked legal by the engine, the same
    answer for one process and two."""
    deals = 1 if partie else 3
    one = match(game, [CHEAP, "heuristic"], contract, partie=partie, deals=deals, seed=4,
                jobs=1).to_dict()
    two = match(game, [CHEAP, "heuristic"], contract, partie=partie, deals=deals, seed=4,
                jobs=2).to_dict()
    one.pop("elapsed_s")
    two.pop("elapsed_s")
    assert one == two
    assert one["standings"][0]["hands"] > 0


def test_it_announces_from_its_own_valuation() -> None:
    """With no card of the three highest ranks the bidding heuristic says Beddl; expert says
    what its play-outs value highest, the same for the same uniform."""
    from herzla.players.views import BidView

    hand = mask_of(parse_cards("C9 SJ S8 HJ HT H8 DJ D8"))
    view = BidView(NORMAL, 0, hand, 3, (), uniform=7)
    said = Expert(bids=8).announce(view)
    assert said in ("pass", "beddl", "mord")
    assert Expert(bids=8).announce(view) == said
    assert Expert(bids=0).announce(view) == "beddl"
    strong = mask_of(parse_cards("CA CK SA SK HA HK DA DK"))
    assert Expert(bids=8).announce(BidView(NORMAL, 0, strong, 3, (), uniform=7)) != "beddl"


def test_the_model_of_the_other_seats_is_a_parameter() -> None:
    assert policy_of("expert[model=net]").spec() == "expert[model=net]"
    with pytest.raises(PolicyError, match="model must be one of heuristic, net"):
        policy_of("expert[model=pimc]")
    state = _played(["C7", "CA", "C8", "C9", "D7"])
    view = TrickView.of(state, uniform=5)
    by_net = Expert(worlds=6, model="net").value(view)
    by_heuristic = Expert(worlds=6).value(view)
    assert by_net.move.card in cards_of(view.legal)
    assert set(by_net.means) == set(by_heuristic.means)
    # the same worlds, played out by another model: other values
    assert by_net.means != by_heuristic.means


def test_its_own_later_cards_are_a_parameter() -> None:
    """``own``: the model of its own later cards in the play-outs, the learned net by default
    (the others' play is ``model``'s either way)."""
    assert Expert().own == "net"
    assert policy_of("expert[own=heuristic]") == Expert(own="heuristic")
    with pytest.raises(PolicyError, match="own must be one of heuristic, net, not 'pimc'"):
        policy_of("expert[own=pimc]")
    state = _played(["C7", "CA", "C8", "C9", "D7"])
    view = TrickView.of(state, uniform=5)
    by_net, by_heuristic = Expert(worlds=24), Expert(worlds=24, own="heuristic")
    net_forms, uniforms = by_net.play_forms(view, 24)
    heuristic_forms, same = by_heuristic.play_forms(view, 24)
    assert net_forms[view.seat] is NET and heuristic_forms[view.seat] is HEURISTIC
    assert [f for s, f in enumerate(net_forms) if s != view.seat] == [
        f for s, f in enumerate(heuristic_forms) if s != view.seat]
    assert uniforms is not None and same is not None and (uniforms == same).all()
    # the same worlds and the same draws of the others' play, its own later cards another's
    assert by_net.trick_worlds(view) == by_heuristic.trick_worlds(view)
    assert by_net.value(view).means != by_heuristic.value(view).means


def test_the_play_outs_spread_the_other_seats_play_unless_spread_is_0() -> None:
    """spread=0: each world played out as the reference engine plays it, every seat by the
    heuristic (the means are the weighted play-outs); spread>0: the same worlds, the other
    seats' play spread, so other means, the same ones for the same uniform."""
    state = _played(["C7", "CA", "C8", "C9", "D7"])
    view = TrickView.of(state, uniform=5)
    plain = Expert(worlds=6, spread=0, own="heuristic")
    worlds = plain.trick_worlds(view)
    weight = sum(times for _, times in worlds)
    want = {}
    for c in cards_of(view.legal):
        total = 0
        for hands, times in worlds:
            st = TrickHand(state.contract, hands, view.dealer)
            for _, played in view.plays():
                st.play(played)
            st.play(c)
            total += times * play_out(st, 1)[view.seat]
        want[str(c)] = total / weight
    assert plain.value(view).means == pytest.approx(want)
    spread = Expert(worlds=6)
    assert spread.spread == 2.0 and spread.trick_worlds(view) == worlds
    assert spread.value(view).means != plain.value(view).means
    assert spread.value(view) == spread.value(view)
    # its own later cards are the net's (``own``), the other seats' the model's, spread
    forms, uniforms = spread.play_forms(view, 6)
    assert forms[view.seat] is NET and uniforms is not None and uniforms.shape == (32, 6)
    assert all(isinstance(f, Softened) and f.base is HEURISTIC and f.temperature == 2.0
               for s, f in enumerate(forms) if s != view.seat)
    assert plain.play_forms(view, 6) == ([HEURISTIC] * 4, None)
    with pytest.raises(PolicyError, match="spread must be 0 to 1000, not -1"):
        policy_of("expert[spread=-1]")


def test_doubt_is_one_model_of_the_other_seats_in_the_worlds_and_the_play_outs() -> None:
    """``doubt``: the worlds are weighed with the inference's doubt (the same worlds as the
    inference draws with it) and the other seats' play-outs take any legal card alike that
    share of the time; 0 leaves the player as it was."""
    from herzla.analysis.worlds import trick_worlds as draw_worlds

    state = _played([])
    for _ in range(10):  # the others' choices to infer from
        state.play(heuristic_order(state)[-1])
    view = TrickView.of(state, uniform=3)
    plain, doubting = Expert(worlds=8), Expert(worlds=8, doubt=0.6)
    assert plain == Expert(worlds=8, doubt=0)
    rng = doubting._rng(view.uniform, view.seat, len(view.plays()))
    assert doubting.trick_worlds(view) == draw_worlds(view, rng, 8, doubting.candidates, 1.0,
                                                      doubting.enumerate, 0.6)
    assert doubting.trick_worlds(view) != plain.trick_worlds(view)
    forms, _ = doubting.play_forms(view, 8)
    assert forms[view.seat] is NET
    assert all(isinstance(f, Softened) and f.doubt == 0.6
               for s, f in enumerate(forms) if s != view.seat)
    assert doubting.value(view).means != plain.value(view).means
    assert policy_of("expert[doubt=0.5]") == Expert(doubt=0.5)
    with pytest.raises(PolicyError, match=r"doubt must be 0 to 0\.99, not 1"):
        policy_of("expert[doubt=1]")
    # the library refuses NaN too (no range holds it)
    with pytest.raises(ValueError, match="doubt must be"):
        Expert(doubt=math.nan)
    with pytest.raises(ValueError, match="spread must be"):
        Expert(spread=math.nan)
    with pytest.raises(ValueError, match="temperature must be"):
        Expert(temperature=math.nan)
    with pytest.raises(ValueError, match="margin must be"):
        Expert(margin=math.nan)


def _choices(contract: object, deal: list[str] | None = None) -> list[TrickView]:
    """The views of a hand played by the heuristic where the seat has a choice."""
    if deal is None:
        pack = list(contract.pack().cards)  # type: ignore[attr-defined]
        random.Random(5).shuffle(pack)
        seats: int = contract.players  # type: ignore[attr-defined]
        per = contract.hand_size  # type: ignore[attr-defined]
        deal = [" ".join(str(c) for c in pack[i * per:(i + 1) * per]) for i in range(seats)]
    state = TrickHand(contract, deal, dealer=len(deal) - 1)  # type: ignore[arg-type]
    out: list[TrickView] = []
    while not state.over:
        view = TrickView.of(state, uniform=len(out))
        if len(cards_of(view.legal)) > 1:
            out.append(view)
        state.play(heuristic_order(state)[0])
    return out


@pytest.mark.slow  # a few seconds: the default set stays under a minute
def test_prior_adds_the_nets_estimate_to_the_means() -> None:
    """``prior``: each legal card's mean plus ``prior`` times the learned net's estimate of it
    in the game's unit (its score times the contract's unit) chooses (ties: the heuristic's
    order); the means themselves are the same, the hint says when the net tipped the choice,
    and where the net has no unit the prior is not asked."""
    from herzla.players.net import NetPolicy

    net = NetPolicy()
    unit = net.unit(_choices(NORMAL)[0])
    assert unit is not None and 1 < unit < 50  # cents a unit of score, as fitted
    plain, leaning, led = Expert(worlds=6), Expert(worlds=6, prior=1), Expert(worlds=6,
                                                                               prior=100)
    assert plain.prior == 0  # the default
    assert plain.leaning(_choices(NORMAL)[0]) is None
    tipped = 0
    for view in _choices(NORMAL):
        lean, scores = leaning.leaning(view), net.scores(view)
        assert lean is not None and scores is not None
        assert lean == {c: unit * v for c, v in scores.items()}
        assert set(lean) == set(cards_of(view.legal))
        base, val = plain.value(view), leaning.value(view)
        assert val.means == base.means  # the prior changes the choice, not the values
        score = {c: base.means[str(c)] + lean[c] for c in cards_of(view.legal)}
        top = max(score.values())
        assert val.move.card == next(c for c in heuristic_order(view)
                                     if score[c] >= top - 1e-9 * max(1, abs(top)))
        assert (val.how == "prior") == (val.move != base.move)
        if val.how == "prior":
            tipped += 1
            reason = leaning.explain(view).reason
            assert reason is not None and "learned player" in reason
            assert not any(str(c) in reason for c in cards_of(view.legal))
        # a prior far above the means plays the net's card where it prefers one card alone
        ranked = sorted(lean.values())
        if ranked[-1] - ranked[-2] > 2:
            assert led.move(view).card == net.move(view).card
    assert tipped  # the net does tip some choices in this hand
    # a deal the net plays as the heuristic: no prior, the plain player's choices
    every_trick = contract_class("herzeln", "every-trick")()
    for view in _choices(every_trick)[:4]:
        assert net.scores(view) is None and net.unit(view) is None
        assert leaning.leaning(view) is None
        assert leaning.value(view) == plain.value(view)
    # penalty points: a unit of its own, far smaller than the cents of Herzla normal
    kids = _choices(contract_class("herzla-kids", "normal")(3))[0]
    kids_unit = net.unit(kids)
    assert kids_unit is not None and 0 < kids_unit < unit / 4
    assert policy_of("expert[prior=2.5]") == Expert(prior=2.5)
    with pytest.raises(PolicyError, match="prior must be 0 to 100, not -1"):
        policy_of("expert[prior=-1]")
    with pytest.raises(PolicyError, match="prior must be 0 to 100, not 101"):
        policy_of("expert[prior=101]")
    with pytest.raises(ValueError, match="prior must be"):
        Expert(prior=math.nan)
