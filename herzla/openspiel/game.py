"""OpenSpiel's game and state for a herzla game, and their registration with OpenSpiel."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import pyspiel

from herzla.cards import Card
from herzla.contracts import BUILTIN_MODULES, Contract, games, get_game
from herzla.hand import PASS as PASS_MOVE
from herzla.hand import Move
from herzla.openspiel.actions import LOWER, chance_outcomes, num_actions
from herzla.openspiel.engine import (
    Engine,
    contract_ids,
    fixed_total,
    has_declarer,
    has_stock,
    options_of,
    player_counts,
    title,
    utility_range,
)
from herzla.openspiel.episode import HandState
from herzla.openspiel.observer import HerzlaObserver
from herzla.openspiel.resample import resample
from herzla.openspiel.setup import check_params, setup_of

#: OpenSpiel's short names of the registered herzla games (:func:`register`)
GAMES: dict[str, str] = {}


def _game_type(game: str, utility: Any) -> Any:
    counts = player_counts(game)
    spec: dict[str, Any] = {"contract": contract_ids(game)[0], "players": counts[0],
                            "dealer": -1}
    if has_declarer(game):
        spec["declarer"] = -1
    if has_stock(game):
        spec["stock"] = 0
    for option in options_of(game):
        if option.name in spec:  # pragma: no cover - a plug-in option named like a parameter
            raise ValueError(f"{game}: option {option.name} clashes with a game parameter")
        spec[option.name] = option.default
    return pyspiel.GameType(
        short_name=_short_name(game),
        long_name=f"Python {title(game)}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def _short_name(game: str) -> str:
    return "python_" + game.replace("-", "_")


def _utility(rules: Contract | None) -> tuple[Any, float | None]:
    total = None if rules is None else fixed_total(rules)
    if total is None:
        return pyspiel.GameType.Utility.GENERAL_SUM, None
    if total == 0:
        return pyspiel.GameType.Utility.ZERO_SUM, 0.0
    return pyspiel.GameType.Utility.CONSTANT_SUM, float(total)


class HerzlaGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of one contract of a herzla game; the game id is the class attribute ``game``."""

    game = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        check_params(params)
        self.setup = setup_of(self.game, tuple(sorted(params.items())))
        setup = self.setup
        utility, total = _utility(setup.rules)
        ranges = [utility_range(r, setup.stock) for r in setup.contracts_possible()]
        low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(self.game),
            max_chance_outcomes=chance_outcomes(self.game),
            num_players=setup.players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=total,
            max_game_length=(setup.players if setup.bidding else 0) + setup.max_moves,
        )
        super().__init__(_game_type(self.game, utility), info, params)

    def new_initial_state(self) -> HerzlaState:
        return HerzlaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> HerzlaObserver:
        return HerzlaObserver(self.setup, iig_obs_type, params)


class HerzlaState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress.  Besides OpenSpiel's API: ``record()``, ``engine()``, ``contract()``,
    ``episode()`` and ``action_of(move)``."""

    def __init__(self, game: HerzlaGame) -> None:
        super().__init__(game)
        self._episode = HandState(game.setup)

    # -- OpenSpiel's API --------------------------------------------------------------------
    def current_player(self) -> int:
        if self._episode.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        if self._episode.over:
            return int(pyspiel.PlayerId.TERMINAL)
        turn = self._episode.turn()
        assert turn is not None
        return turn

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._episode.turn():
            return []
        return sorted(self._episode.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self._episode.chance_cards() if self._episode.dealing else []
        return [(c, 1.0 / len(cards)) for c in cards]

    def _apply_action(self, action: int) -> None:
        self._episode.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card.from_index(action)}"
        return self._episode.action_string(action)

    def is_terminal(self) -> bool:
        return self._episode.over

    def returns(self) -> list[float]:
        return self._episode.returns()

    def __str__(self) -> str:
        return self._episode.describe()

    # -- herzla's additions -----------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The hand record of the episode so far (JSON-ready; ``herzla replay`` reads it).

        ValueError while the cards are dealt or the bidding is open: there is no record yet.
        """
        return self._episode.record()

    def engine(self) -> Engine | None:
        """A copy of herzla's reference engine for the play (None before the play begins)."""
        engine = self._episode.engine
        return None if engine is None else engine.copy()

    def contract(self) -> Contract | None:
        """The contract played (None while the bidding is open)."""
        return self._episode.rules

    def episode(self) -> HandState:
        """A copy of herzla's own state of the episode (its setup, the actions so far), as
        :func:`herzla.openspiel.resample.resample` reads it."""
        return self._episode.copy()

    def action_of(self, move: Move | Card | str | None) -> int:
        """The action of a move: a :class:`herzla.hand.Move` (a card, a card laid at an end,
        the pass), a card, None (the pass) or an announcement (``"pass"``, ``"beddl"``,
        ``"mord"``).

        A card alone in a layout deal means the upper end, or the only end it fits.
        """
        wanted: Move | str
        if isinstance(move, Move | str):
            wanted = move
        elif isinstance(move, Card):
            wanted = Move(move)
        elif move is None:
            wanted = PASS_MOVE
        else:
            raise TypeError(f"{move!r} is not a move (a herzla Move, a card, None or an "
                            f"announcement)")
        for action, legal in self._episode.legal().items():
            if legal == wanted or (isinstance(legal, Move) and isinstance(wanted, Move)
                                   and wanted.end is None and wanted.card is not None
                                   and legal.card == wanted.card and action < LOWER):
                return action
        shown = "None" if wanted == PASS_MOVE else move
        raise ValueError(f"{shown} is not a legal move now")


    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HerzlaState:
        """A state drawn uniformly from those ``player_id`` cannot tell from this one: the same
        own cards and public moves, the other seats' unseen cards dealt anew (each seat the same
        number, none with which one of its moves would have been illegal: none of a suit it
        showed it lacks, only banned cards where it led or discarded one under a ban, and in a
        layout deal none that fitted when it passed), dealt under those constraints rather than
        drawn and rejected (:mod:`herzla.openspiel.resample`).  Announcements are free choices
        and rule nothing out.  ``probability_sampler()`` gives uniform numbers in [0, 1), as
        OpenSpiel's IS-MCTS passes it."""
        episode = resample(self._episode, player_id, probability_sampler)
        state = HerzlaState(self.get_game())
        for action in episode.actions:
            state.apply_action(action)
        return state


def register(game: str) -> str:
    """Register the herzla game ``game`` (a plug-in's too) with OpenSpiel, once; returns its
    short name, ``python_`` and the id with ``_`` for ``-`` (``python_herzla_kids``)."""
    short = _short_name(game)
    if GAMES.get(short) == game:
        return short
    get_game(game)  # an unknown game is an UnknownContract here, not in OpenSpiel
    name = "Game_" + short
    cls = type(name, (HerzlaGame,), {"game": game, "__module__": __name__,
                                      "__qualname__": name,
                                      "__doc__": f"The OpenSpiel game {short}."})
    globals()[name] = cls  # so that pickles find the class
    default = setup_of(game, ())
    pyspiel.register_game(_game_type(game, _utility(default.rules)[0]), cls)
    GAMES[short] = game
    return short


def register_all() -> None:
    for game in games():
        if type(get_game(game)).__module__ in BUILTIN_MODULES:  # herzla's own: never skipped
            register(game)
            continue
        try:
            register(game)
        except (LookupError, TypeError, ValueError) as exc:  # a broken plug-in must not break us
            warnings.warn(f"herzla.openspiel: game {game!r} not registered: {exc}", stacklevel=2)
