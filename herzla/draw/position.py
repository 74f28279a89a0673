"""A position as text: what ``str(hand)`` and ``str(view)`` show (the drawing of ``herzla show``
for a hand in progress, and what one seat sees for a view).

>>> import herzla
>>> hand = herzla.deal_record("herzla", "normal", seed=7).start()
>>> for code in ("CT", "S8", "C9", "C7"):
...     _ = hand.play(code)
>>> print(str(hand).splitlines()[0])
herzla normal: 4 players, dealer seat 3, forehand seat 0, stock 0c
>>> print(str(hand).splitlines()[-1])
To play: seat 0, trick 2
>>> from herzla.players.views import view_of
>>> print(view_text(view_of(hand), faces="french", unicode=False))
herzla normal: seat 0 to play, trick 2
  hand  C A J   S 10   H K 9   D Q J
  legal CJ CA ST DJ DQ
Tricks
  1  seat 0 leads  C10 S8 C9 C7  won by seat 0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from herzla.cards import Card, cards_of
from herzla.draw.course import course
from herzla.draw.faces import Faces, faces_of
from herzla.draw.text import _hand_lines, _Style, draw_text
from herzla.hand import Hand
from herzla.i18n import _
from herzla.players.views import LayoutView, TrickView, views_of
from herzla.records import sort_hand

__all__ = ["hand_text", "renderers", "view_text"]


def hand_text(hand: Hand) -> str:
    """The hand so far as ``herzla show`` draws it (the hands dealt, the play), and whose turn it
    is."""
    try:
        lines = [draw_text(course(hand.record()))]
    except ValueError as exc:  # a copy holding other cards (a sampled world) is no record
        lines = [f"{hand.contract.game} {hand.contract.id}: {exc}"]
    place = hand.trick_place
    if hand.over:
        lines.append(_("The hand is over."))
    elif place is not None:
        lines.append(_("To play: seat {seat}, trick {trick}").format(seat=hand.turn,
                                                                     trick=place[0]))
    else:
        lines.append(_("To play: seat {seat}").format(seat=hand.turn))
    return "\n".join(lines)


def view_text(view: TrickView | LayoutView, faces: str | Faces | None = None,
              unicode: bool = True) -> str:
    """What the seat of ``view`` sees: its hand, its legal moves, the play so far."""
    c = view.contract
    style = _Style(faces_of(c, faces), unicode, False, c.game)
    hand = _hand_lines([sort_hand(cards_of(view.hand), c)], style)[0]
    tricks, rows = views_of(view)  # a trick deal draws its tricks, a layout deal its rows
    if tricks is not None:
        head, play = _tricks(tricks, style)
    else:
        assert rows is not None
        head, play = _laid(rows)
    labels = [_("hand"), _("legal")]
    width = max(len(label) for label in labels) + 1
    return "\n".join([f"{c.game} {c.id}: {head}", f"  {labels[0]:<{width}}{hand[0]}",
                      *(f"  {'':<{width}}{more}" for more in hand[1:] if more.strip()),
                      f"  {labels[1]:<{width}}{' '.join(str(m) for m in view.legal_moves())}",
                      *play])


def _tricks(view: TrickView, style: _Style) -> tuple[str, list[str]]:
    """(who is to play where, the tricks so far) of a trick deal's view."""
    lines = [_("Tricks") if view.tricks or view.trick else _("Tricks: none played yet")]
    for i, t in enumerate(view.tricks, 1):
        lines.append("  " + _("{number}  seat {seat} leads  {cards}  won by seat {winner}").format(
            number=i, seat=t.leader, cards=_cards(t.cards, style), winner=t.winner))
    if view.trick:
        lines.append("  " + _("{number}  seat {seat} leads  {cards}  (seat {winner} wins so "
                              "far)").format(number=len(view.tricks) + 1, seat=view.leader,
                                             cards=_cards(view.trick, style),
                                             winner=view.winner))
    return _("seat {seat} to play, trick {trick}").format(seat=view.seat,
                                                          trick=view.trick_number), lines


def _laid(view: LayoutView) -> tuple[str, list[str]]:
    """(who is to play, the turns so far and the cards each seat holds) of a layout deal's
    view."""
    moves = [_("seat {seat} passes").format(seat=s) if lay is None else
             _("seat {seat} {lay}").format(seat=s, lay=lay) for s, lay in view.history]
    held = "  ".join(_("seat {seat} {count}").format(seat=s, count=k)
                     for s, k in enumerate(view.counts))
    return _("seat {seat} to play").format(seat=view.seat), [
        _("Laid: {moves}").format(moves=", ".join(moves)) if moves else _("Laid: nothing yet"),
        _("Cards held: {counts}").format(counts=held)]


def _cards(cards: tuple[Card, ...], style: _Style) -> str:
    return " ".join(style.card(card)[0] for card in cards)


def renderers() -> dict[str, Callable[[Any], str]]:
    """What ``str()`` of a hand and of a view shows, by the kinds :mod:`herzla.display` names
    (``Hand``, ``View``)."""
    return {"Hand": hand_text, "View": view_text}
