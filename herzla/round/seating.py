"""Who plays what, where: a table's :class:`Seating` (the game, the contract, the players, the
dealer, the declarer, the rule options, the stock), the one value every part that sets up deals
holds (the simulator's :class:`~herzla.sim.spec.DealSpec`, the evening's ``Sitting``, the
OpenSpiel games' ``Setup``, the environments' table, the table app's ``Table``), and
:func:`make_contract`, the one way a contract is made from its id and a declarer.

>>> seating = Seating("herzla", 4, dealer=3, contract="beddl")
>>> seating.forehand, seating.contract_for().declarer  # no declarer given: forehand declares
(0, 0)
>>> seating.contract_for("mord", 2).id, seating.contract_for("normal").declarer
('mord', None)
>>> make_contract("herzeln", "domino", 4).players
4
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from herzla.contracts import Contract, contract_class

__all__ = ["Seated", "Seating", "make_contract"]


def make_contract(game: str, contract_id: str, players: int,
                  options: Mapping[str, Any] | None = None, declarer: int | None = None, *,
                  dealer: int | None = None) -> Contract:
    """The contract ``contract_id`` of ``game`` for ``players`` seats with the rule ``options``
    (as given: the contract fills in the defaults) and ``declarer``; a contract that needs a
    declarer and is given none is declared by forehand of ``dealer`` where that is given.
    UnknownContract names an unknown game or contract, OptionError a wrong player count,
    option or declarer."""
    cls = contract_class(game, contract_id)
    if declarer is None and dealer is not None and cls.needs_declarer:
        declarer = (dealer + 1) % players
    return cls(players, options, declarer)


def _items(options: Mapping[str, Any] | Iterable[tuple[str, Any]] | None
           ) -> tuple[tuple[str, Any], ...]:
    """Options as given, as (name, value) pairs in their order (a value that can be hashed)."""
    if options is None:
        return ()
    return tuple(options.items() if isinstance(options, Mapping) else options)


@attrs.frozen(slots=True)
class Seating:
    """Who plays what, where (see the module notes).

    ``game`` is the game's id, ``players`` the number of seats, ``dealer`` the seat dealing
    (the first deal's, where deals follow one another); ``contract`` the contract id played,
    or None where the game's bidding or partie chooses each deal's; ``declarer`` the seat
    declaring it (None: none given); ``options`` the rule options as given (the contracts fill
    in the defaults), as (name, value) pairs; ``stock`` the stock before the (first) deal.
    """

    game: str
    players: int
    dealer: int
    contract: str | None = None
    declarer: int | None = None
    options: tuple[tuple[str, Any], ...] = attrs.field(default=(), converter=_items)
    stock: int = 0

    @property
    def opts(self) -> dict[str, Any]:
        """The rule options as given, as a mapping."""
        return dict(self.options)

    @property
    def forehand(self) -> int:
        """The seat after the dealer: it leads (or lays) first and announces first."""
        return (self.dealer + 1) % self.players

    def contract_for(self, contract_id: str | None = None, declarer: int | None = None
                     ) -> Contract:
        """The contract ``contract_id`` (default: the seating's own, with its declarer) at this
        table (:func:`make_contract`): its players and options, ``declarer`` (else forehand,
        where the contract needs one)."""
        if contract_id is None:
            if self.contract is None:
                raise ValueError("the seating plays no one contract: name the contract")
            contract_id, declarer = self.contract, self.declarer if declarer is None else declarer
        return make_contract(self.game, contract_id, self.players, self.opts, declarer,
                             dealer=self.dealer)


class Seated:
    """A value that holds a :class:`Seating` (``seating``) and reads its dealer, declarer,
    stock and options from it: the setups of the simulator, the evening, OpenSpiel, the
    environments and the table app (each names its game and players its own way: an id or a
    :class:`~herzla.contracts.Game`, a number or the players' names)."""

    __slots__ = ()
    seating: Seating

    @property
    def dealer(self) -> int:
        return self.seating.dealer

    @property
    def declarer(self) -> int | None:
        return self.seating.declarer

    @property
    def stock(self) -> int:
        return self.seating.stock

    @property
    def options(self) -> dict[str, Any]:
        """The rule options as given."""
        return self.seating.opts
