"""herzla: rules, simulator and scoring-disputes lookup for the Herzla family of card games.

>>> import herzla
>>> rec = herzla.deal_record("herzla", "normal", 4, seed=7)
>>> len(rec.hands[0])
8
"""

from herzla.advise import AdviceError, AdviceResult, advise
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
from herzla.layout import Lay, LayoutHand
from herzla.options import Option, OptionError
from herzla.records import Record, RecordError, ReplayResult, deal_record, replay
from herzla.sim.api import SimulationError, simulate
from herzla.sim.runner import SimResult
from herzla.solve import IllegalPlayError, SolveError, SolveResult, solve
from herzla.tricks import Trick, TrickHand

__version__ = "0.1.0"

__all__ = [
    "ACE_TEN",
    "AdviceError",
    "AdviceResult",
    "NATURAL",
    "Card",
    "CardError",
    "Contract",
    "Game",
    "HandScore",
    "IllegalPlayError",
    "Lay",
    "LayoutContract",
    "LayoutHand",
    "Option",
    "OptionError",
    "Outcome",
    "Pack",
    "Rank",
    "Record",
    "RecordError",
    "ReplayResult",
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
    "parse_cards",
    "register",
    "replay",
    "simulate",
    "solve",
]
