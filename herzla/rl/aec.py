"""The PettingZoo environment: every seat an agent, one episode a deal (a partie, the bidding and
its deal), turn by turn (PettingZoo's AEC API).

Agents are ``player_0`` ... (seat 0 ...).  Each observation is ``{"observation": float32 array,
"action_mask": int8 array}`` (:mod:`herzla.rl.observation`, :mod:`herzla.rl.actions`); the mask
is all 0 for an agent that is not to move.  As each deal ends every agent is rewarded its score
for the deal (cents in Herzla, points elsewhere; minus the score where the lowest total wins,
as herzla-kids' penalty points), so a partie pays deal by deal; when the last deal ends every
agent terminates.  ``infos`` hold nothing but, at each deal's end, ``{"deal": d, "score": s}``.

An action that is not legal raises :class:`herzla.rl.episode.IllegalAction` (a ValueError) naming
the rule it breaks, and changes nothing: use the mask.  PettingZoo's
``TerminateIllegalWrapper`` turns that into the classic games' convention (the offender loses,
the episode ends).

>>> env = aec_env("herzeln", "no-tricks")
>>> env.reset(seed=3)
>>> env.agent_selection, int(env.action_space("player_0").n)
('player_0', 32)
>>> obs, reward, terminated, truncated, info = env.last()
>>> int(obs["action_mask"].sum()), obs["observation"].dtype.name
(8, 'float32')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from herzla.limits import MAX_SEED
from herzla.records import Record
from herzla.rl.actions import Actions, as_action
from herzla.rl.episode import RENDER_MODES, Episode, check_render_mode, render
from herzla.rl.observation import Observer
from herzla.rl.table import EnvTable

__all__ = ["HerzlaAEC", "aec_env", "agent_name"]

Obs = dict[str, npt.NDArray[Any]]


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class HerzlaAEC(AECEnv):
    """A PettingZoo AEC environment of one herzla table (make one with :func:`aec_env`).

    Besides PettingZoo's API: ``table``, ``actions`` (the codec: ``actions.name(a)``,
    ``actions.cards``), ``observer`` (the layout: ``observer.blocks``), ``episode`` (the deals
    so far), ``record()``, ``records()`` and ``deal_seed`` (the seed whose first hand or partie
    the episode plays: ``herzla deal GAME --seed`` deals it).
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "herzla_v0", "render_modes": list(RENDER_MODES),
                                "is_parallelizable": False, "render_fps": 4}

    def __init__(self, table: EnvTable, render_mode: str | None = None) -> None:
        super().__init__()
        self.table = table
        self.actions = Actions(table)
        self.observer = Observer(table)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents: list[str] = [agent_name(s) for s in range(table.players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self._observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.actions.size)
                              for a in self.possible_agents}
        self.np_random, _ = seeding.np_random(None)
        self.deal_seed = 0
        self.episode: Episode | None = None
        self.agents: list[str] = []

    def _observation_space(self) -> spaces.Dict:
        ob = self.observer
        return spaces.Dict({
            "observation": spaces.Box(ob.low, ob.high, (ob.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
        })

    # -- PettingZoo's API -------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """A new episode.  ``seed`` deals what ``herzla deal``/``herzla simulate`` deal with it
        (and seeds the seeds of the episodes after it); ``options`` are not read."""
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
            self.deal_seed = int(seed)
        else:
            self.deal_seed = int(self.np_random.integers(MAX_SEED))
        self.episode = Episode(self.table, self.actions, self.deal_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        turn = self.episode.turn()
        assert turn is not None
        self.agent_selection = agent_name(turn)

    def observe(self, agent: str) -> Obs:
        episode = self._episode()
        seat = self._seat[agent]
        mask = episode.mask() if episode.turn() == seat else \
            np.zeros(self.actions.size, np.int8)
        return {"observation": self.observer.observe(episode, seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        episode = self._episode()
        if action is None:
            raise ValueError(f"{agent} is to move: None is the action of an agent that is done")
        scores = episode.step(as_action(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        for a in self.agents:
            self.infos[a] = {}
        if scores is not None:
            sign = -1 if self.table.lowest_wins else 1
            for seat, score in enumerate(scores):
                name = agent_name(seat)
                self.rewards[name] = float(sign * score)
                self.infos[name] = {"deal": len(episode.scores) - 1, "score": score}
        turn = episode.turn()
        if turn is None:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = agent_name((self._seat[agent] + 1) % self.table.players)
        else:
            self.agent_selection = agent_name(turn)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render(self.render_mode, self._episode())

    def close(self) -> None:
        pass

    # -- herzla's additions -----------------------------------------------------------------
    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode

    def record(self) -> Record:
        """The deal so far as a hand record (``herzla replay`` scores it); ValueError during
        the bidding."""
        return self._episode().record()

    def records(self) -> list[Record]:
        """Every deal of the episode so far as a hand record."""
        return self._episode().records()


def aec_env(game: str, contract: str | None = None, players: int | None = None,
            options: Mapping[str, Any] | None = None, render_mode: str | None = None, *,
            dealer: int | None = None, declarer: int | None = None,
            stock: int = 0) -> HerzlaAEC:
    """A PettingZoo AEC environment of ``game`` (see :mod:`herzla.rl`): ``contract`` one deal of
    it, or None for a whole partie, the bidding and its deal, or the game's only deal;
    ``players`` seats (default the game's usual number); ``options`` the rule options;
    ``dealer`` (default the last seat), ``declarer`` (a contract with one; default forehand) and
    ``stock`` (Herzla: cents in the stock before the deal)."""
    table = EnvTable.of(game, contract, players, options, dealer, declarer, stock)
    return HerzlaAEC(table, render_mode)
