"""A game's parameters as OpenSpiel passes them, checked once per game, and what follows
from them (:class:`Setup`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.contracts import Contract, contract_class
from herzla.limits import LimitError, check_stock
from herzla.openspiel.engine import (
    contract_ids,
    has_bidding,
    has_declarer,
    needs_declarer,
    pack_of,
    player_counts,
    row_keys_of,
)
from herzla.options import OptionError
from herzla.quote import number, quote
from herzla.round import Seated, Seating, make_contract


@attrs.frozen
class Setup(Seated):
    """One game's parameters, checked, and what follows from them.  Shared by all its states.

    ``seating``: the game, the contract (None: the bidding chooses it), the players, the
    dealer, the declarer, every rule option and the stock."""

    seating: Seating
    #: the contract played, or None when the bidding chooses it
    rules: Contract | None
    #: the contract that fixes the pack and sorts hands before the bidding ends
    base: Contract
    #: the game's parameters as OpenSpiel gave them (pickles rebuild the setup from them)
    key: tuple[str, tuple[tuple[str, Any], ...]]
    pack: int  # the pack, a bit set
    hand_size: int
    #: a seat may pass (a deal laid out in rows: its observation shows the rows)
    layout: bool
    contract_ids: tuple[str, ...]
    row_keys: tuple[int, ...]
    has_declarer: bool

    @property
    def game(self) -> str:
        return self.seating.game

    @property
    def contract(self) -> str:
        """The contract id, or "bidding"."""
        return self.seating.contract or "bidding"

    @property
    def players(self) -> int:
        return self.seating.players

    @property
    def bidding(self) -> bool:
        return self.rules is None

    @property
    def forehand(self) -> int:
        return self.seating.forehand

    @property
    def cards_dealt(self) -> int:
        return self.hand_size * self.players

    @property
    def max_moves(self) -> int:
        """Most moves of the play: every card, and in layout deals fewer than ``players`` passes
        before each card (more would bring the same seat back to the same table)."""
        return self.cards_dealt * (self.players if self.layout else 1)

    def contracts_possible(self) -> list[Contract]:
        if self.rules is not None:
            return [self.rules]
        out = []
        for cid in self.contract_ids:
            seats: Sequence[int | None] = (
                range(self.players) if needs_declarer(self.game, cid) else (None,))
            out += [self.seating.contract_for(cid, d) for d in seats]
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (setup_of, self.key)


#: the whole numbers OpenSpiel's game parameters hold (a C ``int``)
PARAM_MIN, PARAM_MAX = -(2**31), 2**31 - 1


def _int_param(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"parameter {name}: {quote(value)} is not a whole number")
    return value


def check_params(params: Mapping[str, Any]) -> None:
    """OptionError for a whole number OpenSpiel cannot hold (it would fail in its own code,
    naming no parameter)."""
    for name, value in params.items():
        if (isinstance(value, int) and not isinstance(value, bool)
                and not PARAM_MIN <= value <= PARAM_MAX):
            raise OptionError(f"parameter {name}: {number(value)} is beyond what an OpenSpiel "
                              f"parameter holds ({PARAM_MIN:,} to {PARAM_MAX:,})")


@functools.lru_cache(maxsize=256)
def setup_of(game: str, params: tuple[tuple[str, Any], ...]) -> Setup:
    """Check a game's parameters (OptionError says what is wrong) and derive the rest."""
    rest = dict(params)
    ids = contract_ids(game)
    contract = str(rest.pop("contract", ids[0]))
    bidding = contract == "bidding" and has_bidding(game)
    if not bidding and contract not in ids:
        known = (*ids, "bidding") if has_bidding(game) else ids
        raise OptionError(f"{quote(contract)} is not a {game} contract (known: {', '.join(known)})")
    players = _int_param("players", rest.pop("players", player_counts(game)[0]))
    dealer = _int_param("dealer", rest.pop("dealer", -1))
    declarer_given = _int_param("declarer", rest.pop("declarer", -1))
    stock = _int_param("stock", rest.pop("stock", 0))
    options = rest
    base_id = ids[0] if bidding else contract
    problem = contract_class(game, base_id).player_count_problem(players)
    if problem:
        raise OptionError(problem)
    needs = needs_declarer(game, base_id)
    if dealer == -1:
        dealer = players - 1
    if not 0 <= dealer < players:
        raise OptionError(f"dealer {dealer} is not a seat (seats are 0 to {players - 1}; "
                          f"-1 is the last)")
    try:
        check_stock(stock)
    except LimitError as exc:
        raise OptionError(str(exc)) from None
    declarer: int | None = None
    if needs:
        declarer = (dealer + 1) % players if declarer_given == -1 else declarer_given
    elif declarer_given != -1:
        raise OptionError(f"{game} {contract} has no declarer")
    base = make_contract(game, base_id, players, options, declarer)
    pack, hand_size = pack_of(base)
    seating = Seating(game, players, dealer, None if bidding else contract, declarer,
                      tuple(sorted(base.opts.items())), stock)
    return Setup(seating, None if bidding else base, base,
                  (game, params), pack, hand_size, base.has_passes, ids, row_keys_of(base),
                  has_declarer(game))
