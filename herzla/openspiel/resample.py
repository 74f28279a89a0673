"""Resampling an information state (IS-MCTS): the hidden cards dealt anew, consistent with
what a seat has seen.

What the public moves tell of a seat's hidden cards is read from the engine's own rule: before
each move of another seat, every card the seat might still hold is tried beside the card it
played (:meth:`herzla.hand.Hand.holding`), and a card with which the move would have been
illegal cannot be in its hand, then or now (a hand only shrinks).  That rules out a suit it did
not follow, every card but a banned one when it led or discarded a banned card (the escape: a
heart led or discarded while a ban applied means the seat held nothing but hearts), and the
cards that fitted when it passed.  The unseen cards are then dealt uniformly under those
constraints (:func:`herzla.players.unseen.uniform_deal`), which is every deal the seat cannot
tell apart, each equally likely, in one draw.  The draw is still replayed (its moves must be
legal and the same seat to move): a rule a contract writes in Python of its own may tie cards
together as no seat-by-seat constraint can, and the opening seat of a layout deal whose first
card is declared (Auflegen's heart Jack) shows who holds it before anything is laid.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from herzla.cards import cards_of
from herzla.hand import Hand, Move
from herzla.openspiel.episode import HandState
from herzla.openspiel.setup import Setup
from herzla.players.unseen import uniform_deal

#: draws of the unseen cards tried before giving up on an information state (a draw is tried
#: again only where a contract's rule of its own ties cards together in a way the seat-by-seat
#: constraints cannot say, or where the deal's opening seat says where a card lies)
RESAMPLE_TRIES = 100_000


def _ruled_out(board: Hand, seat: int, move: Move, candidates: int) -> int:
    """The cards of ``candidates`` with which ``seat``'s ``move`` on ``board`` (the position
    before it, ``seat`` to move) would have been illegal."""
    mine = 0 if move.card is None else move.card.bit
    if not candidates or board.holding(seat, mine | candidates).check(move) is None:
        return 0  # legal with every candidate beside it: legal with each one
    out = 0
    for card in cards_of(candidates):
        if board.holding(seat, mine | card.bit).check(move) is not None:
            out |= card.bit
    return out


@functools.lru_cache(maxsize=64)
def _absent(setup: Setup, actions: tuple[int, ...], player: int) -> tuple[int, ...]:
    """Per seat, the cards it cannot hold now, as the public moves of the episode that
    ``actions`` make show them to ``player`` (see the module notes); kept for the latest
    information states, since IS-MCTS resamples its root's state again and again."""
    episode = HandState(setup)
    for action in actions:
        episode.apply(action)
    return _ruled_out_by_moves(episode, player)


def _ruled_out_by_moves(episode: HandState, player: int) -> tuple[int, ...]:
    setup = episode.setup
    n = setup.players
    out = [0] * n
    hand = episode.engine
    if hand is None:
        return tuple(out)
    now = episode.hands()
    unseen = setup.pack & ~episode.dealt[player]
    for s in range(n):
        unseen &= ~(episode.dealt[s] & ~now[s])  # the cards played
    board = hand.contract.new_hand(episode.dealt, setup.dealer, setup.stock)
    for move in hand.moves:
        seat = board.turn
        if seat != player:
            out[seat] |= _ruled_out(board, seat, move, unseen & ~out[seat])
        board._play(move)
    return tuple(out)


def resample(episode: HandState, player: int, sampler: Callable[[], float]) -> HandState:
    """An episode drawn uniformly from those ``player`` cannot tell from ``episode`` (see
    :meth:`HerzlaState.resample_from_infostate`): the unseen cards dealt uniformly under the
    constraints the public moves put on each seat (see the module notes)."""
    setup = episode.setup
    n = setup.players
    if not 0 <= player < n:
        raise ValueError(f"player {player} is not a seat (0 to {n - 1})")
    dealt_so_far = min(len(episode.actions), setup.cards_dealt)
    deal_actions = episode.actions[:dealt_so_far]
    later = episode.actions[dealt_so_far:]
    seats = [(setup.forehand + k) % n for k in range(dealt_so_far)]
    played = 0
    played_by = [0] * n
    hands_now = episode.hands()
    for s in range(n):
        played_by[s] = episode.dealt[s] & ~hands_now[s]
        played |= played_by[s]
    own = episode.dealt[player]
    unseen = cards_of(setup.pack & ~own & ~played)
    others = [s for s in range(n) if s != player]
    need = [episode.dealt[s].bit_count() - played_by[s].bit_count() for s in others]
    absent = _absent(setup, tuple(episode.actions), player)
    forbidden = [absent[s] for s in others]
    rest = len(unseen) - sum(need)  # not dealt yet, or lying aside
    if rest:
        need.append(rest)
        forbidden.append(0)
    rng = random.Random(int(sampler() * 2**52) ^ (int(sampler() * 2**52) << 52))
    turn = episode.turn()
    for _ in range(RESAMPLE_TRIES):
        try:
            got = uniform_deal(unseen, need, forbidden, rng)
        except ValueError:  # pragma: no cover - the moves were legal with the real deal
            raise RuntimeError(f"no deal of the unseen cards fits seat {player}'s "
                               f"information") from None
        hands = {s: got[i] | played_by[s] for i, s in enumerate(others)}
        order: dict[int, list[int]] = {}
        for s, h in hands.items():
            cards = [c.index for c in cards_of(h)]
            rng.shuffle(cards)
            order[s] = cards
        actions = []
        for k, s in enumerate(seats):
            actions.append(deal_actions[k] if s == player else order[s].pop())
        candidate = HandState(setup)
        try:
            for action in (*actions, *later):
                candidate.apply(action)
        except ValueError:
            continue
        if candidate.turn() != turn:
            continue
        return candidate
    raise RuntimeError(f"no deal of the unseen cards fits seat {player}'s information "
                       f"in {RESAMPLE_TRIES} draws")
