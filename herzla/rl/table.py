"""The table an environment plays at: which deals, how many seats, the dealer, the options, all
read from the game's declarations.

``contract=None`` means what ``herzla simulate`` means by it: a whole partie where the game has one
(``Game.partie_ids()``, the dealer passing as ``Game.dealer`` says), the bidding where the game has
one (``Game.bidding``: the seats announce, then the contract announced is played), else the
game's only contract.  A contract id plays that deal alone.  Names are case-insensitive and a
typo is answered with "did you mean".

>>> table = EnvTable.of("herzeln")
>>> table.mode, table.players, table.deals[:2], table.dealers[:3]
('partie', 4, ('no-hearts', 'every-trick'), (3, 0, 1))
>>> EnvTable.of("Herzla").mode, EnvTable.of("herzla").words
('bidding', ('pass', 'beddl', 'mord'))
>>> EnvTable.of("herzla", "beddl").contract_for(0).declarer  # forehand declares by default
0
>>> EnvTable.of("herzeln", "dommino")
Traceback (most recent call last):
...
herzla.contracts.UnknownContract: "dommino" is not a herzeln contract; did you mean domino? \
(known: no-hearts, every-trick, no-tricks, no-queens, king-of-hearts, last-trick, \
no-last-trick, domino)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.cards import Card, cards_of
from herzla.contracts import (
    Contract,
    Game,
    MissingTally,
    Outcome,
    TallyError,
    UnknownContract,
    games,
    get_game,
)
from herzla.limits import LimitError, check_stock
from herzla.names import close_names, find_name
from herzla.options import OptionError
from herzla.quote import quote
from herzla.round import Seated, Seating, make_contract

__all__ = ["MODES", "EnvTable", "pick_name"]

#: what one episode is: one contract's deal, a whole partie, or the bidding and the deal it chose
MODES = ("contract", "partie", "bidding")


def pick_name(name: object, known: Sequence[str], what: str, where: str = "") -> str:
    """``name`` as ``known`` spells it (:func:`herzla.names.find_name`: case-insensitive);
    UnknownContract with the close ones (:func:`herzla.names.close_names`: "did you mean")
    and the known ones otherwise."""
    if not isinstance(name, str):
        raise UnknownContract(f"a {what} is named by text, not {quote(name)}")
    found = find_name(name, known)
    if found is not None:
        return found
    close = close_names(name, known)
    hint = f"; did you mean {' or '.join(close)}?" if close else ""
    head = f"{quote(name)} is not a {where} {what}" if where else f"unknown {what} {quote(name)}"
    raise UnknownContract(f"{head}{hint} (known: {', '.join(known)})")


def _seat(value: object, what: str, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise OptionError(f"{what} {quote(value)} is not a seat of {players} players "
                          f"(seats 0 to {players - 1})")
    return value


@attrs.frozen(eq=False)
class EnvTable(Seated):
    """One environment's table (build it with :meth:`EnvTable.of`).

    ``deals`` are the contract ids of the episode's deals in order (the bidding: the contract
    played when nobody announces), ``dealers`` their dealers; ``contract_ids`` every contract an
    episode can play, in the game's order; ``cards`` the cards of every pack those are played
    with, by index; ``words`` the bidding's announcements (``pass`` first), empty without one;
    ``has_stock`` whether a contract the episode can play has a stock; ``unit`` the largest
    amount one seat wins or loses in a deal as the declarations score the extreme deals (every
    trick to one seat, every going-out order, a contract made and lost), the scale of the
    observation's amounts.  ``seating`` holds the game, the contract (None: the episode's
    partie or bidding chooses each deal's), the players, the dealer, the declarer, the options
    as given and the stock (:class:`herzla.round.Seating`).
    """

    seating: Seating
    mode: str
    deals: tuple[str, ...]
    dealers: tuple[int, ...]
    contract_ids: tuple[str, ...]
    cards: tuple[Card, ...]
    words: tuple[str, ...]
    has_tricks: bool
    has_layout: bool
    has_lower: bool
    has_declarer: bool
    has_stock: bool
    unit: int
    _contracts: dict[tuple[str, int | None], Contract] = attrs.field(factory=dict, repr=False)

    @classmethod
    def of(cls, game: str, contract: str | None = None, players: int | None = None,
           options: Mapping[str, Any] | None = None, dealer: int | None = None,
           declarer: int | None = None, stock: int = 0) -> EnvTable:
        """The table of ``game`` (see the module notes); UnknownContract names an unknown game
        or contract, OptionError a wrong number of players, seat, option or stock."""
        gid = pick_name(game, games(), "game")
        g = get_game(gid)
        classes = {c.id: c for c in g.contract_classes()}
        if options is not None and not isinstance(options, Mapping):
            raise OptionError(f"options are an object of names and values, not {quote(options)}")
        given = dict(options or {})
        deals: tuple[str, ...]
        if contract is not None:
            cid = pick_name(contract, list(classes), "contract", gid)
            mode, deals = "contract", (cid,)
        elif g.partie:
            mode, deals = "partie", tuple(g.partie_ids())
        elif g.bidding:
            mode, deals = "bidding", (g.bidding[0],)
        elif len(classes) == 1:
            mode, deals = "contract", tuple(classes)
        else:
            raise UnknownContract(f"{gid}: choose a contract (one of {', '.join(classes)})")
        playable = deals if mode != "bidding" else tuple(g.bidding)
        first = classes[deals[0]]
        n = first.player_counts[0] if players is None else players
        if isinstance(n, bool) or not isinstance(n, int):
            raise OptionError(f"players {quote(n)} is not a whole number")
        for cid in playable:
            problem = classes[cid].player_count_problem(n)
            if problem:
                raise OptionError(problem)
        dealer = n - 1 if dealer is None else _seat(dealer, "dealer", n)
        needs = mode == "contract" and first.needs_declarer
        if needs:
            declarer = (dealer + 1) % n if declarer is None else _seat(declarer, "declarer", n)
        elif declarer is not None:
            raise OptionError(f"{gid} {'the bidding' if mode == 'bidding' else deals[0]} has no "
                              f"declarer" + (" (the bidding chooses it)" if mode == "bidding"
                                             else ""))
        has_stock = any(classes[c].has_stock for c in playable)
        if isinstance(stock, bool) or not isinstance(stock, int):
            raise OptionError(f"the stock {quote(stock)} is not a whole number")
        if stock and not has_stock:
            raise OptionError(f"{gid} has no stock")
        try:
            check_stock(stock)
        except LimitError as exc:
            raise OptionError(str(exc)) from None
        built: dict[tuple[str, int | None], Contract] = {}
        for cid in playable:  # every contract the episode can play: checks the options too
            seats: Sequence[int | None] = [None]
            if classes[cid].needs_declarer:
                seats = [declarer] if mode == "contract" else list(range(n))
            for seat in seats:
                built[cid, seat] = make_contract(gid, cid, n, given, seat)
        some = list(built.values())
        opts = some[0].opts
        dealers = tuple(g.dealer(dealer, i, n, opts) for i in range(len(deals))) \
            if mode == "partie" else (dealer,)
        mask = 0
        for c in some:
            mask |= c.pack().mask
        seating = Seating(gid, n, dealer, deals[0] if mode == "contract" else None,
                          declarer if needs else None, given, stock if has_stock else 0)
        return cls(
            seating=seating, mode=mode, deals=deals, dealers=dealers,
            contract_ids=tuple(c for c in classes if c in playable),
            cards=tuple(cards_of(mask)),
            words=("pass", *g.bidding[1:]) if mode == "bidding" else (),
            has_tricks=any(c.tricks_per_hand for c in some),
            has_layout=any(c.has_passes for c in some),
            has_lower=any(c.end_marks for c in some),
            has_declarer=any(c.declarer is not None for c in some),
            has_stock=has_stock,
            unit=max(_deal_unit(c) for c in some),
            contracts=built,
        )

    # -- the seating ------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return get_game(self.seating.game)

    @property
    def players(self) -> int:
        return self.seating.players

    # -- what the table plays ---------------------------------------------------------------
    @property
    def lowest_wins(self) -> bool:
        """Whether the game's lowest total wins (penalty points): rewards are minus the score."""
        return self.game.lowest_wins

    def contracts(self) -> tuple[Contract, ...]:
        """Every contract an episode can play (in the bidding: each declarer's)."""
        return tuple(self._contracts.values())

    def contract_for(self, deal: int, contract_id: str | None = None,
                     declarer: int | None = None) -> Contract:
        """The contract of the ``deal``-th deal (the bidding: the contract announced, or the
        one played when nobody announces)."""
        cid = self.deals[deal] if contract_id is None else contract_id
        if contract_id is None and self.mode == "contract":
            declarer = self.declarer
        return self._contracts[cid, declarer]


def _deal_unit(contract: Contract) -> int:
    """The largest amount one seat scores in the extreme deals of ``contract`` (at least 1)."""
    n = contract.players
    mask, size = contract.pack().mask, contract.hand_size
    outcomes = [Outcome(n, captured=tuple(mask if s == 0 else 0 for s in range(n)),
                        tricks=tuple(size if s == 0 else 0 for s in range(n)), last_winner=0,
                        declarer=contract.declarer, tricks_played=size),
                Outcome(n, order=tuple(range(n)))]  # a layout deal: every place is scored
    if contract.declarer is not None:
        outcomes += [Outcome(n, declarer=contract.declarer, made=m) for m in (True, False)]
    amounts = [1]
    for outcome in outcomes:
        try:
            amounts += [abs(s) for s in contract.score(outcome).scores]
        except (TallyError, MissingTally):
            continue
    return max(amounts)
