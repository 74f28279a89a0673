"""Resampling an information state (IS-MCTS): the hidden cards dealt anew, consistent with
what a seat has seen."""

from __future__ import annotations

from typing import Any

from herzla.cards import cards_of
from herzla.layout import LayoutHand
from herzla.openspiel.engine import new_engine
from herzla.openspiel.episode import Episode
from herzla.tricks import TrickHand

#: draws of the unseen cards tried before giving up on an information state
RESAMPLE_TRIES = 100_000


def _known_absent(episode: Episode, player: int) -> list[int]:
    """Per seat, the cards it cannot hold now, as the public moves show them to ``player``: a
    suit it did not follow (trick deals), the cards that fitted when it passed (layout deals)."""
    from herzla.cards import SUIT_MASKS

    n = episode.setup.players
    out = [0] * n
    engine = episode.engine
    if engine is None:
        return out
    if isinstance(engine, TrickHand):
        from herzla.players.views import shown_voids

        for s, suits in enumerate(shown_voids(engine.tricks, engine.trick, engine.leader, n)):
            for suit in suits:
                out[s] |= SUIT_MASKS[suit]
        return out
    rules = episode.rules
    assert rules is not None
    board = new_engine(rules, episode.dealt, episode.setup.dealer)
    assert isinstance(board, LayoutHand)
    pack = cards_of(episode.setup.pack)
    for seat, lay, _ in engine.history:
        if lay is None:
            for c in pack:
                if board.fits(c):
                    out[seat] |= c.bit
            board.pass_turn()
        else:
            board.play(lay)
    out[player] = 0
    return out


def resample(episode: Episode, player: int, sampler: Any) -> Episode:
    """An episode drawn uniformly from those ``player`` cannot tell from ``episode`` (see
    :meth:`HerzlaState.resample_from_infostate`): the unseen cards dealt uniformly under the
    constraints that bind seat by seat (:func:`herzla.players.deals.uniform_deal`), and the
    draws whose moves are not all legal (a lead ban, say) rejected."""
    import random

    from herzla.players.deals import uniform_deal

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
    absent = _known_absent(episode, player)
    forbidden = [absent[s] for s in others]
    rest = len(unseen) - sum(need)  # not dealt yet, or lying aside
    if rest:
        need.append(rest)
        forbidden.append(0)
    rng = random.Random(int(sampler() * 2**52) ^ (int(sampler() * 2**52) << 52))
    for _ in range(RESAMPLE_TRIES):
        got = uniform_deal(unseen, need, forbidden, rng)
        hands = {s: got[i] | played_by[s] for i, s in enumerate(others)}
        order: dict[int, list[int]] = {}
        for s, h in hands.items():
            cards = [c.index for c in cards_of(h)]
            rng.shuffle(cards)
            order[s] = cards
        actions = []
        for k, s in enumerate(seats):
            actions.append(deal_actions[k] if s == player else order[s].pop())
        candidate = Episode(setup)
        try:
            for action in (*actions, *later):
                candidate.apply(action)
        except ValueError:
            continue
        return candidate
    raise RuntimeError(f"no deal of the unseen cards fits seat {player}'s information "
                       f"in {RESAMPLE_TRIES} draws")
