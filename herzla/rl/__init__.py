"""herzla's games as reinforcement-learning environments (the Reinforcement learning page of the
docs): a PettingZoo AEC environment with every seat an agent (:func:`aec_env`) and a Gymnasium
environment of one seat against herzla's policies (:func:`gym_env`).  Both play every deal of every
game, plug-ins' included, read from the same declarations as every engine.  They need the ``rl``
extra (``pip install 'herzla[rl]'``); nothing else in herzla imports this package.

- :mod:`herzla.rl.table`: which deals an environment plays (a contract, a partie, the bidding);
- :mod:`herzla.rl.actions`: the fixed action space;
- :mod:`herzla.rl.observation`: the observation's blocks;
- :mod:`herzla.rl.episode`: one episode's deals, bidding, play and scores;
- :mod:`herzla.rl.aec`, :mod:`herzla.rl.single`: the two environments.

>>> env = aec_env("herzla")  # the bidding, then the contract announced
>>> env.reset(seed=1)
>>> env.actions.names()[-3:]
['pass', 'beddl', 'mord']
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("herzla.rl needs PettingZoo and Gymnasium: pip install 'herzla[rl]'") \
        from exc

from herzla.rl.aec import HerzlaAEC, aec_env
from herzla.rl.episode import Episode, IllegalAction
from herzla.rl.single import HerzlaSeatEnv, gym_env
from herzla.rl.table import EnvTable

__all__ = ["Episode", "HerzlaAEC", "HerzlaSeatEnv", "IllegalAction", "EnvTable", "aec_env",
           "gym_env"]
