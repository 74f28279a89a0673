"""A whole hand as the app's pages show it at its end (the table) and in a ruling (the desk):
each player's hand as dealt and, trick by trick, the cards in the order played with who led
and who took it, drawn with the app's card faces and called by the players' names, in the
page's own type (it reflows on a phone: nothing scrolls sideways, nothing is cut); then the
explanation of every amount with its rule and the review, as herzla's drawings write them,
each seat called by its name.  A layout deal's rounds come as herzla's drawing writes them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from herzla.draw.course import Course, Mark
from herzla.draw.html import explanation_html, hand_html, review_html
from herzla.evening.deal import named
from herzla.web.page_parts import Look, card_view, faces_for, named_html
from herzla.web.speech import _

__all__ = ["hand_view"]

_FIGURE = re.compile(r"<figure>.*?</figure>", re.DOTALL)


def hand_view(c: Course, names: Sequence[str], review: Mapping[str, Any] | None = None,
              faces: Look | None = None) -> dict[str, Any]:
    """What the template ``hand.html`` draws of the hand ``c``: ``hands`` (each player's
    name, roles and cards as dealt), ``tricks`` (each trick's cards in the order played, with
    the player's name and its marks, the leader and the taker), ``explanation`` and
    ``review`` (HTML, each seat by its name) and, for a layout deal, ``rounds`` (HTML)."""
    look = faces or faces_for(c.contract)
    f = look.faces
    n = c.record.players
    shown = [names[s] if s < len(names) else _("Seat %(n)s") % {"n": s + 1} for s in range(n)]
    roles = {"forehand": _("forehand"), "dealer": _("dealer"), "declarer": _("declarer")}
    hands = [{"name": shown[s], "roles": [roles.get(r, r) for r in c.roles(s)],
              "cards": [card_view(x, look)
                        for x in sorted(h, key=lambda x: (x.suit, -x.rank))]}
             for s, h in enumerate(c.record.hands)]
    tricks = []
    for t in c.tricks or ():
        tricks.append({"k": t.number, "leader": shown[t.leader],
                       "winner": shown[t.winner] if t.winner is not None else None,
                       "notes": [named(x, shown) for x in t.notes],
                       "cards": [{"view": card_view(p.card, look), "name": shown[p.seat],
                                  "won": Mark.WINNER in p.marks, "void": Mark.DISCARD in p.marks,
                                  "illegal": Mark.ILLEGAL in p.marks} for p in t.cards]})
    lines = list(c.result.explanation)
    ruling = c.result.ruling
    ruled = None
    if ruling is not None:
        lines += ruling.explanation
        ruled = (_("A renege by %(name)s, established (option renege=%(option)s)")
                 if ruling.established else _("A renege by %(name)s, corrected: no penalty")) % {
            "name": shown[ruling.seat], "option": ruling.option}
    # where there is no trick to list (a layout deal's rounds, or no card played yet) the play
    # comes as herzla's drawing writes it, less the picture
    rounds = None if tricks else named_html(_FIGURE.sub("", hand_html(c, f, title="")), shown)
    return {"hands": hands, "tricks": tricks, "rounds": rounds,
            "explanation": named_html(explanation_html(lines), shown) if lines else None,
            "review": named_html(review_html(review, c, f), shown) if review else None,
            "ruling": ruled}
