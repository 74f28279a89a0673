"""An entry of an evening: one deal as the table tells it, a tally or a hand record.

A *tally* is what ``herzla score`` takes for one hand: the contract and what each seat took
(``hearts``, ``tricks``, ``captured``, ``last_trick``, ``order``, ``declarer``, ``made``,
``renege``).  A *record* is a hand record (the Hand records page of the docs).
:meth:`Entry.from_json` reads either from the JSON a person or the web app sends:

>>> Entry.from_json({"contract": "normal", "hearts": [0, 3, 5, 0]}).hearts
(0, 3, 5, 0)
>>> Entry.from_json({"hearts": [0, 3], "record": {}})
Traceback (most recent call last):
...
herzla.evening.errors.EveningError: an entry is a tally or {"record": ...}, not both (it has ...

Seats (``declarer``, ``last_trick``, ``renege``, the seats of ``order``) are the players' names
or seat numbers (from 0), kept as given; the evening reads them against its players.  What the
evening knows is never part of an entry: a ``stock`` or ``options`` an entry names is checked
against the evening when the entry is added and not kept; so is a record's ``stock``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.cards import CardError, parse_cards
from herzla.evening.errors import EveningError
from herzla.evening.names import MAX_SEATS
from herzla.i18n import N_, _
from herzla.limits import MAX_AMOUNT, LimitError, check_amount, whole_number
from herzla.quote import quote
from herzla.records import Record, RecordError, read_record

__all__ = ["ENTRY_KEYS", "Entry", "Seat"]

#: a seat as an entry names it: a player's name, or a seat number from 0
Seat = int | str

#: the keys of a tally, in the order the file writes them
TALLY_KEYS = ("contract", "declarer", "made", "hearts", "tricks", "captured", "last_trick",
              "order", "renege", "left", "aside")
#: keys an entry may give that the evening knows: checked against it, never kept
CHECKED_KEYS = ("stock", "options")
#: every key an entry may have
ENTRY_KEYS = (*TALLY_KEYS, *CHECKED_KEYS, "record")
#: the keys of a record an entry keeps only when the record gives them
_OPTIONAL = ("dealer", "options")


def _numbers(name: str, values: object) -> tuple[int, ...]:
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Sequence):
        raise EveningError(_("{name}: give a list of whole numbers, one per seat, not "
                             "{values}").format(name=name, values=quote(values)))
    if len(values) > MAX_SEATS:
        raise EveningError(_("{name}: {n_values} values; a table has at most {max_seats} "
                             "seats").format(name=name, n_values=len(values), max_seats=MAX_SEATS))
    try:
        return tuple(check_amount(whole_number(v, name), name, -MAX_AMOUNT) for v in values)
    except LimitError as exc:
        raise EveningError(str(exc)) from None


def _seat(name: str, value: object) -> Seat:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise EveningError(_("{name}: give a player's name or a seat number, not {value}").format(
            name=name, value=quote(value)))
    if isinstance(value, int) and not 0 <= value < MAX_SEATS:
        raise EveningError(_("{name}: {value} is not a seat").format(name=name, value=quote(value)))
    if isinstance(value, str) and not 0 < len(value) <= 100:
        raise EveningError(_("{name}: {value} is not a player's name").format(
            name=name, value=quote(value)))
    return value


def _captured(values: object) -> tuple[tuple[str, ...], ...]:
    if isinstance(values, str | bytes | Mapping) or not isinstance(values, Sequence):
        raise EveningError(_("captured: give the cards each seat captured, one entry per seat, "
                             "not {values}").format(values=quote(values)))
    if len(values) > MAX_SEATS:
        raise EveningError(_("captured: {n_values} seats; a table has at most {max_seats}").format(
            n_values=len(values), max_seats=MAX_SEATS))
    out = []
    for i, seat in enumerate(values):
        try:
            if isinstance(seat, str):
                if len(seat) > 1000:
                    raise EveningError(_("captured[{i}]: {seat} is too long for the cards "
                                         "of one seat").format(i=i, seat=quote(seat)))
                cards = [] if seat.strip() in ("-", "") else parse_cards(seat)
            elif isinstance(seat, Sequence) and not isinstance(seat, bytes):
                if len(seat) > 64 or not all(isinstance(c, str) for c in seat):
                    raise EveningError(_("captured[{i}]: give card codes, not {seat}").format(
                        i=i, seat=quote(seat)))
                cards = parse_cards(seat)
            else:
                raise EveningError(_("captured[{i}]: {seat} is not a list of cards").format(
                    i=i, seat=quote(seat)))
        except CardError as exc:
            raise EveningError(_("captured[{i}]: {exc}").format(i=i, exc=exc)) from None
        out.append(tuple(str(c) for c in cards))
    return tuple(out)


@attrs.frozen(slots=True)
class Entry:
    """One deal as entered: a tally (the fields from ``contract`` to ``renege``) or a hand
    ``record`` (with ``record_keys``: which of the record's ``dealer`` and ``options`` it gave;
    what it left out the evening fills in).  ``stock`` and ``options`` are what the entry said
    the evening holds, checked when it is added and not kept (:meth:`kept`)."""

    contract: str | None = None
    declarer: Seat | None = None
    made: bool | None = None
    hearts: tuple[int, ...] | None = None
    tricks: tuple[int, ...] | None = None
    captured: tuple[tuple[str, ...], ...] | None = None
    last_trick: Seat | None = None
    order: tuple[Seat, ...] | None = None
    renege: Seat | None = None
    left: tuple[int, ...] | None = None
    aside: tuple[str, ...] | None = None
    record: Record | None = None
    record_keys: frozenset[str] = frozenset()
    stock: int | None = None
    options: Mapping[str, Any] | None = attrs.field(default=None, eq=False)

    @property
    def is_record(self) -> bool:
        return self.record is not None

    @classmethod
    def from_json(cls, obj: object) -> Entry:
        """Read an entry: a tally ``{"contract": ..., "hearts": [...], ...}`` or
        ``{"record": {...}}``; EveningError names the first problem."""
        if isinstance(obj, Entry):
            return obj
        if not isinstance(obj, Mapping):
            raise EveningError(_('an entry is a JSON object (a tally, or {{"record": ...}}), '
                                 "not {obj}").format(obj=quote(obj)))
        unknown = sorted((str(k) for k in obj if k not in ENTRY_KEYS), key=str)
        if unknown:
            raise EveningError(_("unknown key {unknown} in an entry (keys: "
                                 "{entry_keys})").format(
                unknown=quote(unknown[0]), entry_keys=', '.join(ENTRY_KEYS)))
        if "record" in obj:
            others = [k for k in obj if k != "record" and obj[k] is not None]
            if others:
                raise EveningError(_('an entry is a tally or {{"record": ...}}, not both (it '
                                     "has {value})").format(
                    value=' and '.join([*others, 'record'])))
            return cls.of_record(obj["record"])
        got: dict[str, Any] = {}
        for key in ENTRY_KEYS:
            value = obj.get(key)
            if value is None:
                continue
            if key == "contract":
                if not isinstance(value, str) or not 0 < len(value) <= 100:
                    raise EveningError(_("contract: give a contract's name, not {value}").format(
                        value=quote(value)))
                got[key] = value
            elif key in ("hearts", "tricks", "left"):
                got[key] = _numbers(key, value)
            elif key == "aside":
                got[key] = _captured([value])[0]
            elif key == "captured":
                got[key] = _captured(value)
            elif key in ("declarer", "last_trick", "renege"):
                got[key] = _seat(key, value)
            elif key == "order":
                if isinstance(value, str | bytes | Mapping) or not isinstance(value, Sequence):
                    raise EveningError(_("order: give the seats in the order they went out, "
                                         "not {value}").format(value=quote(value)))
                if len(value) > MAX_SEATS:
                    raise EveningError(_("order: {n_value} seats; a table has at most "
                                         "{max_seats}").format(
                        n_value=len(value), max_seats=MAX_SEATS))
                got[key] = tuple(_seat("order", s) for s in value)
            elif key == "made":
                if not isinstance(value, bool):
                    raise EveningError(_("made: give true or false, not {value}").format(
                        value=quote(value)))
                got[key] = value
            elif key == "stock":
                try:
                    got[key] = check_amount(whole_number(value, "stock"), N_("the stock (cents)"))
                except LimitError as exc:
                    raise EveningError(str(exc)) from None
            elif key == "options":
                if not isinstance(value, Mapping):
                    raise EveningError(_("options: give an object of option names and values, "
                                         "not {value}").format(value=quote(value)))
                got[key] = dict(value)
        return cls(**got)

    @classmethod
    def of_record(cls, obj: object) -> Entry:
        """An entry of a hand record (a parsed JSON object or a :class:`Record`)."""
        if isinstance(obj, Record):
            keys = frozenset(_OPTIONAL) | {"stock"}
        elif isinstance(obj, Mapping):
            keys = frozenset(k for k in (*_OPTIONAL, "stock") if obj.get(k) is not None)
        else:
            keys = frozenset()  # read_record names what it is instead
        try:
            rec = read_record(obj)
        except RecordError as exc:
            raise EveningError(_("record: {exc}").format(exc=exc)) from None
        stock = rec.stock if "stock" in keys and rec.contract.has_stock else None
        return cls(record=rec, record_keys=keys - {"stock"}, stock=stock)

    def kept(self) -> Entry:
        """The entry as the evening keeps it: without what the evening knows (``stock``,
        ``options``)."""
        if self.stock is None and self.options is None:
            return self
        return attrs.evolve(self, stock=None, options=None)

    def record_json(self) -> dict[str, Any]:
        """The record as entered: without its stock, and without a dealer or options it left
        out (a tally entry: EveningError)."""
        if self.record is None:
            raise EveningError(_("this entry is a tally, not a record"))
        out = self.record.to_json()
        out.pop("stock", None)
        for key in _OPTIONAL:
            if key not in self.record_keys:
                out.pop(key, None)
        return out

    def to_json(self) -> dict[str, Any]:
        """The entry as the evening's file writes it (what :meth:`from_json` reads back)."""
        if self.record is not None:
            return {"record": self.record_json()}
        out: dict[str, Any] = {}
        for key in TALLY_KEYS:
            value = getattr(self, key)
            if value is None:
                continue
            if key == "captured":
                value = [" ".join(cards) for cards in value]
            elif key == "aside":
                value = " ".join(value)
            elif isinstance(value, tuple):
                value = list(value)
            out[key] = value
        return out

    def __repr__(self) -> str:
        if self.record is not None:
            r = self.record
            return f"<Entry record {r.game} {r.contract_id}, {len(r.plays)} plays>"
        parts = [f"{k}={v!r}" for k, v in self.to_json().items()]
        return f"<Entry {' '.join(parts) or 'empty'}>"
