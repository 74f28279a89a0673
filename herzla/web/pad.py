"""The score pad's pages: an evening started from the start page, its pad at ``/evenings/{id}``
(a deal entered in a few taps, any deal corrected or deleted, undo, the totals and the stock,
the settlement or winners, the statistics and the picture), the export links and the import.
Each form carries the revision it was shown at: a change from a stale page is refused (409)
and the pad shows what it holds now, with the form as it was sent."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, redirect, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from herzla.contracts import contract_classes, get_game
from herzla.counting import read_whole
from herzla.draw.evening import evening_svg
from herzla.evening import Evening, EveningError
from herzla.evening.text import next_sentence, outcome_lines, stats_line
from herzla.options import OptionError
from herzla.records import RecordError, load_json_text, signed
from herzla.web import evening_docs as docs
from herzla.web.bodies import options_of_text
from herzla.web.config import state
from herzla.web.pad_form import FormError, entry_of, form_of, panel
from herzla.web.render import card_view, faces_for, form_revision, load, page
from herzla.web.store import Document, Kind, StaleRevision

__all__ = ["MAX_PLAYERS_FORM", "blueprint"]

blueprint = Blueprint("pad", __name__)

#: the name fields of the new-evening form
MAX_PLAYERS_FORM = 8


def _choices(e: Evening) -> list[tuple[str, str]]:
    """The contracts the next deal may be: (id, title)."""
    fixed = e.next_contract
    n = len(e.players)
    return [(c.id, c.title or c.id) for c in contract_classes(e.game)
            if (fixed is None or c.id == fixed) and c.player_count_problem(n) is None]


def show(doc: Document, e: Evening, status: int = 200, *, error: str | None = None,
         form: Mapping[str, str] | None = None, contract: str | None = None,
         edit: int | None = None) -> Response:
    """The pad of ``e`` (kept as ``doc``): the deal form for the next deal (or for correcting
    deal ``edit``), the deals, the totals and everything the evening tells."""
    choices = _choices(e)
    entry = None
    if edit is not None and 1 <= edit <= len(e.deals):
        deal = e.deals[edit - 1]
        entry = deal.entry
        contract = contract or deal.contract.id
    else:
        edit = None
    ids = [c for c, _ in choices]
    if contract is None or contract not in ids:
        contract = e.next_contract or (ids[0] if ids else None)
    p = panel(e, contract) if contract is not None else None
    if form is None and entry is not None and not entry.is_record and p is not None:
        form = form_of(entry.to_json(), p)
    g = get_game(e.game)
    unit = "c" if g.has_stock else ""
    faces = faces_for(p.contract) if p is not None else None
    owners = [card_view(c, faces) for c in p.cards] if p is not None and faces else []
    return page("pad.html", status, doc=doc, e=e, p=p, form=form or {}, choices=choices,
                contract=contract, edit=edit, entry=entry, error=error, unit=unit,
                signed=signed, owners=owners, over=e.over,
                next=next_sentence(e),
                outcome=outcome_lines(e), stats=[stats_line(e, s) for s in e.statistics()]
                if e.deals else [],
                last=e.history[-1].describe() if e.history else None,
                picture=Markup(evening_svg(e, standalone=False)) if e.deals else None,
                has_stock=g.has_stock, seats=range(len(e.players)), game_title=g.title)


@blueprint.get("/evenings/<doc_id>")
def pad_page(doc_id: str) -> Response:
    """The pad (``?contract=`` the contract of the deal form, ``?edit=K`` correct deal K)."""
    doc, e = load(Kind.EVENING, doc_id, docs.read)
    edit = request.args.get("edit", "")
    return show(doc, e, contract=request.args.get("contract"),
                edit=read_whole(edit, digits=7))


def _changed(doc_id: str, how: Callable[[Evening], Evening], anchor: str,
             form: Mapping[str, str] | None = None, contract: str | None = None,
             edit: int | None = None) -> Response:
    """Apply ``how`` and go back to the pad; a stale page or a change that does not fit is
    the pad again, with the problem and the form as sent."""
    try:
        docs.change(state().store, doc_id, how, form_revision(), deals=state().config.max_deals)
    except StaleRevision as exc:
        doc, e = load(Kind.EVENING, doc_id, docs.read)
        return show(doc, e, 409, error=f"{exc} (your entry is below, as you sent it)",
                    form=form, contract=contract, edit=edit)
    except (EveningError, FormError) as exc:
        doc, e = load(Kind.EVENING, doc_id, docs.read)
        return show(doc, e, 422, error=str(exc), form=form, contract=contract, edit=edit)
    return redirect(url_for("pad.pad_page", doc_id=doc_id) + anchor, 303)


def _entry(e: Evening, form: Mapping[str, str]) -> dict[str, Any]:
    contract = form.get("contract") or e.next_contract
    if not contract:
        raise FormError("choose the contract")
    return entry_of(form, panel(e, contract))


@blueprint.post("/evenings/<doc_id>/deals")
def add_deal(doc_id: str) -> Response:
    """The next deal, from the deal form."""
    form = request.form.to_dict()
    return _changed(doc_id, lambda e: e.add(_entry(e, form)), "#deals", form,
                    form.get("contract"))


@blueprint.post("/evenings/<doc_id>/deals/<int:k>")
def edit_deal(doc_id: str, k: int) -> Response:
    """Deal ``k`` corrected; every deal after it recomputed."""
    form = request.form.to_dict()
    return _changed(doc_id, lambda e: e.edit(k, _entry(e, form)), f"#deal-{k}", form,
                    form.get("contract"), k)


@blueprint.post("/evenings/<doc_id>/deals/<int:k>/delete")
def drop_deal(doc_id: str, k: int) -> Response:
    """Deal ``k`` deleted; every deal after it recomputed."""
    return _changed(doc_id, lambda e: e.drop(k), "#deals")


@blueprint.post("/evenings/<doc_id>/undo")
def undo(doc_id: str) -> Response:
    """The last change taken back."""
    return _changed(doc_id, lambda e: e.undo(), "#deals")


@blueprint.post("/evenings/<doc_id>/delete")
def delete_evening(doc_id: str) -> Response:
    """The evening removed (the form must say so twice: the box ticked)."""
    doc, e = load(Kind.EVENING, doc_id, docs.read)
    if request.form.get("sure") != "yes":
        return show(doc, e, 422, error="tick the box to delete the whole evening")
    try:
        state().store.delete(Kind.EVENING, doc_id, form_revision())
    except StaleRevision as exc:
        doc, e = load(Kind.EVENING, doc_id, docs.read)
        return show(doc, e, 409, error=str(exc))
    return redirect(url_for("pages.start"), 303)


def new_evening_body(form: Mapping[str, str]) -> dict[str, Any]:
    """The body of a new evening from the start page's form (``game``, ``player-0`` to
    ``player-7``, ``options`` as ``name=value`` items, ``stock``, ``dealer``)."""
    names = [(form.get(f"player-{i}") or "").strip() for i in range(MAX_PLAYERS_FORM)]
    body: dict[str, Any] = {"game": form.get("game") or "", "players": [n for n in names if n]}
    try:
        body["options"] = options_of_text(form.get("options"))
    except OptionError as exc:
        raise EveningError(str(exc)) from None
    stock = (form.get("stock") or "").strip()
    if stock:
        cents = read_whole(stock, digits=15)
        if cents is None:
            raise EveningError(f"the stock is a whole number of cents, not {stock[:20]!r}")
        body["stock"] = cents
    dealer = (form.get("dealer") or "").strip()
    if dealer:
        body["dealer"] = dealer
    return body


@blueprint.post("/evenings")
def new_evening() -> Response:
    """A new evening from the start page's form."""
    from herzla.web.pages import start_with as start

    form = request.form.to_dict()
    try:
        doc, _ = docs.create(state().store, new_evening_body(form),
                             most=state().config.max_evenings)
    except EveningError as exc:
        return start(422, error=str(exc), form=form)
    return redirect(url_for("pad.pad_page", doc_id=doc.id), 303)


@blueprint.post("/evenings/import")
def import_evening() -> Response:
    """A new evening from an evening's file, uploaded or pasted."""
    from herzla.web.pages import start_with as start

    upload = request.files.get("file")
    text = request.form.get("text") or ""
    if upload is not None and upload.filename:
        data = upload.read(state().config.max_body + 1)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return start(422, error="the file is not UTF-8 text: not an evening's file")
    if not text.strip():
        return start(422, error="choose an evening's file (or paste one) to import")
    try:
        obj = load_json_text(text)
    except RecordError as exc:
        return start(422, error=f"the file is not JSON: {exc}")
    try:
        doc, _ = docs.import_file(state().store, obj, most=state().config.max_evenings,
                                  deals=state().config.max_deals)
    except EveningError as exc:
        return start(422, error=f"the file is not an evening herzla can read: {exc}")
    return redirect(url_for("pad.pad_page", doc_id=doc.id), 303)
