"""Bots and policies: herzla's players as OpenSpiel bots, OpenSpiel's bots as herzla
policies."""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from herzla.cards import cards_of
from herzla.hand import PASS
from herzla.openspiel.game import HerzlaState


class PolicyBot(pyspiel.Bot):  # type: ignore[misc]
    """A herzla policy (:mod:`herzla.players`; a name as ``--policy`` takes it, or the object) as
    an OpenSpiel bot for one of these games: each step hands the policy the view of the seat to
    move (its own cards, the public moves), never the state itself.  ``seed`` seeds the move
    uniforms a policy may draw on (the random policy's choices).

    >>> import pyspiel
    >>> game = pyspiel.load_game("python_herzla(contract=normal)")
    >>> state = game.new_initial_state()
    >>> for card in range(32):
    ...     state.apply_action(state.chance_outcomes()[0][0])
    >>> bots = [PolicyBot("heuristic", seed=s) for s in range(4)]
    >>> while not state.is_terminal():
    ...     state.apply_action(bots[state.current_player()].step(state))
    >>> len(state.record()["plays"])
    32
    """

    def __init__(self, policy: Any, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        from herzla.players import Policy, policy_of

        self.policy: Policy = policy_of(policy) if isinstance(policy, str) else policy
        self._rng = np.random.default_rng(seed)

    def restart_at(self, state: HerzlaState) -> None:
        pass

    def step(self, state: HerzlaState) -> int:
        from herzla.players.policy import choose, decide_announce
        from herzla.players.views import BidView, view_of

        episode = state._episode
        seat = episode.turn()
        if seat is None:
            raise ValueError("no seat is to move (a chance node or the end)")
        uniform = int(self._rng.integers(2**32))
        engine = episode.engine
        if engine is None:
            bid = BidView(episode.setup.base, seat, episode.dealt[seat], episode.setup.dealer,
                          tuple(episode.bids), uniform)
            return state.action_of(decide_announce(self.policy, bid))
        if engine.legal_moves() == [PASS]:  # a seat that can only pass is not asked
            return state.action_of(PASS)
        view = view_of(engine, uniform, episode.setup.stock, tuple(episode.bids))
        return state.action_of(choose(self.policy, view, engine.check))


def _state_of_view(game: Any, view: Any, rng: np.random.Generator) -> HerzlaState:
    """An OpenSpiel state that seat ``view.seat`` cannot tell from what it has seen: the other
    seats' cards drawn consistently with it (:func:`herzla.analysis.pimc.sample_hands`)."""
    from herzla.analysis.pimc import sample_hands

    hands = sample_hands(view, rng, announcements=False)
    state: HerzlaState = game.new_initial_state()
    setup = state._episode.setup
    left = [[c.index for c in cards_of(h)] for h in hands]
    for k in range(setup.cards_dealt):
        state.apply_action(left[(setup.forehand + k) % setup.players].pop())
    for word in view.announcements:
        state.apply_action(state.action_of(word))
    for _, card in view.plays():
        state.apply_action(state.action_of(card))
    return state


def bot_policy(game: Any, make_bot: Any, seed: int = 0) -> Any:
    """An OpenSpiel bot as a herzla policy for trick deals: ``make_bot(game, seat)`` makes the
    bot of a seat (e.g. an IS-MCTS bot, which decides from the seat's information state only);
    each card is asked of it on a state built from the seat's view, the unseen cards drawn to
    fit it.  ``game`` is the loaded OpenSpiel game whose hands the policy plays (its contract,
    players, dealer and options); it announces with the bidding heuristic and lays layout
    deals as the heuristic does."""
    from herzla.cards import Card
    from herzla.hand import Move
    from herzla.players import Policy
    from herzla.players.heuristic import heuristic_move
    from herzla.players.views import trick_view

    class BotPolicy(Policy):
        name = "openspiel-bot"

        def __init__(self) -> None:
            self._bots: dict[int, Any] = {}
            self._rng = np.random.default_rng(seed)

        def move(self, view: Any) -> Move:
            if trick_view(view) is None:  # the bot plays the tricks, the rows as the heuristic
                return heuristic_move(view)
            bot = self._bots.get(view.seat)
            if bot is None:
                bot = self._bots[view.seat] = make_bot(game, view.seat)
            state = _state_of_view(game, view, self._rng)
            return Move(Card.from_index(int(bot.step(state))))

    return BotPolicy()
