"""The Herzla family as OpenSpiel games: ``python_herzla``, ``python_herzla_kids``,
``python_herzeln`` and ``python_herzerln`` (the OpenSpiel page of the docs).

Importing this package registers every game the registry knows (herzla's four and any a plug-in
adds) with ``pyspiel.register_game``, as ``python_`` and its id; :func:`register` adds a game
registered later.  Each game's type and sizes come from its declarations: its players, its packs,
its layout deals and its bidding.  It needs the ``openspiel`` extra (``pip install
'herzla[openspiel]'``).  Nothing else in herzla imports it.

A game is one hand of one contract.  Chance deals the cards one at a time (an outcome is a card,
uniform over the cards not dealt yet; card ``k`` goes to seat ``(forehand + k) % players``), then in
Herzla with ``contract=bidding`` each seat announces in turn from forehand, then the seats play.
Every legal move comes from herzla's reference engines, played through the one hand interface
(:class:`herzla.hand.Hand`), and every return from the contract's own scoring.

>>> import pyspiel
>>> import herzla.openspiel
>>> game = pyspiel.load_game("python_herzeln(contract=domino,players=3)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 73, 36)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 24)
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401  (the games below need it)
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("herzla.openspiel needs OpenSpiel: pip install 'herzla[openspiel]'") from exc

from herzla.openspiel.actions import (
    CARD_ACTIONS,
    LOWER,
    PASS,
    announcement_action,
    chance_outcomes,
    num_actions,
)
from herzla.openspiel.bots import PolicyBot, bot_policy
from herzla.openspiel.engine import Engine as Engine
from herzla.openspiel.game import GAMES, HerzlaGame, HerzlaState, register, register_all
from herzla.openspiel.observer import HerzlaObserver
from herzla.openspiel.resample import RESAMPLE_TRIES as RESAMPLE_TRIES
from herzla.openspiel.setup import PARAM_MAX as PARAM_MAX
from herzla.openspiel.setup import PARAM_MIN as PARAM_MIN

__all__ = [
    "CARD_ACTIONS",
    "GAMES",
    "LOWER",
    "PASS",
    "HerzlaGame",
    "HerzlaObserver",
    "HerzlaState",
    "PolicyBot",
    "announcement_action",
    "bot_policy",
    "chance_outcomes",
    "num_actions",
    "register",
]

# the modules of the package, one concept each: ``engine`` (the calls into herzla's games and
# records, and the table a hand shows), ``actions`` (the action codec), ``setup`` (a game's
# parameters), ``episode`` (one hand without OpenSpiel), ``observer``, ``game`` (OpenSpiel's
# game and state, registration), ``resample`` (IS-MCTS), ``bots`` (policies as bots and back)
register_all()
