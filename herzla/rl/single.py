"""The Gymnasium environment: one seat learns, herzla's policies play the other seats.

The observation is the seat's (:mod:`herzla.rl.observation`: the same array as the PettingZoo
environment's ``"observation"``), the action space the same (:mod:`herzla.rl.actions`), and
``info["action_mask"]`` (and :meth:`HerzlaSeatEnv.action_masks`, as sb3-contrib's maskable
algorithms ask for it) the seat's legal actions.  A step makes the seat's move, then the other
seats' until the seat is to move again or the episode is over; its reward is the seat's score for
each deal that ended meanwhile (cents in Herzla, points elsewhere; minus the score where the
lowest total wins).  The other seats decide on their own views, as in ``herzla simulate``, their
randomness drawn from the environment's seeded generator.

An illegal action makes no move: the step answers the same observation, ``illegal_reward``
(default -1), not terminated, and ``info["illegal"]`` naming the rule it breaks.  With
``illegal_reward=None`` it raises :class:`herzla.rl.episode.IllegalAction` instead.

>>> env = gym_env("herzla", "normal", opponents="heuristic")
>>> obs, info = env.reset(seed=7)
>>> obs.shape, int(info["action_mask"].sum())
((441,), 6)
>>> obs, reward, terminated, truncated, info = env.step(0)  # C7 is not in seat 0's hand
>>> reward, terminated, info["illegal"]
(-1.0, False, 'seat 0 does not hold C7')
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from herzla.hand import PASS
from herzla.limits import MAX_SEED
from herzla.players import Policy, policy_of
from herzla.players.policy import choose, decide_announce
from herzla.players.views import BidView, view_of
from herzla.quote import quote
from herzla.records import Record
from herzla.rl.actions import Actions, as_action
from herzla.rl.episode import (
    RENDER_MODES,
    Episode,
    IllegalAction,
    check_render_mode,
    render,
)
from herzla.rl.observation import Observer
from herzla.rl.table import EnvTable

__all__ = ["GYM_ID", "HerzlaSeatEnv", "gym_env"]

#: the id :func:`gymnasium.make` knows the environment by: ``gymnasium.make(GYM_ID,
#: game="herzla", opponents="random")`` takes :func:`gym_env`'s arguments
GYM_ID = "herzla/Seat-v0"


class HerzlaSeatEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """A Gymnasium environment of one seat of a herzla table (make one with :func:`gym_env`).

    Besides Gymnasium's API: ``table``, ``seat``, ``opponents`` (seat -> policy), ``actions``,
    ``observer``, ``episode``, ``deal_seed``, :meth:`action_masks`, :meth:`record` and
    :meth:`records`.
    """

    #: Gymnasium declares it an instance variable
    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(self, table: EnvTable, seat: int, opponents: Mapping[int, Policy],
                 render_mode: str | None = None, illegal_reward: float | None = -1.0) -> None:
        self.table = table
        self.seat = seat
        self.opponents = dict(opponents)
        self.actions = Actions(table)
        self.observer = Observer(table)
        self.render_mode = check_render_mode(render_mode)
        self.illegal_reward = illegal_reward
        ob = self.observer
        self.observation_space = spaces.Box(ob.low, ob.high, (ob.size,), np.float32)
        self.action_space = spaces.Discrete(self.actions.size)
        self.deal_seed = 0
        self.episode: Episode | None = None
        self._carried = 0.0

    # -- Gymnasium's API --------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        """A new episode, played up to the seat's first move.  ``seed`` deals what ``herzla
        deal``/``herzla simulate`` deal with it; ``options`` are not read."""
        super().reset(seed=seed)
        self.deal_seed = int(seed) if seed is not None else \
            int(self.np_random.integers(MAX_SEED))
        self.episode = Episode(self.table, self.actions, self.deal_seed)
        self._carried = self._others()  # nothing, unless a deal ends before the seat moves
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[npt.NDArray[np.float32], float, bool, bool,
                                         dict[str, Any]]:
        episode = self._episode()
        if episode.over:
            raise RuntimeError("the episode is over: call reset()")
        chosen = as_action(action)
        if chosen not in episode.legal():
            why = episode.why(chosen)
            if self.illegal_reward is None:
                raise IllegalAction(why)
            return self._observe(), float(self.illegal_reward), False, False, \
                {**self._info(), "illegal": why}
        reward = self._carried + self._reward(episode.step(chosen))
        self._carried = 0.0
        reward += self._others()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, episode.over, False, self._info()

    def render(self) -> str | None:
        return render(self.render_mode, self._episode())

    # -- herzla's additions -----------------------------------------------------------------
    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The seat's legal actions (all False once the episode is over)."""
        return self._mask().astype(bool)

    def record(self) -> Record:
        """The deal so far as a hand record (``herzla replay`` scores it)."""
        return self._episode().record()

    def records(self) -> list[Record]:
        """Every deal of the episode so far as a hand record."""
        return self._episode().records()

    # -- the other seats ----------------------------------------------------------------------
    def _others(self) -> float:
        """The other seats' moves until the seat is to move or the episode is over; the seat's
        reward for the deals that ended meanwhile."""
        episode = self._episode()
        reward = 0.0
        while not episode.over and episode.turn() != self.seat:
            reward += self._reward(self._opponent_move(episode))
        return reward

    def _opponent_move(self, episode: Episode) -> tuple[int, ...] | None:
        seat = episode.turn()
        assert seat is not None
        policy = self.opponents[seat]
        hand = episode.hand
        if hand is not None and hand.check(PASS) is None:  # nothing to decide
            assert self.actions.pass_action is not None
            return episode.step(self.actions.pass_action)
        uniform = int(self.np_random.integers(2**32))
        if hand is None:
            bid = BidView(self.table.contract_for(episode.deal), seat, episode.dealt[seat],
                          episode.dealer, tuple(episode.bids), uniform)
            return episode.play(decide_announce(policy, bid, self.table.words))
        view = view_of(hand, uniform, episode.stock, tuple(episode.bids))
        return episode.play(choose(policy, view, hand.check))

    # -- helpers ------------------------------------------------------------------------------
    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("call reset() first")
        return self.episode

    def _reward(self, scores: tuple[int, ...] | None) -> float:
        if scores is None:
            return 0.0
        return float(-scores[self.seat] if self.table.lowest_wins else scores[self.seat])

    def _mask(self) -> npt.NDArray[np.int8]:
        episode = self._episode()
        if episode.turn() != self.seat:
            return np.zeros(self.actions.size, np.int8)
        return episode.mask()

    def _observe(self) -> npt.NDArray[np.float32]:
        return self.observer.observe(self._episode(), self.seat)

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask()}
        episode = self._episode()
        if episode.over:
            info["totals"] = list(episode.totals)
        return info


def _policies(opponents: str | Policy | Sequence[str | Policy], seat: int,
              players: int) -> dict[int, Policy]:
    """The policy of each seat but ``seat``: one for all, or one each in seat order."""
    others = [s for s in range(players) if s != seat]
    if isinstance(opponents, str | Policy):
        chosen = [opponents] * len(others)
    else:
        chosen = list(opponents)
        if len(chosen) != len(others):
            raise ValueError(f"opponents: name one policy for all, or {len(others)} (one for "
                             f"each other seat), not {len(chosen)}")
    out: dict[int, Policy] = {}
    for s, p in zip(others, chosen, strict=True):
        if isinstance(p, Policy):
            out[s] = p
        elif isinstance(p, str):
            out[s] = policy_of(p.strip())
        else:
            raise ValueError(f"a policy is a name or a Policy, not {quote(p)}")
    return out


def gym_env(game: str, contract: str | None = None, players: int | None = None, seat: int = 0,
            opponents: str | Policy | Sequence[str | Policy] = "heuristic",
            options: Mapping[str, Any] | None = None, render_mode: str | None = None, *,
            dealer: int | None = None, declarer: int | None = None, stock: int = 0,
            illegal_reward: float | None = -1.0) -> HerzlaSeatEnv:
    """A Gymnasium environment of ``seat`` at a table of ``game`` (the table as for
    :func:`herzla.rl.aec_env`), ``opponents`` at the other seats: a policy name as ``--policy``
    takes it (``random``, ``heuristic``, ``pimc[samples=4]``) or a Policy, for all of them or one
    each in seat order; ``illegal_reward`` what an illegal action earns (None: it raises)."""
    table = EnvTable.of(game, contract, players, options, dealer, declarer, stock)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.players:
        raise ValueError(f"seat {quote(seat)} is not a seat of {table.players} players "
                         f"(seats 0 to {table.players - 1})")
    if illegal_reward is not None and (isinstance(illegal_reward, bool) or not isinstance(
            illegal_reward, int | float) or not math.isfinite(illegal_reward)):
        raise ValueError(f"illegal_reward is a finite number or null, not "
                         f"{quote(illegal_reward)}")
    return HerzlaSeatEnv(table, seat, _policies(opponents, seat, table.players), render_mode,
                         illegal_reward)


if GYM_ID not in gymnasium.registry:
    gymnasium.register(GYM_ID, entry_point="herzla.rl.single:gym_env")
