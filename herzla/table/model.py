"""A table against the computer as a value: the game, the players, the person's seat, the policy
that plays the other seats, the seed of the computer's choices, the evening it carries (the
stock, the dealer, the partie) and the deal in play: its hands as dealt, the announcements and
the moves so far.  Everything the table shows is rebuilt from these (:mod:`herzla.table.position`),
so a table written to a file or a database and read back loses nothing.

The JSON a table is kept as (:meth:`Table.to_json`, read back by :meth:`Table.from_json`):

```json
{"format": "herzla-table", "version": 2, "game": "herzla",
 "players": ["You", "Computer 1", "Computer 2", "Computer 3"], "seat": 0,
 "opponents": "heuristic", "seed": 81, "options": {}, "contract": null, "declarer": null,
 "evening": {"format": "herzla-evening", ...},
 "deal": {"k": 1, "dealer": 3, "stock": 0, "hands": [["CA", ...], ...], "contract": "normal",
          "declarer": null, "bids": ["pass", "pass", "pass", "pass"], "moves": ["C7", "CA"],
          "review": null},
 "people": [], "asked": []}
```

``contract`` and ``declarer`` are the contract the table was asked to play at every deal (None:
the game's own order of deals, Herzla's with the bidding); ``evening`` holds the deals finished
(each a hand record; None for a table that plays one deal of a partie game again and again);
``deal.contract`` is None while the bidding is on; ``deal.review`` the review of the person's
cards once the hand is over.  A table of people lists in ``people`` each person's ``{"seat",
"key", "left"}`` (the key of the seat's private link; ``left``: the computer plays the seat
now) and in ``asked`` the seats that have asked for the next deal; its ``seat`` is its first
person's.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np

from herzla.evening import Evening, EveningError
from herzla.i18n import _
from herzla.limits import MAX_SEED
from herzla.quote import quote
from herzla.round import Seated, Seating
from herzla.support.kept import check_kept

__all__ = ["AWAY", "FORMAT", "MAX_MOVES", "MOST_AWAY", "VERSION", "Person", "Table", "TableDeal",
           "TableError", "TableStateError", "deal_seed", "move_uniform"]

FORMAT = "herzla-table"
#: 2: a table of people (``people``, ``asked``); version 1 (one person) is read as ever
VERSION = 2
#: the most moves a kept deal may hold (a layout deal's passes included): far above any deal
MAX_MOVES = 1000
_KEYS = ("format", "version", "game", "players", "seat", "opponents", "seed", "options",
         "contract", "declarer", "evening", "deal", "people", "asked", "away")
#: how long a person may be away (their page not seen) before the computer plays their seat,
#: by default, and the longest a table's creator may choose (seconds)
AWAY = 120
MOST_AWAY = 24 * 3600
#: the longest seat key a kept table may hold
MAX_KEY = 64
_DEAL_KEYS = ("k", "dealer", "stock", "hands", "contract", "declarer", "bids", "moves", "review",
              "stood_in")


class TableError(ValueError):
    """What a table cannot do or read: one line naming the problem."""


class TableStateError(TableError):
    """A move or request that does not fit the table now (not the person's turn, the hand
    over or not yet over, nothing to take back)."""


def deal_seed(seed: int, k: int) -> int:
    """The seed of the ``k``-th deal's cards at a table of ``seed``."""
    state = np.random.SeedSequence([seed, k, 0]).generate_state(2, np.uint64)
    return int(state[0]) & MAX_SEED


def move_uniform(seed: int, k: int, index: int) -> int:
    """The 32-bit uniform the computer is handed for move ``index`` (from 0) of deal ``k``."""
    return int(np.random.SeedSequence([seed, k, 1, index]).generate_state(1, np.uint32)[0])


@attrs.frozen(slots=True)
class TableDeal:
    """The deal in play: its number ``k`` (from 1), dealer, the stock it is played for, the
    hands as dealt (card codes, seat 0 first), the contract and declarer (None while the
    bidding is on), the announcements from forehand, the moves so far (as a hand record
    writes them, a layout deal's passes included) and, once over, the review of the person's
    cards (as ``herzla review --json`` writes it)."""

    k: int
    dealer: int
    stock: int
    hands: tuple[tuple[str, ...], ...]
    contract: str | None
    declarer: int | None
    bids: tuple[str, ...] = ()
    moves: tuple[str, ...] = ()
    review: Mapping[str, Any] | None = attrs.field(default=None, eq=False)
    #: the moves (their indexes in ``moves``) the computer made for a person who was away
    stood_in: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out = {"k": self.k, "dealer": self.dealer, "stock": self.stock,
               "hands": [list(h) for h in self.hands], "contract": self.contract,
               "declarer": self.declarer, "bids": list(self.bids), "moves": list(self.moves),
               "review": dict(self.review) if self.review is not None else None}
        if self.stood_in:
            out["stood_in"] = list(self.stood_in)
        return out

    @classmethod
    def from_json(cls, obj: object) -> TableDeal:
        if not isinstance(obj, Mapping) or set(obj) - set(_DEAL_KEYS):
            raise TableError(_("the table's deal is an object of {keys}").format(
                keys=", ".join(_DEAL_KEYS)))
        hands = obj.get("hands")
        if not isinstance(hands, list) or len(hands) > 16 or not all(
                isinstance(h, list) and len(h) <= 64 and all(isinstance(c, str) for c in h)
                for h in hands):
            raise TableError(_("the table's deal: hands are lists of card codes, one per seat"))
        words = _texts(obj.get("bids", []), "bids", 16)
        moves = _texts(obj.get("moves", []), "moves", MAX_MOVES)
        review = obj.get("review")
        if review is not None and not isinstance(review, Mapping):
            raise TableError(_("the table's deal: the review is an object"))
        contract = obj.get("contract")
        if contract is not None and not isinstance(contract, str):
            raise TableError(_("the table's deal: the contract is a name, not {text}").format(
                text=quote(contract)))
        stood_in = obj.get("stood_in", [])
        if not isinstance(stood_in, list) or not all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(moves)
                for i in stood_in):
            raise TableError(_("the table's deal: stood_in are indexes of its moves"))
        return cls(_whole(obj, "k", 1), _whole(obj, "dealer", 0), _whole(obj, "stock", 0),
                   tuple(tuple(h) for h in hands), contract, _seat_or_none(obj, "declarer"),
                   words, moves, review, tuple(sorted(set(stood_in))))


def _texts(value: object, what: str, most: int) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > most or not all(
            isinstance(v, str) and len(v) <= 20 for v in value):
        raise TableError(_("the table's {what} are a list of texts").format(what=what))
    return tuple(value)


def _whole(obj: Mapping[str, Any], key: str, least: int, most: int = 2**62 - 1) -> int:
    value = obj.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise TableError(_("the table's {key} is a whole number from {least} to {most}, not "
                           "{text}").format(key=key, least=least, most=most, text=quote(value)))
    return value


def _seat_or_none(obj: Mapping[str, Any], key: str) -> int | None:
    return None if obj.get(key) is None else _whole(obj, key, 0)


@attrs.frozen(slots=True)
class Person:
    """A seat a person plays at a table of people: the ``seat``, the private ``key`` of its
    link (whoever holds it sees that seat's hand and plays it), ``left``: the person has
    left and the computer plays the seat now (the table's creator decided), and ``named``: the
    person has given their name (they joined: asked once, at their link)."""

    seat: int
    key: str = attrs.field(repr=False)
    left: bool = False
    named: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "key": self.key, "left": self.left}
        if self.named:
            out["named"] = True
        return out

    @classmethod
    def from_json(cls, obj: object, players: int) -> Person:
        if not isinstance(obj, Mapping) or set(obj) - {"seat", "key", "left", "named"}:
            raise TableError(_("a person of the table is an object of seat, key, left, named"))
        key, left, named = obj.get("key"), obj.get("left", False), obj.get("named", False)
        if not isinstance(key, str) or not 16 <= len(key) <= MAX_KEY or not isinstance(left,
                                                                                        bool):
            raise TableError(_("a person of the table has a key of 16 to 64 characters"))
        if not isinstance(named, bool):
            raise TableError(_("a person of the table is named or not (true or false)"))
        seat = _whole(obj, "seat", 0, players - 1)
        return cls(seat, key, left, named)


@attrs.frozen(slots=True)
class Table(Seated):
    """A table against the computer (see the module notes).  Build one with
    :func:`herzla.table.new_table`; each action (:mod:`herzla.table.actions`) answers a new
    table.  ``seating`` (:class:`herzla.round.Seating`) holds the game, the number of
    players, the contract and declarer asked for at every deal (None: the game's own order,
    and forehand declares), the options as given, and the dealer and the stock of the deal in
    play; ``players`` the players' names."""

    seating: Seating
    players: tuple[str, ...]
    seat: int
    opponents: str
    seed: int
    evening: Evening | None
    deal: TableDeal
    #: the seats people play, each with its key (empty: one person, in ``seat``, and no keys)
    people: tuple[Person, ...] = ()
    #: the people who have asked for the next deal (it is dealt once every person has)
    asked: frozenset[int] = frozenset()
    #: the seconds a person's page may be away before the computer plays their seat (0: never)
    away: int = AWAY

    @classmethod
    def of(cls, game: str, players: tuple[str, ...], seat: int, opponents: str, seed: int,
           options: Mapping[str, Any], contract: str | None, declarer: int | None,
           evening: Evening | None, deal: TableDeal, people: tuple[Person, ...] = (),
           asked: frozenset[int] = frozenset(), away: int = AWAY) -> Table:
        """The table of these parts, its seating read from them and the deal in play."""
        seating = Seating(game, len(players), deal.dealer, contract, declarer, options,
                          deal.stock)
        return cls(seating, players, seat, opponents, seed, evening, deal, people, asked, away)

    @property
    def game(self) -> str:
        return self.seating.game

    @property
    def contract(self) -> str | None:
        """The contract asked for at every deal (None: the game's own order of deals)."""
        return self.seating.contract


    @property
    def of_people(self) -> bool:
        """True for a table of people (seats with their own links)."""
        return bool(self.people)

    @property
    def humans(self) -> frozenset[int]:
        """The seats people play now (the computer plays the others)."""
        if not self.people:
            return frozenset({self.seat})
        return frozenset(p.seat for p in self.people if not p.left)

    def person_of(self, key: str) -> Person | None:
        """The person whose key is ``key`` (compared in constant time), or None."""
        given = key.encode("utf-8", "replace")
        found = None
        for p in self.people:
            if hmac.compare_digest(given, p.key.encode("utf-8")):
                found = p
        return found

    def to_json(self) -> dict[str, Any]:
        """The table as it is kept (see the module notes)."""
        return {"format": FORMAT, "version": VERSION, "game": self.game,
                "players": list(self.players), "seat": self.seat, "opponents": self.opponents,
                "seed": self.seed, "options": dict(self.options), "contract": self.contract,
                "declarer": self.declarer,
                "evening": self.evening.to_json() if self.evening is not None else None,
                "deal": self.deal.to_json(), "people": [p.to_json() for p in self.people],
                "asked": sorted(self.asked), **({"away": self.away} if self.people else {})}

    @classmethod
    def from_json(cls, obj: object) -> Table:
        """The table a kept JSON object holds; TableError names what is wrong (not a table,
        written by a later herzla, damaged)."""
        check_kept(obj, kind="table", format=FORMAT, version=VERSION, keys=_KEYS,
                   error=TableError)
        assert isinstance(obj, Mapping)
        players = obj.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise TableError(_("the table's players are a list of names"))
        for key in ("game", "opponents"):
            if not isinstance(obj.get(key), str):
                raise TableError(_("the table's {key} is a name").format(key=key))
        options = obj.get("options") or {}
        if not isinstance(options, Mapping):
            raise TableError(_("the table's options are an object"))
        contract = obj.get("contract")
        if contract is not None and not isinstance(contract, str):
            raise TableError(_("the table's contract is a name"))
        evening = None
        if obj.get("evening") is not None:
            try:
                evening = Evening.from_json(obj["evening"])
            except EveningError as exc:
                raise TableError(_("the table's evening: {why}").format(why=exc)) from None
        seat = _whole(obj, "seat", 0)
        if seat >= len(players):
            raise TableError(_("the table's seat {seat} is not a seat of {count}").format(
                seat=seat, count=len(players)))
        people = obj.get("people", [])
        asked = obj.get("asked", [])
        if not isinstance(people, list) or len(people) > len(players):
            raise TableError(_("the table's people are a list, one a seat at most"))
        persons = tuple(Person.from_json(p, len(players)) for p in people)
        if len({p.seat for p in persons}) < len(persons):
            raise TableError(_("the table's people: a seat twice"))
        if not isinstance(asked, list) or not all(
                isinstance(a, int) and not isinstance(a, bool) and a in {p.seat for p in persons}
                for a in asked):
            raise TableError(_("the table's asked are the seats of its people"))
        return cls.of(obj["game"], tuple(players), seat, obj["opponents"],
                      _whole(obj, "seed", 0, MAX_SEED), dict(options), contract,
                      _seat_or_none(obj, "declarer"), evening,
                      TableDeal.from_json(obj.get("deal")), persons, frozenset(asked),
                      _whole(obj, "away", 0, MOST_AWAY) if "away" in obj else AWAY)

    def with_deal(self, deal: TableDeal, evening: Evening | None = None) -> Table:
        """This table with ``deal`` in play (and ``evening``, if given)."""
        return attrs.evolve(self, deal=deal,
                            evening=self.evening if evening is None else evening,
                            seating=attrs.evolve(self.seating, dealer=deal.dealer,
                                                 stock=deal.stock))

    def with_people(self, people: tuple[Person, ...] | None = None,
                    asked: frozenset[int] | None = None) -> Table:
        """This table with ``people`` and ``asked`` (each, if given)."""
        return attrs.evolve(self, people=self.people if people is None else people,
                            asked=self.asked if asked is None else asked)

