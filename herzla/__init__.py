"""herzla: rules, simulator and scoring-disputes lookup for the Herzla family of card games.

>>> import herzla
>>> rec = herzla.deal_record("herzla", "normal", 4, seed=7)
>>> len(rec.hands[0])
8
"""

from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from herzla.cards import ACE_TEN, NATURAL, Card, CardError, Pack, Rank, Suit, parse_cards
from herzla.contracts import (
    Contract,
    Game,
    HandScore,
    LayoutContract,
    Outcome,
    TrickContract,
    contract_class,
    contract_classes,
    games,
    get_game,
    register,
)
from herzla.display import on_first_use as _on_first_use
from herzla.display import register as _register_drawing
from herzla.errors import HerzlaError
from herzla.hand import Hand, HandNotOver, IllegalMove, Move
from herzla.hand import register_reader as _register_reader
from herzla.i18n import language
from herzla.kinds import register_kind as _register_kind
from herzla.kinds.layout import LAYOUT as _LAYOUT
from herzla.kinds.layout import LayoutHand
from herzla.kinds.tricks import TRICKS as _TRICKS
from herzla.kinds.tricks import Trick, TrickHand
from herzla.options import Option, OptionError
from herzla.players.registry import register_builtin as _register_builtin
from herzla.records import Record, RecordError, ReplayResult, deal_record, replay
from herzla.records import read_record as _read_record

# what the lower layers find by registration, filled here, from above, and nowhere else: each
# kind of deal (its engine, view, marks, what a replay and an observer see: herzla.kinds), the
# reader of the records a hand writes, and the built-in policies that play through the solver (a
# part above the policies)
_register_kind(_TRICKS)
_register_kind(_LAYOUT)
_register_reader(_read_record)


def _pimc() -> "Policy":
    from herzla.analysis.pimc import Pimc

    return Pimc()


def _ipimc() -> "Policy":
    from herzla.analysis.ipimc import Ipimc

    return Ipimc()


def _expert() -> "Policy":
    from herzla.analysis.expert import Expert

    return Expert()


_register_builtin("pimc", _pimc)
_register_builtin("ipimc", _ipimc)
_register_builtin("expert", _expert)

if _TYPE_CHECKING:
    from herzla.analysis.advise import AdviceError, AdviceResult, advise
    from herzla.analysis.review import ReviewResult, review
    from herzla.analysis.solve import IllegalPlayError, SolveError, SolveResult, solve
    from herzla.analysis.solve_many import solve_many
    from herzla.players import Policy, PolicyError, policy_of
    from herzla.players.playing import play
    from herzla.sim.api import SimulationError, simulate
    from herzla.sim.match import MatchError, MatchResult, match
    from herzla.sim.runner import SimResult

#: the parts imported when first used (the simulator and the analysis load what they need then)
_LAZY = {
    "AdviceError": "herzla.analysis.advise", "AdviceResult": "herzla.analysis.advise",
    "advise": "herzla.analysis.advise",
    "SimulationError": "herzla.sim.api", "simulate": "herzla.sim.api",
    "SimResult": "herzla.sim.runner",
    "IllegalPlayError": "herzla.analysis.solve", "SolveError": "herzla.analysis.solve",
    "SolveResult": "herzla.analysis.solve", "solve": "herzla.analysis.solve",
    "solve_many": "herzla.analysis.solve_many",
    "ReviewResult": "herzla.analysis.review", "review": "herzla.analysis.review",
    "match": "herzla.sim.match", "MatchError": "herzla.sim.match",
    "MatchResult": "herzla.sim.match", "Policy": "herzla.players",
    "PolicyError": "herzla.players", "policy_of": "herzla.players",
    "play": "herzla.players.playing",
}


def __getattr__(name: str) -> _Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'herzla' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def _load_drawings() -> None:
    """What a notebook shows for herzla's values, drawn by :mod:`herzla.draw` (loaded then)."""
    from herzla.draw.notebook import renderers
    from herzla.draw.position import renderers as texts

    for (kind, mime), renderer in renderers().items():
        _register_drawing(kind, mime, renderer)
    for kind, text in texts().items():
        _register_drawing(kind, "text", text)


_on_first_use(_load_drawings)


def __dir__() -> list[str]:
    """The package's names, the lazily loaded ones included (``dir(herzla)``, ``help``)."""
    return sorted(set(globals()) | set(_LAZY))

__version__ = "1.0.0"

__all__ = [
    "ACE_TEN",
    "AdviceError",
    "AdviceResult",
    "NATURAL",
    "Card",
    "CardError",
    "Contract",
    "Game",
    "Hand",
    "HandNotOver",
    "HandScore",
    "HerzlaError",
    "IllegalMove",
    "IllegalPlayError",
    "LayoutContract",
    "LayoutHand",
    "MatchError",
    "MatchResult",
    "Move",
    "Option",
    "OptionError",
    "Outcome",
    "Pack",
    "Policy",
    "PolicyError",
    "Rank",
    "Record",
    "RecordError",
    "ReplayResult",
    "ReviewResult",
    "SimResult",
    "SimulationError",
    "SolveError",
    "SolveResult",
    "Suit",
    "Trick",
    "TrickContract",
    "TrickHand",
    "advise",
    "contract_class",
    "contract_classes",
    "deal_record",
    "games",
    "get_game",
    "language",
    "match",
    "parse_cards",
    "play",
    "policy_of",
    "register",
    "replay",
    "review",
    "simulate",
    "solve",
    "solve_many",
]
