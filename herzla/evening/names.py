"""Names a person types at the table: games and contracts (read case-insensitively, a typo
answered with "did you mean"), and the players' names, which name the seats."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from herzla.contracts import UnknownContract, contract_classes, games
from herzla.counting import read_whole
from herzla.evening.errors import EveningError
from herzla.i18n import _
from herzla.names import read_name
from herzla.quote import quote

__all__ = ["MAX_NAME", "MAX_SEATS", "STOCK", "check_names", "find_contract", "find_game", "seat_of"]

#: the longest player name, in characters
MAX_NAME = 40
#: how a settlement names the stock (so no player may be called that)
STOCK = "stock"
#: the most players an evening seats (the largest table of any game is far smaller)
MAX_SEATS = 16


def _pick(word: object, known: Sequence[str], what: str) -> str:
    """``word`` among ``known``, read as herzla reads every name (:func:`herzla.names.read_name`:
    in any case); else EveningError with the closest names."""
    if not isinstance(word, str):
        raise EveningError(_("{what} must be a name, not {word}").format(
            what=what, word=quote(word)))
    return read_name(word, known, what, EveningError)


def find_game(name: object) -> str:
    """The id of the game ``name`` names (``Herzla``, ``herzeln``)."""
    return _pick(name, games(), "game")


def find_contract(game: str, name: object) -> str:
    """The id of ``game``'s contract ``name`` names (``Beddl``, ``no-hearts``)."""
    try:
        ids = [c.id for c in contract_classes(game)]
    except UnknownContract as exc:
        raise EveningError(str(exc)) from None
    return _pick(name, ids, f"{game} contract")


def check_names(names: Sequence[object]) -> tuple[str, ...]:
    """The players' names, stripped and checked: text of 1 to :data:`MAX_NAME` printable
    characters, not a whole number (a number names a seat), not ``stock`` (the settlement's
    name for the stock), no two alike ignoring case."""
    if isinstance(names, str) or not isinstance(names, Sequence):
        raise EveningError(_("players: give the players' names, one per seat, not "
                             "{names}").format(names=quote(names)))
    if len(names) > MAX_SEATS:
        raise EveningError(_("players: {n_names} names; a table has at most {max_seats} "
                             "seats").format(
            n_names=len(names), max_seats=MAX_SEATS))
    out: list[str] = []
    seen: dict[str, int] = {}
    for i, raw in enumerate(names):
        if not isinstance(raw, str):
            raise EveningError(_("player {i}: a name is text, not {raw}").format(
                i=i + 1, raw=quote(raw)))
        name = " ".join(raw.split())
        if not name:
            raise EveningError(_("player {i}: the name is empty").format(i=i + 1))
        if len(name) > MAX_NAME:
            raise EveningError(_("player {i}: the name {name} is longer than "
                                 "{max_name} characters").format(
                i=i + 1, name=quote(name), max_name=MAX_NAME))
        if not name.isprintable():
            raise EveningError(_("player {i}: the name {name} holds a character that "
                                 "does not print").format(i=i + 1, name=quote(name)))
        if name.isascii() and name.isdigit():
            raise EveningError(_("player {i}: the name {name} is a number, which "
                                 "names a seat; give a name").format(i=i + 1, name=quote(name)))
        if name.casefold() == STOCK:
            raise EveningError(_("player {i}: {name} names the stock in a "
                                 "settlement; give another name").format(i=i + 1, name=quote(name)))
        key = name.casefold()
        if key in seen:
            raise EveningError(_("players {seen} and {i} are both called "
                                 "{name}").format(seen=seen[key] + 1, i=i + 1, name=quote(name)))
        seen[key] = i
        out.append(name)
    return tuple(out)


def seat_of(seat: object, players: Sequence[str], what: str) -> int:
    """The seat (from 0) that ``seat`` names: a player's name (ignoring case) or a seat number
    (a whole number, or its digits as text)."""
    n = len(players)
    number = read_whole(seat, digits=6)
    if number is not None:
        seat = number
    if isinstance(seat, bool):
        raise EveningError(_("{what}: {seat} is not a seat").format(what=what, seat=quote(seat)))
    if isinstance(seat, int):
        if not 0 <= seat < n:
            raise EveningError(_("{what}: seat {seat} is not a seat (seats are 0 to "
                                 "{n}, or the players' names)").format(
                what=what, seat=quote(seat), n=n - 1))
        return seat
    if isinstance(seat, str):
        key = " ".join(seat.split()).casefold()
        for i, name in enumerate(players):
            if name.casefold() == key:
                return i
        close = difflib.get_close_matches(key, [p.casefold() for p in players], n=1, cutoff=0.6)
        hint = ""
        if close:
            hint = _("did you mean {name}? ").format(
                name=next(p for p in players if p.casefold() == close[0]))
        raise EveningError(_("{what}: {seat} is not a player ({hint}the players: "
                             "{players})").format(
            what=what, seat=quote(seat), hint=hint, players=', '.join(players)))
    raise EveningError(_("{what}: give a player's name or a seat number, not {seat}").format(
        what=what, seat=quote(seat)))
