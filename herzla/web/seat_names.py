"""The seats' names as the pages show them: a person's own name, the name the table's creator
gave, or the seat counted from 1; the computer's seats and the one person of a table against
the computer ("You") in the page's language, whatever language the table was made in."""

from __future__ import annotations

import re

from herzla.table import Table
from herzla.table.actions import YOU
from herzla.web.speech import _

__all__ = ["PLAYER", "shown_names"]

_COMPUTER = re.compile(r"Computer (\d+)")
#: the name a table of people gives a seat before its person names it
PLAYER = re.compile(r"Player (\d+)")


def shown_names(table: Table) -> list[str]:
    """The seats' names as the pages show them: a person's own name once given, or the one
    the table's creator gave (a person without either: their seat, counted from 1), the
    computer's seats and the one person of a table against the computer in the page's
    language."""
    persons = {p.seat: p for p in table.people}
    out = []
    for s, name in enumerate(table.players):
        person = persons.get(s)
        computer = _COMPUTER.fullmatch(name) if person is None else None
        if person is not None and not person.named and PLAYER.fullmatch(name):
            out.append(_("Seat {n}").format(n=s + 1))
        elif not table.of_people and s == table.seat and name == YOU:
            out.append(_("You"))
        elif computer is not None:
            out.append(_("Computer {k}").format(k=computer.group(1)))
        else:
            out.append(name)
    return out
