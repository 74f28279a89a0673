"""The pages for people: the start page (the evenings and tables kept, and the forms that start
them) and the disputes desk (server-side templates; the templates escape every text, and the
drawings' HTML is herzla's own, escaped as it is written).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, Response, request

from herzla.draw.html import CSS as DRAWING_CSS
from herzla.evening.deal import named
from herzla.players.policy import PolicyError
from herzla.table import TableError
from herzla.web import evening_docs, table_docs
from herzla.web.advice import level_name
from herzla.web.choices import contract_choices
from herzla.web.config import state
from herzla.web.desk import (
    TALLY_FIELDS,
    DeskError,
    DeskRuling,
    chips_read,
    names_of,
    rule_record,
    rule_tally,
    tally_form,
)
from herzla.web.desk_hand import Tapping, start_tapping
from herzla.web.hand_view import hand_view
from herzla.web.page_parts import card_view, faces_for, named_html, page
from herzla.web.seat_names import shown_names
from herzla.web.speech import _
from herzla.web.store import Kind

__all__ = ["blueprint"]

blueprint = Blueprint("pages", __name__)

#: the most evenings the start page lists
LISTED = 50


def _game_title(game: str) -> str:
    """A game's title in the page's language (its id where it is not installed)."""
    from herzla.contracts import get_game

    try:
        return _(get_game(game).title)
    except (LookupError, ValueError):
        return game


def _listed(kind: Kind) -> list[dict[str, Any]]:
    out = []
    for doc in state().store.list(kind, limit=LISTED):
        body = doc.body if isinstance(doc.body, dict) else {}
        players = body.get("players")
        names = [str(p) for p in players] if isinstance(players, list) else []
        if kind is Kind.TABLE:
            with contextlib.suppress(TableError):  # a table this herzla cannot read: as kept
                names = shown_names(table_docs.read(doc))
        deals = body.get("deals")
        deal = body.get("deal") if isinstance(body.get("deal"), dict) else {}
        about = evening_docs.about(doc) if kind is Kind.EVENING else None
        game = str(body.get("game", ""))
        out.append({"id": doc.id, "game": game, "title": _game_title(game), "players": names,
                    "about": about,
                    "deals": len(deals) if isinstance(deals, list) else 0,
                    "opponents": str(body.get("opponents", "")),
                    "level": level_name(str(body.get("opponents", ""))),
                    "deal": deal.get("k") if isinstance(deal, dict) else None})
    return out


def start_with(status: int = 200, error: str | None = None,
               form: dict[str, str] | None = None) -> Response:
    """The start page: the evenings and tables kept here (the last changed first), the forms
    that start them, the import and the desk (``error``: what a form sent was refused for)."""
    from herzla.contracts import games, get_game
    from herzla.players.registry import policy_names
    from herzla.table.model import AWAY
    from herzla.web.choices import away_choices, table_choices
    from herzla.web.qr import qr_image

    store = state().store
    url = state().config.url
    join = {"url": url, "image": qr_image(url)} if url else None
    kept = _listed(Kind.EVENING)
    return page("start.html", status, join=join,
                 evenings=[e for e in kept if not e["about"].archived],
                 archived=[e for e in kept if e["about"].archived],
                 more=store.count(Kind.EVENING) - LISTED, tables=_listed(Kind.TABLE),
                 more_tables=store.count(Kind.TABLE) - LISTED, error=error, form=form or {},
                 games=[(g, _(get_game(g).title), get_game(g).player_counts())
                        for g in games()],
                 table_choices=table_choices(), policies=policy_choices(policy_names()),
                 away_choices=away_choices(), away_default=AWAY)


def policy_choices(names: Sequence[str]) -> list[tuple[str, str]]:
    """The start form's choices of the computer's play: (policy, label), the policies that
    have a level of play, each named for a player ("a club player"), weakest first; a
    policy's own name is never offered to people (the API still takes any)."""
    from herzla.players.registry import policy_of

    out = []
    for name in names:
        try:
            level = policy_of(name).level
        except PolicyError:  # an installed policy that does not load: not offered
            level = None
        if level:
            out.append((name, level_name(name)))
    return out


@blueprint.get("/")
def start() -> Response:
    """The start page."""
    return start_with()


def _desk(status: int = 200, ruling: DeskRuling | None = None, error: str | None = None,
          form: dict[str, str] | None = None, mode: str = "tally",
          tapping: Tapping | None = None) -> Response:
    taps = None
    ended = ruling is not None and ruling.ended  # an established renege ends the hand
    if tapping is not None:
        faces = faces_for(tapping.rec.contract)
        taps = [] if ended else [{"offer": o, "view": card_view(o.card, faces) if o.card
                                  else None} for o in tapping.offers()]
    tally = tally_form((form or {}).get("contract"), (form or {}).get("players"))
    try:
        names = names_of(chips_read(form or {}, tally.seats))
    except DeskError as exc:
        names, error, ruling = [], error or str(exc), None
    if ruling is not None and names and len(names) != ruling.players:
        error = error or (f"the players' names: {len(names)} given for {ruling.players} "
                          "seats, so the seats are called by their numbers")
        names = []
    return page("desk.html", status, ruling=ruling, error=error, form=form or {}, mode=mode,
                 tally=tally, more_open=any((form or {}).get(f) for f in tally.more),
                 names=names, seat_name=lambda s: names[s] if s < len(names) else seat_word(s),
                 chip_names=[names[s] if s < len(names) else seat_word(s)
                             for s in range(tally.seats)],
                 choices=contract_choices(), tapping=tapping, taps=taps,
                 tapped_over=tapping is not None and (tapping.seat is None or ended),
                 drawing=hand_view(ruling.hand, names, ruling.review)
                 if ruling and ruling.hand else None,
                 explanation=named_html(ruling.explanation, names) if ruling else None,
                 illegal=named(ruling.illegal, names) if ruling and ruling.illegal else None)


#: the tally form's taps and names, one field a seat (``hearts-2``, ``name-0``)
_CHIP = re.compile(r"(?:hearts|tricks|order|captured|name)-\d{1,2}")


def seat_word(seat: int) -> str:
    """A seat without a name, counted from 1: "Seat 1"."""
    return _("Seat %(n)s") % {"n": seat + 1}


@blueprint.get("/desk")
def desk() -> Response:
    """The disputes desk: a tally, a hand tapped in card by card, or a hand record in, the
    ruling out."""
    mode = request.args.get("mode")
    if mode in ("record", "hand"):
        return _desk(mode=mode)
    asked = {k: v[:80] for k, v in request.args.items()
             if k in ("contract", "players") or _CHIP.fullmatch(k)}
    return _desk(form=asked)


def _tapped() -> Response:
    """A hand tapped in card by card: set up, a card tapped, the last one taken back, or
    ruled on (with the review); the hand so far comes back with the ruling so far."""
    action = "start" if request.form.get("mode") == "hand-start" else (
        request.form.get("action") or ("tap" if "tap" in request.form else "show"))
    form = {k: request.form.get(k, "") for k in ("contract", "players", "dealer", "declarer",
                                                 "stock", "options", "hands", "seed", "names")}
    try:
        if action == "start":
            tapping = start_tapping(form)
        else:
            tapping = Tapping.from_text(request.form.get("record", ""))
            if action == "tap":
                if tapping.record["plays"] and rule_record(tapping.text(),
                                                           with_review=False).ended:
                    raise DeskError(_("the hand is over: the renege is established, and "
                                      "the ruling scores the hand where it stopped"))
                tapping = tapping.tapped(request.form.get("tap", ""))
            elif action == "back":
                tapping = tapping.back()
    except DeskError as exc:
        return _desk(422, error=str(exc), form=form, mode="hand")
    review = action == "rule"
    try:
        ruling = rule_record(tapping.text(), with_review=review) if tapping.record["plays"] \
            else None
    except DeskError as exc:
        return _desk(422, error=str(exc), form=form, mode="hand", tapping=tapping)
    return _desk(ruling=ruling, form=form, mode="hand", tapping=tapping)


@blueprint.post("/desk")
def desk_ruling() -> Response:
    """The ruling on what the form holds (the form comes back filled in, under it)."""
    if (request.form.get("mode") or "").startswith("hand-"):
        return _tapped()
    if request.form.get("mode") == "record":
        text = request.form.get("record", "")
        form = {"record": text, "review": "on" if request.form.get("review") else "",
                "names": request.form.get("names", "")}
        try:
            ruling = rule_record(text, with_review=bool(request.form.get("review")))
        except DeskError as exc:
            return _desk(422, error=str(exc), form=form, mode="record")
        return _desk(ruling=ruling, form=form, mode="record")
    raw = {k: v for k, v in request.form.items() if k in TALLY_FIELDS or _CHIP.fullmatch(k)}
    form = chips_read(raw, tally_form(raw.get("contract"), raw.get("players")).seats)
    try:
        ruling = rule_tally(form)
    except DeskError as exc:
        return _desk(422, error=str(exc), form=form)
    return _desk(ruling=ruling, form=form)


@blueprint.get("/drawing.css")
def drawing_css() -> Response:
    """The style of herzla's drawings (the hands, tricks and settlements the desk shows)."""
    return Response(DRAWING_CSS, mimetype="text/css")
