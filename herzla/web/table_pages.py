"""The pages of a table against the computer: a table started from the start page, the table at
``/tables/{id}``: the person's cards, each legal one a button with ``data-card`` that plays it
(the pages run no script: a button of a form), the announcements, the trick in progress or the
rows, undo, a hint with what the computer weighed, and at the end the hand's score, its drawing
with the review of the person's cards and the next deal of the evening."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, redirect, request, url_for
from werkzeug.wrappers import Response

from herzla.cards import Suit
from herzla.contracts import get_game
from herzla.counting import read_whole
from herzla.draw.course import course
from herzla.quote import quote
from herzla.table import (
    Table,
    TableError,
    TableHint,
    TableStateError,
    bid,
    hint,
    leave,
    next_deal,
    play,
    review_for,
)
from herzla.table import undo as undo_table
from herzla.table.actions import YOU
from herzla.table.people import may_undo, seat_again
from herzla.table.position import movers, position
from herzla.web import away
from herzla.web import table_docs as docs
from herzla.web.advice import bid_word, level_name, said_reason
from herzla.web.choices import away_words
from herzla.web.config import state
from herzla.web.hand_view import hand_view
from herzla.web.live import away_tag
from herzla.web.page_parts import (
    CardView,
    card_view,
    faces_for,
    form_revision,
    load,
    page,
    suit_word,
)
from herzla.web.seat_keys import Viewer, act_as, creator_only, viewer_of
from herzla.web.seat_names import PLAYER, shown_names
from herzla.web.speech import _, cents, pgettext, signed_number
from herzla.web.store import Document, Kind, StaleRevision

__all__ = ["StaleTurn", "blueprint", "turn_of", "view_of"]

blueprint = Blueprint("table_pages", __name__)


class StaleTurn(TableStateError):
    """A form of a table of people sent from a page drawn before the table moved on: the
    seat's move was made already (from another page, a double tap), and is not made twice."""

    def __init__(self) -> None:
        super().__init__(_("this page was behind the table: your move was made already "
                           "(from another page or a second tap) and is not made twice; here "
                           "is the table now"))


def turn_of(table: Table) -> str:
    """Where the table's deal stands: its number, its announcements and its moves, counted
    (what a person's form carries, as ``turn``: a page shows a person's cards to play only on
    their turn, so a form whose ``turn`` is no longer the table's is one whose move was made
    already)."""
    deal = table.deal
    return f"{deal.k}.{len(deal.bids)}.{len(deal.moves)}"


def view_of(table: Table, viewer: Viewer | None = None,
            review: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What the table page shows (the values of its template) to ``viewer`` (default: the
    table's one person); ``review`` of the viewer's cards, once the hand is over (a table of
    people reviews on asking)."""
    who = viewer if viewer is not None else Viewer(None if table.of_people else table.seat)
    pos = position(table)
    d = pos.to_dict(who.seat)
    faces = faces_for(pos.contract)
    n = len(table.players)
    names = shown_names(table)
    legal = set(d["legal"])
    cards = []
    for code in d["hand"]:
        other = f"{code}-" if f"{code}-" in legal else None
        cards.append({"view": card_view(code, faces),
                      "playable": code in legal or f"{code}+" in legal, "lower": other})
    tricks = d["tricks"] or []
    won = [0] * n
    for t in tricks:
        if t["winner"] is not None:
            won[t["winner"]] += 1
    bids = {b["seat"]: b["bid"] for b in (d["bidding"] or {}).get("announcements", [])}
    seats = []
    for s, name in enumerate(names):
        dealing = pgettext("a seat who deals this deal", "deals")
        roles = [r for r, at in ((dealing, d["dealer"]), (_("declarer"), d["declarer"]))
                 if at == s]
        seats.append({"seat": s, "name": name, "you": s == who.seat, "held": d["held"][s],
                      "person": s in table.humans,
                      "won": won[s],
                      "bid": bid_word(table.game, bids[s]) if s in bids else None,
                      "roles": roles,
                      "to_move": d["to_move"] == s,
                      "score": d["scores"][s] if d["scores"] is not None else None,
                      "out": (d["order"].index(s) + 1) if d["order"] and s in d["order"]
                      else None})
    current = tricks[-1] if tricks and tricks[-1]["winner"] is None else None
    finished = [t for t in tricks if t["winner"] is not None]

    def trick_view(t: dict[str, Any], number: int) -> dict[str, Any]:
        return {"done": t["winner"] is not None, "number": number,
                "leader": names[t["leader"]],
                "winner": names[t["winner"]] if t["winner"] is not None else None,
                "cards": [{"name": names[(t["leader"] + i) % n],
                           "won": t["winner"] == (t["leader"] + i) % n,
                           "view": card_view(c, faces)} for i, c in enumerate(t["cards"])]}

    shown = current or (finished[-1] if finished else None)
    trick = trick_view(shown, len(finished) + (1 if current else 0)) if shown else None
    # the trick just taken stays on the table beside the next one, until that one is taken:
    # the person sees who took the trick their card went into, though the computer led on
    last = trick_view(finished[-1], len(finished)) if current and finished else None
    # the rows hold played cards alone; the drawing (every hand) comes once the hand is over
    drawn = course(pos.current_record()) if d["order"] is not None or pos.over else None
    rows = []
    if drawn is not None and d["order"] is not None:
        for row in drawn.rows:
            label = suit_word(Suit(row.key), faces) if drawn.rows_per_suit else _("the row")
            rows.append({"label": label, "cards": [card_view(c, faces) for c in row.cards]})
    drawing = None
    review = d["review"] if review is None else review
    if drawn is not None and pos.over:
        shown_review = review if review is not None and "error" not in review else None
        # herzla's sentences speak of each seat in the third person: the one person of a
        # table against the computer, shown as "You" on the page, is their seat there
        prose = [_("Seat {n}").format(n=s + 1) if s == table.seat and not table.of_people
                 and name == YOU else shown for s, (name, shown) in
                 enumerate(zip(table.players, names, strict=True))]
        drawing = hand_view(drawn, prose, shown_review, faces)
    waiting = [(p["seat"], names[p["seat"]]) for p in d.get("people") or []
               if not p["left"] and not p["asked"]]
    pad_rows = [{"k": x.k, "contract": x.contract.title, "scores": x.score.scores,
                 "computer": x.entry.record.tags.get("computer") if x.entry.record else None}
                for x in table.evening.deals if x.score is not None] if table.evening else []
    done = [{"cards": [card_view(c, faces) for c in t["cards"]],
             "winner": names[t["winner"]]} for t in finished]
    person = {p.seat: p for p in table.people}.get(who.seat) if who.seat is not None else None
    return {"table": table, "names": names, "d": d, "pos": pos, "cards": cards, "seats": seats,
            "viewer": who, "asks_name": person is not None and not person.named,
            "given_name": "" if who.seat is None or PLAYER.fullmatch(table.players[who.seat])
            else table.players[who.seat],
            "level": level_name(table.opponents),
            "q": who.query(), "people": table.of_people, "pad_rows": pad_rows,
            "may_undo": who.seat is not None and (not table.of_people
                                                  or may_undo(table, who.seat)),
            "trick": trick, "last_trick": last, "rows": rows, "finished": done, "waiting": waiting,
            "points": (lambda v: cents(v, sign=True)) if pos.contract.has_stock else signed_number,
            "drawing": drawing, "review_note": review.get("error") if review else None,
            "drawing_reviewed": review is not None,
            "evening": d["evening"], "must_pass": legal == {"pass"},
            "title": _(d["title"]) if d["title"] else _("the bidding"),
            "bid_words": [(b, bid_word(table.game, b)) for b in
                          (d["bidding"] or {}).get("legal", [])],
            "game_title": _(get_game(table.game).title), "turn": turn_of(table)}


def show(doc: Document, table: Table, status: int = 200, *, error: str | None = None,
         advice: TableHint | None = None, viewer: Viewer | None = None,
         review: Mapping[str, Any] | None = None) -> Response:
    """The table page, as ``viewer`` (default: who asks) sees it."""
    who = viewer if viewer is not None else viewer_of(table)
    now = time.time()
    doc, table, here = away.visit(state().store, doc, table, who.seat, now)
    values = view_of(table, who, review)
    if here is not None:
        for s in values["seats"]:
            gone, at = here.get(s["seat"], (False, None))
            s["away"] = gone
            s["plays_in"] = None if at is None else max(0, round(at - now))
        values["live_tag"] = away_tag(doc.revision, [s for s, (g, _) in here.items() if g])
        values["stood_in"] = _stood_in(table)
    faces = faces_for(values["pos"].contract)

    def shown(move: str) -> CardView | None:
        return None if move == "pass" else card_view(move.rstrip("+-"), faces)

    if advice is not None:
        values["advice_card"] = shown(advice.move) if advice.move is not None else None
        values["advice_bid"] = bid_word(table.game, advice.bid) if advice.bid else None
        values["advice_said"] = said_reason(advice.reason, bool(advice.values))
        values["advice_values"] = [(code, shown(code), v) for code, v in advice.values.items()]
    if table.of_people and who.creator:
        values["links"] = _links(doc.id, table)
        values["away_said"] = away_words(table.away)
    return page("table.html", status, doc=doc, error=error, advice=advice, **values)


def _stood_in(table: Table) -> list[dict[str, Any]]:
    """The cards the computer played for people who were away, this deal: each person's name
    and the cards."""
    if not table.deal.stood_in:
        return []
    faces = faces_for(position(table).contract)
    made_by = movers(table)
    out: dict[int, list[CardView]] = {}
    for i in table.deal.stood_in:
        if i < len(made_by):
            move = table.deal.moves[i]
            if move != "pass":
                out.setdefault(made_by[i], []).append(card_view(move.rstrip("+-"), faces))
    return [{"name": table.players[s], "cards": cards} for s, cards in sorted(out.items())]


def _links(doc_id: str, table: Table) -> list[dict[str, Any]]:
    """The people's seats as their creator shares them: each seat's link and its QR code."""
    from herzla.web.qr import qr_image
    from herzla.web.tables import link

    out = []
    names = shown_names(table)
    for p in table.people:
        url = link(doc_id, p.seat, p.key)
        out.append({"seat": p.seat, "name": names[p.seat], "url": url,
                    "image": qr_image(url), "left": p.left, "named": p.named})
    return out


@blueprint.get("/tables/<doc_id>")
def table_page(doc_id: str) -> Response:
    """The table (``?hint=1``: with the computer's advice for the person's move; ``?review=1``
    at a table of people, once the hand is over: with the review of the person's cards)."""
    thinking = bool(request.args.get("hint") or request.args.get("review"))
    # the computer's thought is this request's own; a page alone reads the table kept
    doc, table = load(Kind.TABLE, doc_id, docs.fresh if thinking else docs.read)
    who = viewer_of(table)
    if request.args.get("hint"):
        try:
            return show(doc, table, advice=hint(table, seat=who.seat), viewer=who)
        except TableError as exc:
            return show(doc, table, 409 if isinstance(exc, TableStateError) else 422,
                        error=_("no hint: {exc}").format(exc=exc), viewer=who)
    if request.args.get("review") and table.of_people and who.seat is not None:
        try:
            return show(doc, table, review=review_for(table, who.seat), viewer=who)
        except TableError as exc:
            return show(doc, table, 409, error=f"no review: {exc}", viewer=who)
    return show(doc, table, viewer=who)


def _acted(doc_id: str, how: Callable[[Table, Viewer], Table], anchor: str = "#play") -> Response:
    drawn = request.form.get("turn")

    def acting(table: Table, viewer: Viewer) -> Table:
        if drawn is not None and viewer.seat is not None and table.of_people \
                and drawn != turn_of(table):
            raise StaleTurn()
        return how(table, viewer)

    try:
        _doc, _table, viewer = act_as(doc_id, acting, form_revision())
    except StaleRevision as exc:
        doc, table = load(Kind.TABLE, doc_id, docs.read)
        return show(doc, table, 409, error=f"{exc}: here it is now")
    except TableError as exc:
        doc, table = load(Kind.TABLE, doc_id, docs.read)
        return show(doc, table, 409 if isinstance(exc, TableStateError) else 422,
                    error=str(exc))
    query = viewer.query()
    page_url = url_for("table_pages.table_page", doc_id=doc_id)
    return redirect(page_url + ("?" + urlencode(query) if query else "") + anchor, 303)


@blueprint.post("/tables/<doc_id>/play")
def play_card(doc_id: str) -> Response:
    """The person's card (``card``) or announcement (``bid``)."""
    word = request.form.get("bid")
    if word is not None:
        return _acted(doc_id, lambda t, v: bid(t, word, v.seat))
    card = request.form.get("card", "")
    return _acted(doc_id, lambda t, v: play(t, card, v.seat))


@blueprint.post("/tables/<doc_id>/undo")
def undo(doc_id: str) -> Response:
    """Back to before the person's last move."""
    return _acted(doc_id, lambda t, v: undo_table(t, v.seat))


@blueprint.post("/tables/<doc_id>/next")
def next_hand(doc_id: str) -> Response:
    """The next deal of the evening (at a table of people: the person asks for it)."""
    return _acted(doc_id, lambda t, v: next_deal(t, v.seat), "#top")


@blueprint.post("/tables/<doc_id>/name")
def give_name(doc_id: str) -> Response:
    """A person's name, given once at their seat's link."""
    from herzla.web.tables import named_as

    name = request.form.get("name", "")
    return _acted(doc_id, lambda t, v: named_as(t, v, name))


def _creators(doc_id: str, what: str, action: Callable[[Table, int], Table]) -> Response:
    """The creator's ``action`` on the seat the form names (``seat``)."""
    seat = read_whole((request.form.get("seat") or "").strip(), digits=3)

    def acting(table: Table, viewer: Viewer) -> Table:
        creator_only(viewer, what)
        return action(table, -1 if seat is None else seat)

    return _acted(doc_id, acting, "#seats")


@blueprint.post("/tables/<doc_id>/leave")
def leave_seat(doc_id: str) -> Response:
    """The creator gives a person's seat (``seat``) to the computer."""
    return _creators(doc_id, _("only the table's creator may give a person's seat to the "
                               "computer"), leave)


@blueprint.post("/tables/<doc_id>/seat")
def seat_taken_again(doc_id: str) -> Response:
    """The creator gives a seat the computer plays (``seat``) to a person again: a new link."""
    return _creators(doc_id, _("only the table's creator may give a seat to a person"),
                     seat_again)


@blueprint.post("/tables/<doc_id>/delete")
def delete_table(doc_id: str) -> Response:
    """The table removed (at a table of people, by its creator alone)."""
    doc, table = load(Kind.TABLE, doc_id, docs.read)
    creator_only(viewer_of(table), _("only the table's creator may remove the table"))
    try:
        state().store.delete(Kind.TABLE, doc_id, form_revision())
    except StaleRevision as exc:
        doc, table = load(Kind.TABLE, doc_id, docs.read)
        return show(doc, table, 409, error=str(exc))
    return redirect(url_for("pages.start") + "#tables", 303)


def new_table_body(form: Mapping[str, str]) -> dict[str, Any]:
    """The body of a new table from the start page's form: ``play`` (``game`` or
    ``game/contract``), ``players`` (their number), ``seat``, ``opponents``, ``seed``,
    ``people`` (their number) and ``away`` (seconds, a table of people's)."""
    game, _sep, contract = (form.get("play") or "").partition("/")
    body: dict[str, Any] = {"game": game, "contract": contract or None,
                            "opponents": form.get("opponents") or "expert"}
    for key in ("players", "seat", "seed", "people", "away"):
        text = (form.get(key) or "").strip()
        if text:
            number = read_whole(text)
            if number is None:
                raise TableError(_("%(key)s: %(text)s is not a whole number")
                                 % {"key": key, "text": quote(text[:20])})
            body[key] = number
    if "people" in body:  # the people sit in the first seats, the creator among them
        count = body.pop("people")
        if not 2 <= count <= 16:
            raise TableError(_("people: %(count)s is not a number of people from 2 to 16")
                             % {"count": count})
        body["people"] = list(range(count))
        body.pop("seat", None)
    else:  # a table of one person: nobody is away
        body.pop("away", None)
    return body


@blueprint.post("/tables")
def new_table_page() -> Response:
    """A new table from the start page's form."""
    from herzla.web.pages import start_with

    form = request.form.to_dict()
    try:
        doc, _made = docs.create(state().store, new_table_body(form),
                             most=state().config.max_tables)
    except TableError as exc:
        return start_with(422, error=str(exc), form=form)
    return redirect(url_for("table_pages.table_page", doc_id=doc.id)
                    + ("#seats" if form.get("people") else "#play"), 303)
