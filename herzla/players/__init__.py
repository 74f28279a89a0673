"""Players: policies that choose a seat's announcement and its cards from what the seat may know.

- :mod:`herzla.players.views`: the views an engine hands a policy (never the deal), each with
  the seat's legal moves (:meth:`TrickView.legal_moves`, :meth:`LayoutView.legal_moves`);
- :mod:`herzla.players.policy`: the :class:`Policy` base class (a policy writes one
  :meth:`Policy.move`), and :func:`decide_move` and :func:`decide_announce`, through which every
  engine asks a policy;
- :mod:`herzla.players.params`: a policy's parameters, read by their declared types;
- :mod:`herzla.players.seats`: a :class:`herzla.round.Round` played by policies, one a seat;
- :mod:`herzla.players.registry`: naming policies (built-in names, the ``herzla.policies`` entry
  points, ``package.module:NAME``, ``name[key=value]`` parameters);
- :mod:`herzla.players.heuristic`, :mod:`herzla.players.builtin`: the ``random`` and
  ``heuristic`` policies; :mod:`herzla.players.announcing`: the bidding heuristic;
- :mod:`herzla.analysis.pimc`: ``pimc``, sampling the unseen cards and solving each sample;
- :mod:`herzla.analysis.ipimc`: ``ipimc``, pimc weighing its samples by the plays seen
  (:mod:`herzla.analysis.inference`);
- :mod:`herzla.sim.match`: duplicate matches between policies (``herzla.match``).

The Policies page of the docs shows how to write a policy of one's own.
"""

from herzla.players.policy import (
    BuiltinForm,
    Policy,
    PolicyError,
    PolicyForm,
    decide_announce,
    decide_move,
)
from herzla.players.registry import (
    ENTRY_POINT_GROUP,
    builtin_names,
    policy_of,
    seat_policies,
    split_policies,
)
from herzla.players.views import BidView, LayoutView, TrickView

__all__ = ["ENTRY_POINT_GROUP", "BidView", "BuiltinForm", "LayoutView", "Policy", "PolicyError",
           "PolicyForm", "TrickView", "builtin_names", "decide_announce", "decide_move",
           "policy_of", "seat_policies", "split_policies"]
