"""A table of people: two or more people play one deal, each by the private link of their own
seat, the computer in the other seats.  What a table of one person does (play, announce, hint,
the next deal) each person does for their own seat (:mod:`herzla.table.actions`, with
``seat``, and :func:`~herzla.table.actions.leave`: the computer takes over the seat of a
person who has left); what is the people's own is here: taking back one's last card while its
trick is still open, and the review of one's cards once the hand is over (asked for, not made
for everyone at the last card).

>>> from herzla.table import new_table, play, position
>>> t = new_table("herzla", "normal", people=[0, 1], opponents="heuristic", seed=3)
>>> [p.seat for p in t.people], position(t).to_dict(0)["record"] is None
([0, 1], True)
>>> p = position(t)
>>> t = play(t, p.legal(p.to_move)[0], p.to_move)
>>> sorted(t.humans), review_for(t, 0)
Traceback (most recent call last):
herzla.table.model.TableStateError: the review comes once the hand is over
"""

from __future__ import annotations

import secrets
from typing import Any

import attrs

from herzla.evening import Evening, EveningError
from herzla.evening.names import check_names
from herzla.i18n import _
from herzla.quote import quote
from herzla.table.model import Table, TableError, TableStateError
from herzla.table.position import position

__all__ = ["may_undo", "name_seat", "review_for", "seat_again", "undo_own"]


def name_seat(table: Table, seat: int, name: object) -> Table:
    """The table with the person in ``seat`` called ``name`` (asked once, when they open their
    seat's link): every page, drawing, review and hint, and the table's evening, then call the
    seat by it.  A name is checked as an evening's names are (1 to 40 printable characters,
    not a number, not another player's name); TableError says what is wrong."""
    persons = {p.seat: p for p in table.people}
    if seat not in persons:
        raise TableStateError(_("only a person's seat at a table of people takes a name"))
    names = list(table.players)
    names[seat] = name if isinstance(name, str) else ""
    wanted = " ".join(names[seat].split()).casefold()
    if any(other.casefold() == wanted for s, other in enumerate(table.players) if s != seat):
        raise TableError(_("%(name)s plays at this table already: give another name")
                         % {"name": quote(" ".join(names[seat].split()))})
    try:
        checked = check_names(names)
    except EveningError as exc:
        raise TableError(str(exc).replace(f"player {seat + 1}: ", "", 1)) from None
    evening = table.evening
    if evening is not None:
        evening = Evening.from_json({**evening.to_json(), "players": list(checked)})
    people = tuple(attrs.evolve(p, named=True) if p.seat == seat else p for p in table.people)
    return attrs.evolve(table, players=checked, evening=evening, people=people)


def seat_again(table: Table, seat: int) -> Table:
    """A person sits down again in ``seat``, which the computer has played since its person
    left: the seat gets a new key (the old one opens nothing any more), and the person plays
    it from the next move on.  TableStateError for a seat a person plays now."""
    persons = {p.seat: p for p in table.people}
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in persons:
        raise TableError(_("seat: one of the people's seats ({seats}), not {seat}").format(
            seats=", ".join(map(str, persons)), seat=quote(seat)))
    if not persons[seat].left:
        raise TableStateError(_("a person plays %(name)s's seat already")
                              % {"name": table.players[seat]})
    fresh = attrs.evolve(persons[seat], key=secrets.token_urlsafe(24), left=False)
    return table.with_people(tuple(fresh if p.seat == seat else p for p in table.people),
                             table.asked)


def undo_own(table: Table, seat: int) -> Table:
    """The table as before the last move of the deal, when the person in ``seat`` made it and
    nobody has played after it: a card whose trick is still open (or a lay, or a pass), or
    the last announcement.  TableStateError says why not otherwise."""
    deal = table.deal
    pos = position(table)
    if pos.over:
        raise TableStateError(_("the hand is over: nothing to take back"))
    if deal.moves:
        hand = pos.hand.copy()  # the position stays the table's
        place = hand.trick_place
        last = hand.moves[-1]
        hand.undo()
        mover = hand.turn
        if mover != seat:
            raise TableStateError(_("%(name)s played last: only the last card may be taken "
                                    "back, by the one who played it")
                                  % {"name": table.players[mover]})
        if place is not None and place[1] == 1:
            raise TableStateError(_("your %(card)s closed the trick: it stays") % {"card": last})
        return table.with_deal(attrs.evolve(deal, moves=deal.moves[:-1]))
    if not deal.bids:
        raise TableStateError(_("nothing has been played or announced in this deal yet"))
    n = len(table.players)
    last_bidder = (deal.dealer + 1 + len(deal.bids) - 1) % n
    if last_bidder != seat:
        raise TableStateError(_("%(name)s announced last: only the last announcement may be "
                                "taken back, by the one who made it")
                              % {"name": table.players[last_bidder]})
    return table.with_deal(attrs.evolve(deal, bids=deal.bids[:-1], contract=None,
                                        declarer=None, moves=()))


def may_undo(table: Table, seat: int) -> bool:
    """True when the person in ``seat`` may take back the deal's last move now
    (:func:`undo_own`)."""
    try:
        undo_own(table, seat)
    except TableStateError:
        return False
    return True


def review_for(table: Table, seat: int) -> dict[str, Any]:
    """The review of the cards of ``seat`` once the hand is over (``herzla review --json``'s
    answer; ``{"error": why}`` where there is none)."""
    from herzla.analysis.review import review_or_why

    pos = position(table)
    if not pos.over:
        raise TableStateError(_("the review comes once the hand is over"))
    done = review_or_why(pos.current_record(), seat=seat)
    return {"error": done} if isinstance(done, str) else done
