"""Batch play-outs from a position in progress agree, lane by lane, with the reference engine."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from herzla.analysis.inference import play_log_p
from herzla.cards import Card, cards_of, mask_of, parse_cards
from herzla.contracts import TrickContract, contract_class
from herzla.hand import Move
from herzla.kinds.tricks import TrickHand
from herzla.players.heuristic import heuristic_card, heuristic_move, heuristic_order
from herzla.players.net import NetPolicy
from herzla.players.policy import Policy
from herzla.players.views import LayoutView, TrickView
from herzla.sim.batch import HEURISTIC, batch_form_of
from herzla.sim.batch.form import BatchForm
from herzla.sim.batch.playouts import play_outs, played_out
from herzla.sim.batch.softened import Softened
from tests.shares import some_in_default

CONTRACTS = [("herzla", "normal", None), ("herzla", "beddl", 1), ("herzla", "mord", 2),
             ("herzla-kids", "normal", None), ("herzeln", "no-hearts", None),
             ("herzeln", "every-trick", None), ("herzerln", "red-queens", None),
             ("herzerln", "tricks", None)]


class _Heuristic(Policy):
    def move(self, view: TrickView | LayoutView) -> Move:
        return heuristic_move(view)


def _contract(game: str, name: str, declarer: int | None) -> TrickContract:
    cls = contract_class(game, name)
    players = 4 if 4 in cls.player_counts else cls.player_counts[0]
    contract = cls(players, {}, declarer)
    assert isinstance(contract, TrickContract)
    return contract


def _reference(contract: TrickContract, deal: list[int], dealer: int, stock: int,
               played: list[Card], then: Card, policy: Policy) -> list[int]:
    st = TrickHand(contract, deal, dealer, stock)
    for c in [*played, then]:
        st._play(c)  # the plays replayed into a sampled world (unchecked)
    while not st.over:
        st.play(policy.move(TrickView.of(st)))
    scores = contract.settle(contract.counts(st.outcome()), stock).column(0)[0]
    return [int(s) for s in scores]


def _position(contract: TrickContract, seed: int, moves: int, extra: int = 5) -> tuple[
        list[list[int]], list[Card], int]:
    """Worlds of one position: the true deal and deals of the cards not yet played among the
    same seats (each keeping its count and the cards it played), the cards played so far
    (by the heuristic) and the dealer."""
    rng = random.Random(seed)
    cards = list(contract.pack().cards)
    rng.shuffle(cards)
    n = contract.hand_size
    P = contract.players
    dealer = rng.randrange(P)
    deal = [mask_of(cards[s * n:(s + 1) * n]) for s in range(P)]
    st = TrickHand(contract, deal, dealer)
    played: list[Card] = []
    for _ in range(moves):
        if st.over:  # Beddl and Mord may end early
            break
        c = heuristic_card(TrickView.of(st))
        st.play(c)
        played.append(c)
    out = [deal]
    left = [c for h in st.hands for c in cards_of(h)]
    for _ in range(extra):
        rng.shuffle(left)
        at = 0
        world = []
        for s in range(P):
            k = st.hands[s].bit_count()
            world.append((deal[s] & ~st.hands[s]) | mask_of(left[at:at + k]))
            at += k
        out.append(world)
    return out, played, dealer


@pytest.mark.parametrize("game,name,declarer", some_in_default(CONTRACTS, every=4,
                                                                kind=lambda c: c[0]))
@pytest.mark.parametrize("form", ["heuristic", "net"])
def test_play_outs_are_the_reference_engines(game: str, name: str, declarer: int | None,
                                             form: str) -> None:
    contract = _contract(game, name, declarer)
    policy: Policy = _Heuristic() if form == "heuristic" else NetPolicy()
    batch = HEURISTIC if form == "heuristic" else batch_form_of(NetPolicy())
    assert batch is not None
    lanes = 0
    for seed, moves in ((1, 0), (2, 5), (3, 13), (4, 3)):
        extra = 5 if form == "heuristic" else 1  # the reference net is the slow one
        worlds, played, dealer = _position(contract, seed, moves, extra)
        stock = 7 * seed
        deals, then = [], []
        for world in worlds:
            st = TrickHand(contract, world, dealer, stock)
            for c in played:
                st._play(c)  # the plays replayed into a sampled world (unchecked)
            for c in cards_of(st.legal_mask()):
                deals.append(world)
                then.append(c)
        if not deals:  # the hand ended before the cards played
            continue
        lanes += len(deals)
        got = play_outs(contract, dealer, stock, deals, played, then, batch)
        assert got.shape == (len(deals), contract.players)
        for lane, (world, c) in enumerate(zip(deals, then, strict=True)):
            want = _reference(contract, world, dealer, stock, played, c, policy)
            assert list(got[lane]) == want, (seed, moves, lane, str(c))
    assert lanes >= 12


def test_a_card_not_in_its_deal_is_refused() -> None:
    contract = _contract("herzla", "normal", None)
    worlds, _, dealer = _position(contract, 4, 0)
    deal = worlds[0]
    lead = (dealer + 1) % 4
    card = cards_of(deal[lead])[0]
    short = list(deal)
    short[lead] &= ~mask_of([card])  # nobody holds the card led
    with pytest.raises(ValueError, match="not in its deal"):
        play_outs(contract, dealer, 0, [short], [], [card], HEURISTIC)
    with pytest.raises(ValueError, match="cards to play"):
        play_outs(contract, dealer, 0, [deal] * 2, [], [card], HEURISTIC)
    # nothing forced: the deal played out by the heuristic, as the reference plays it
    got = play_outs(contract, dealer, 0, [deal], [], None, HEURISTIC)
    st = TrickHand(contract, deal, dealer, 0)
    while not st.over:
        st.play(heuristic_card(TrickView.of(st)))
    want = contract.settle(contract.counts(st.outcome()), 0).column(0)[0]
    assert list(got[0]) == [int(x) for x in want]


@pytest.mark.parametrize(("temperature", "doubt"), some_in_default(
    [(0.5, 0.0), (1.0, 0.0), (3.0, 0.0), (0.3, 0.5), (1.0, 0.2)], kind=lambda case: case[1] > 0,
    every=2))
@pytest.mark.parametrize("trick", ["C7 CA C8", "C7"])
def test_a_softened_seat_plays_the_kth_card_of_the_order_as_often_as_its_weight(
        temperature: float, doubt: float, trick: str) -> None:
    """The softened heuristic plays the card its order puts k-th (the reference engine's
    order, :func:`heuristic_order`) with probability proportional to exp(-k / temperature),
    or with probability ``doubt`` any legal card alike (the inference's
    :func:`~herzla.analysis.inference.play_log_p`): the frequencies over many lanes of one
    position, discarding (eight legal cards) and following suit (two)."""
    contract = _contract("herzla", "normal", None)
    deal = [mask_of(parse_cards(h)) for h in ("CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
                                              "C8 C9 ST S7 HA HQ DA DT", "H9 SJ S8 HJ HT H8 DJ D8")]
    played = parse_cards(trick)
    st = TrickHand(contract, deal, 3)
    for c in played:
        st.play(c)
    order = heuristic_order(st)
    assert len(order) == (8 if len(played) == 3 else 2)
    lanes = 6000
    forms: list[BatchForm] = [HEURISTIC] * 4
    forms[st.turn] = Softened(HEURISTIC, temperature, doubt)
    u = np.random.default_rng(7).random((32, lanes))
    play, bits = played_out(contract, 3, [deal] * lanes, played, None, forms, u)
    trick_cards = np.asarray(play.cards[0])
    held = [(trick_cards & np.array(bits.mask((c,)), dtype=trick_cards.dtype)) != 0
            for c in order]
    assert (np.sum(held, axis=0) == 1).all()  # one card of the seat's legal cards a lane
    seen = {c: int(h.sum()) for c, h in zip(order, held, strict=True)}
    for k, c in enumerate(order):
        want = math.exp(play_log_p(k, len(order), temperature, doubt))
        got = seen[c] / lanes
        assert abs(got - want) < 4 * math.sqrt(want * (1 - want) / lanes) + 1e-3, (k, c, got)


def test_a_softened_form_cold_is_its_base() -> None:
    contract = _contract("herzla", "normal", None)
    worlds, played, dealer = _position(contract, 3, 9)
    u = np.random.default_rng(1).random((32, len(worlds)))
    cold = play_outs(contract, dealer, 0, worlds, played, None, Softened(HEURISTIC, 0.01), u)
    assert cold.tolist() == play_outs(contract, dealer, 0, worlds, played, None,
                                      HEURISTIC).tolist()
    warm = play_outs(contract, dealer, 0, worlds * 20, played, None, Softened(HEURISTIC, 2.0),
                     np.random.default_rng(1).random((32, 20 * len(worlds))))
    assert warm.tolist() != (cold.tolist() * 20)


@pytest.mark.parametrize("game,name,declarer", CONTRACTS)
def test_many_masks_convert_as_one_at_a_time(game: str, name: str, declarer: int | None
                                             ) -> None:
    # the play-outs convert every lane's hands with byte tables: the same as card by card
    from herzla.sim.batch.bits import bits_of

    contract = _contract(game, name, declarer)
    bits = bits_of(contract.pack(), contract.rank_order())
    rng = random.Random(7)
    cards = list(contract.pack().cards)
    masks = [mask_of(rng.sample(cards, rng.randrange(len(cards) + 1))) for _ in range(300)]
    masks += [0, contract.pack().mask]
    got = bits.masks_of_indices(masks)
    assert got.dtype == bits.dtype
    assert [int(m) for m in got] == [bits.mask_of_indices(m) for m in masks]
