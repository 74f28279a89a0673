"""The pages for people: the start page and the disputes desk (server-side templates; the
templates escape every text, and the drawings' HTML is herzla's own, escaped as it is written).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, render_template, request
from markupsafe import Markup

from herzla.draw.html import CSS as DRAWING_CSS
from herzla.web.config import state
from herzla.web.desk import (
    TALLY_FIELDS,
    DeskError,
    Ruling,
    contract_choices,
    rule_record,
    rule_tally,
)
from herzla.web.store import Kind

__all__ = ["blueprint"]

blueprint = Blueprint("pages", __name__)

#: the most evenings the start page lists
LISTED = 50


def _page(template: str, status: int = 200, **values: Any) -> Response:
    return Response(render_template(template, **values), status=status, mimetype="text/html")


@blueprint.get("/")
def start() -> Response:
    """The start page: the evenings kept here (the last changed first) and the desk."""
    store = state().store
    evenings = []
    for doc in store.list(Kind.EVENING, limit=LISTED):
        body = doc.body if isinstance(doc.body, dict) else {}
        players = body.get("players")
        names = [str(p) for p in players] if isinstance(players, list) else []
        evenings.append({"id": doc.id, "game": str(body.get("game", "")), "players": names,
                         "deals": len(body.get("deals") or [])
                         if isinstance(body.get("deals"), list) else 0})
    return _page("start.html", evenings=evenings, more=store.count(Kind.EVENING) - LISTED)


def _desk(status: int = 200, ruling: Ruling | None = None, error: str | None = None,
          form: dict[str, str] | None = None, mode: str = "tally") -> Response:
    return _page("desk.html", status, ruling=ruling, error=error, form=form or {}, mode=mode,
                 choices=contract_choices(),
                 drawing=Markup(ruling.drawing) if ruling and ruling.drawing else None,
                 explanation=Markup(ruling.explanation) if ruling else None)


@blueprint.get("/desk")
def desk() -> Response:
    """The disputes desk: a tally or a hand record in, the ruling out."""
    mode = "record" if request.args.get("mode") == "record" else "tally"
    return _desk(mode=mode)


@blueprint.post("/desk")
def desk_ruling() -> Response:
    """The ruling on what the form holds (the form comes back filled in, under it)."""
    if request.form.get("mode") == "record":
        text = request.form.get("record", "")
        form = {"record": text, "review": "on" if request.form.get("review") else ""}
        try:
            ruling = rule_record(text, with_review=bool(request.form.get("review")))
        except DeskError as exc:
            return _desk(422, error=str(exc), form=form, mode="record")
        return _desk(ruling=ruling, form=form, mode="record")
    form = {k: request.form.get(k, "") for k in TALLY_FIELDS}
    try:
        ruling = rule_tally(form)
    except DeskError as exc:
        return _desk(422, error=str(exc), form=form)
    return _desk(ruling=ruling, form=form)


@blueprint.get("/drawing.css")
def drawing_css() -> Response:
    """The style of herzla's drawings (the hands, tricks and settlements the desk shows)."""
    return Response(DRAWING_CSS, mimetype="text/css")
