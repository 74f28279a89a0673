"""The score pad's pages: an evening started from the start page, its pad at ``/evenings/{id}``
(a deal entered in a few taps, any deal corrected or deleted, undo, the totals and the stock,
the settlement or winners, the statistics and the picture), the export links and the import.
Each form carries the revision it was shown at: a change from a stale page is refused (409)
and the pad shows what it holds now and what changed since the page was shown, with the form
as it was sent, for the person to send again or drop (never filed under the next number
unasked).  The deal form carries a one-time key as well: sent twice (a double tap, a resend),
it adds its deal once."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from typing import Any

from flask import Blueprint, redirect, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from herzla.contracts import contract_classes, get_game
from herzla.counting import read_whole
from herzla.draw.evening import evening_svg
from herzla.evening import Evening, EveningError
from herzla.evening.deal import named
from herzla.evening.text import kind_of, next_sentence, outcome_lines, stats_line
from herzla.options import OptionError
from herzla.quote import quote
from herzla.records import RecordError, load_json_text, signed
from herzla.web import evening_docs as docs
from herzla.web.config import state
from herzla.web.pad_form import FormError, entry_of, form_of, panel
from herzla.web.page_parts import card_view, euros, faces_for, form_revision, load, page, with_euros
from herzla.web.request_fields import options_of_text
from herzla.web.speech import _, cents, ngettext, signed_number
from herzla.web.store import Document, Kind, StaleRevision

__all__ = ["MAX_PLAYERS_FORM", "blueprint"]

blueprint = Blueprint("pad", __name__)

#: the name fields of the new-evening form
MAX_PLAYERS_FORM = 8


def _choices(e: Evening) -> list[tuple[str, str]]:
    """The contracts the next deal may be: (id, title)."""
    fixed = e.next_contract
    n = len(e.players)
    return [(c.id, _(c.title) if c.title else c.id) for c in contract_classes(e.game)
            if (fixed is None or c.id == fixed) and c.player_count_problem(n) is None]


def _what_changed(e: Evening, shown: int | None, last: str | None) -> str:
    """What the evening got since a page showing ``shown`` deals, in a sentence."""
    if shown is not None and len(e.deals) > shown:
        new = e.deals[shown:]
        said = "; ".join(
            _("deal %(k)s, %(what)s") % {"k": d.k, "what": _(d.contract.title)
                                         if d.contract.title else d.contract.id}
            + (f" ({' '.join(signed_number(v) for v in d.scores)})" if d.scores is not None
               else "")
            for d in new)
        return ngettext("this deal was entered from another phone meanwhile: %(said)s",
                        "these deals were entered from another phone meanwhile: %(said)s",
                        len(new)) % {"said": said}
    return _("it was changed from another phone meanwhile (%(what)s)") % {
        "what": last or _("a deal changed")}


def show(doc: Document, e: Evening, status: int = 200, *, error: str | None = None,
         form: Mapping[str, str] | None = None, contract: str | None = None,
         edit: int | None = None, stale: str | None = None, notice: str | None = None
         ) -> Response:
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
    ids = [c for c, _title in choices]
    if contract is None or contract not in ids:
        contract = e.next_contract or (ids[0] if ids else None)
    p = panel(e, contract) if contract is not None else None
    if form is None and entry is not None and not entry.is_record and p is not None:
        form = form_of(entry.to_json(), p)
    g = get_game(e.game)
    unit = "c" if g.has_stock else ""
    faces = faces_for(p.contract) if p is not None else None
    owners = [card_view(c, faces) for c in p.cards] if p is not None and faces else []
    about = docs.about(doc)
    money = about.money and g.has_stock
    outcome = outcome_lines(e)
    kept = (form or {}).get("key", "")
    key = kept if 8 <= len(kept) <= 64 and docs.entered_as(doc, kept) is None \
        else secrets.token_urlsafe(12)
    return page("pad.html", status, doc=doc, e=e, p=p, form=form or {}, choices=choices,
                contract=contract, edit=edit, entry=entry, error=error, unit=unit,
                key=key, stale=stale, notice=notice, kind_of=kind_of, named=named, about=about,
                money=money, euros=euros,
                points=(lambda v: cents(v, sign=True)) if g.has_stock else signed_number,
                share=share_text(e, about, g.title, money),
                signed=signed, owners=owners, over=e.over,
                next=next_sentence(e),
                outcome=[with_euros(x) for x in outcome] if money else outcome,
                stats=[stats_line(e, s) for s in e.statistics()] if e.deals else [],
                last=e.history[-1].describe() if e.history else None,
                picture=Markup(evening_svg(e, standalone=False)) if e.deals else None,
                narrow=Markup(evening_svg(e, standalone=False, narrow=True))
                if e.deals else None,
                has_stock=g.has_stock, seats=range(len(e.players)), game_title=_(g.title))


def share_text(e: Evening, about: docs.About, title: str, money: bool) -> str:
    """The evening's result as a text to send to the others: its name and date, the deals,
    each player's total, and the settlement or the winners."""
    stocked = e.stock is not None

    def amount(v: int) -> str:
        said = cents(v, sign=True) if stocked else signed_number(v)
        return said + (f" ({euros(v, sign=True)})" if money else "")

    name = about.name or _("%(game)s evening") % {"game": title}
    head = ngettext("%(name)s, %(date)s: %(num)s deal", "%(name)s, %(date)s: %(num)s deals",
                    len(e.deals)) % {"name": name, "date": about.date, "num": len(e.deals)}
    lines = [head, *(f"{p} {amount(t)}" for p, t in zip(e.players, e.totals, strict=True))]
    if e.stock is not None:
        lines.append(_("stock %(amount)s") % {"amount": cents(e.stock)}
                     + (f" ({euros(e.stock)})" if money else ""))
    outcome = outcome_lines(e)
    lines += [with_euros(x) for x in outcome] if money else outcome
    return "\n".join(lines)


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
    the pad again, with the problem (what changed meanwhile) and the form as sent.  A deal
    form (``form`` with its one-time ``key``) whose key made a deal already is the pad with
    that deal, and nothing added."""
    key = (form or {}).get("key") if edit is None else None
    try:
        docs.change(state().store, doc_id, how, form_revision(),
                    deals=state().config.max_deals, key=key or None)
    except (StaleRevision, docs.AlreadyEntered) as exc:
        doc, e = load(Kind.EVENING, doc_id, docs.read)
        k = docs.entered_as(doc, key)
        if k is not None:
            return show(doc, e, 200, notice=str(docs.AlreadyEntered(k)))
        if not form:
            return show(doc, e, 409, error=str(exc))
        shown = (form.get("shown") or "").strip()
        changed = _what_changed(e, read_whole(shown, digits=7),
                                e.history[-1].describe() if e.history else None)
        return show(doc, e, 409, stale=_("This evening changed after your page was shown: "
                                         "%(what)s.") % {"what": changed},
                    form=form, contract=contract, edit=edit)
    except docs.Closed as exc:
        doc, e = load(Kind.EVENING, doc_id, docs.read)
        return show(doc, e, 409, error=str(exc))
    except (EveningError, FormError) as exc:
        doc, e = load(Kind.EVENING, doc_id, docs.read)
        taker = _all_hearts(e, form or {}, contract)
        if taker is not None:
            return show(doc, e, 422, error=_(
                "%(name)s captured every heart. Did %(name)s also win every trick (a "
                "Schleichermord)? Give the tricks each player won under \u201cMore tallies\u201d, "
                "below.") % {"name": e.players[taker]}, form={**(form or {}), "mtricks": "1"},
                contract=contract, edit=edit)
        return show(doc, e, 422, error=str(exc), form=form, contract=contract, edit=edit)
    return redirect(url_for("pad.pad_page", doc_id=doc_id) + anchor, 303)


def _all_hearts(e: Evening, form: Mapping[str, str], contract: str | None) -> int | None:
    """The seat the deal form gives every heart, with no tricks told (the tally needs them
    then, to tell a Schleichermord), or None."""
    if not form or contract is None:
        return None
    try:
        p = panel(e, contract)
    except (EveningError, FormError, LookupError, ValueError):
        return None
    if "hearts" not in p.asks or any(form.get(f"tricks-{s}") for s in range(len(e.players))):
        return None
    counts = [read_whole((form.get(f"hearts-{s}") or "0").strip(), digits=3)
              for s in range(len(e.players))]
    most = p.most.get("hearts", 0)
    takers = [s for s, c in enumerate(counts) if c == most]
    return takers[0] if most and len(takers) == 1 and sum(c or 0 for c in counts) == most \
        else None


def _entry(e: Evening, form: Mapping[str, str]) -> dict[str, Any]:
    contract = form.get("contract") or e.next_contract
    if not contract:
        raise FormError(_("choose the contract"))
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


#: what the "This evening" form's buttons do: the flags they set
ABOUT_ACTIONS: dict[str, dict[str, bool]] = {
    "close": {"closed": True}, "reopen": {"closed": False},
    "archive": {"archived": True, "closed": True}, "unarchive": {"archived": False},
}


@blueprint.post("/evenings/<doc_id>/about")
def about_evening(doc_id: str) -> Response:
    """The evening renamed, for money or not (``save``), closed, reopened, archived (and so
    closed) or taken out of the archive."""
    action = request.form.get("action") or "save"
    try:
        if action == "save":
            changes: dict[str, object] = {"name": docs.name_of(request.form.get("name")),
                                          "money": request.form.get("money") == "on"}
        elif action in ABOUT_ACTIONS:
            changes = dict(ABOUT_ACTIONS[action])
        else:
            raise EveningError(_("the evening's form has no action %(what)s")
                               % {"what": quote(action[:20])})
        docs.set_about(state().store, doc_id, form_revision(), **changes)
    except StaleRevision as exc:
        doc, e = load(Kind.EVENING, doc_id, docs.read)
        return show(doc, e, 409, error=str(exc))
    except EveningError as exc:
        doc, e = load(Kind.EVENING, doc_id, docs.read)
        return show(doc, e, 422, error=str(exc))
    return redirect(url_for("pad.pad_page", doc_id=doc_id) + "#about", 303)


@blueprint.post("/evenings/<doc_id>/delete")
def delete_evening(doc_id: str) -> Response:
    """The evening removed (the form must say so twice: the box ticked)."""
    doc, e = load(Kind.EVENING, doc_id, docs.read)
    if request.form.get("sure") != "yes":
        return show(doc, e, 422, error=_("tick the box to delete the whole evening"))
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
            raise EveningError(_("the stock is a whole number of cents, not %(text)s")
                               % {"text": quote(stock[:20])})
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
        doc, _made = docs.create(state().store, new_evening_body(form),
                             most=state().config.max_evenings,
                             name=docs.name_of(form.get("name")), money=form.get("money") == "on")
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
            return start(422, error=_("the file is not UTF-8 text: not an evening's file"))
    if not text.strip():
        return start(422, error=_("choose an evening's file (or paste one) to import"))
    try:
        obj = load_json_text(text)
    except RecordError as exc:
        return start(422, error=_("the file is not JSON: %(why)s") % {"why": exc})
    try:
        doc, _made = docs.import_file(state().store, obj, most=state().config.max_evenings,
                                  deals=state().config.max_deals)
    except EveningError as exc:
        return start(422, error=_("the file is not an evening herzla can read: %(why)s")
                     % {"why": exc})
    return redirect(url_for("pad.pad_page", doc_id=doc.id), 303)
