"""The disputes desk's rulings, from what a person typed into its forms (nothing here knows
the web framework): a tally scored by :func:`herzla.contracts.tallies.score_hand`, or a pasted
hand record replayed (:func:`herzla.records.replay`), drawn (:func:`herzla.draw.html.hand_html`)
and, when it is complete, reviewed (:func:`herzla.analysis.review.review`: what each mistake
cost).

The HTML of a ruling comes from herzla's drawings, which escape every text they write.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from herzla.analysis.review import review_or_why
from herzla.cards import HEARTS_MASK
from herzla.contracts import MissingTally, TallyError
from herzla.contracts.tallies import SCORE_ERRORS, numbers_of, score_hand
from herzla.counting import read_whole
from herzla.draw.course import Course, course
from herzla.draw.html import explanation_html, hand_html
from herzla.i18n import N_, _
from herzla.quote import quote
from herzla.records import RecordError, load_json_text, read_record, replay
from herzla.web.request_fields import options_of_text

__all__ = ["DeskError", "DeskRuling", "TallyForm", "chips_read", "names_of", "rule_record",
           "rule_tally", "tally_form"]

#: the fields of the tally form, as a person fills them in, and the tally each gives
TALLY_FIELDS = ("contract", "players", "hearts", "tricks", "captured", "order", "declarer",
                "result", "last_trick", "stock", "options", "names")

#: the most characters of the players' names a form may give
MOST_NAMES = 400

#: what a person is asked for, by the library's name of a tally
_ASK = {"tricks": N_("the tricks"), "hearts": N_("the hearts"),
        "captured": N_("the captured cards"), "made": N_("made or lost"),
        "last_winner": N_("who won the last trick"), "order": N_("the order of going out")}


class DeskError(ValueError):
    """What the person typed cannot be ruled on: one line naming the problem."""


#: the desk's field of each tally the scorer asks for (``made`` is the field ``result``)
_FIELD = {"made": "result", "last_winner": "last_trick", "hearts": "hearts",
          "tricks": "tricks", "captured": "captured", "order": "order"}


@attrs.frozen(slots=True)
class TallyForm:
    """The tally form for one contract: ``shown`` the fields it asks for, ``more`` the others
    a ruling of it may need (folded away), ``players`` the counts of players it is played
    by."""

    choice: str
    shown: tuple[str, ...]
    more: tuple[str, ...]
    players: tuple[int, ...]
    #: the seats of the form (its number of players: the one asked, else the usual)
    seats: int = 4
    #: the most hearts and tricks one player may have (the chips of each count)
    most_hearts: int = 8
    most_tricks: int = 8


def tally_form(choice: str | None, players: str | None = None) -> TallyForm:
    """The fields of the tally form for ``game/contract`` (None or unknown: the first
    contract of the first game), read from the contract's own scorer (what it asks for), for
    ``players`` players (a number as text; none or not one the contract is played by: the
    usual number)."""
    from herzla.contracts import contract_class, known_options
    from herzla.web.choices import game_contracts

    game, _sep, cid = (choice or "").partition("/")
    try:
        cls = contract_class(game, cid)
    except (LookupError, ValueError):
        cls = next(iter(game_contracts()))[1][0]
    counts = tuple(cls.player_counts)
    wanted = read_whole((players or "").strip(), digits=2)
    n = wanted if wanted in counts else counts[0]
    c = cls(n, known_options(cls, {}), 0 if cls.needs_declarer else None)
    shown = ["declarer", "result"] if cls.needs_declarer else []
    shown += [_FIELD[n] for n in c.tallies if n in _FIELD and _FIELD[n] not in shown]
    counted = 0
    for mask in c.card_classes:  # the cards its scorer counts (none in a layout deal)
        counted |= mask
    # what a ruling of a trick deal may need beyond the quickest tally: the tricks (a
    # Schleichermord, an early end), the cards counted and who captured them
    # (a layout deal counts no cards and cannot end early, so it needs none of them)
    more = [f for f, wanted in (("hearts", bool(counted & HEARTS_MASK)),
                                ("tricks", bool(counted) or c.may_end_early),
                                ("captured", bool(counted))) if wanted and f not in shown]
    if c.has_stock:
        shown.append("stock")
    hearts = (c.pack().mask & HEARTS_MASK).bit_count()
    return TallyForm(cls.key(), tuple(shown), tuple(more), counts, n, hearts, c.hand_size)


def chips_read(form: Mapping[str, str], seats: int) -> dict[str, str]:
    """The tally form's taps as the fields :func:`rule_tally` reads: ``hearts-S`` and
    ``tricks-S`` (a count per seat; all 0: not told) as ``hearts`` and ``tricks``; ``order-I``
    (the seat that went out I-th) as ``order``; ``name-S`` (each seat's name) as ``names``.
    A field given as text already is kept."""
    out = dict(form)
    for key in ("hearts", "tricks"):
        counts = [(form.get(f"{key}-{s}") or "0").strip() or "0" for s in range(seats)]
        if not (out.get(key) or "").strip() and any(c != "0" for c in counts):
            out[key] = ",".join(counts)
    order = [(form.get(f"order-{i}") or "").strip() for i in range(seats)]
    if not (out.get("order") or "").strip() and any(order):
        out["order"] = ",".join(o or "?" for o in order)
    captured = [(form.get(f"captured-{s}") or "").strip() for s in range(seats)]
    if not (out.get("captured") or "").strip() and any(captured):
        out["captured"] = "\n".join(c or "-" for c in captured)
    names = [" ".join((form.get(f"name-{s}") or "").split()) for s in range(seats)]
    if not (out.get("names") or "").strip() and any(names):
        out["names"] = ", ".join(n or str(s + 1) for s, n in enumerate(names))
    return out


@attrs.frozen(slots=True)
class DeskRuling:
    """A ruling as the desk shows it: the heading, the scores and stock, and HTML written by
    herzla's drawings (``explanation``: every amount with its rule; ``drawing``: the hand with
    its play, settlement and review, for a record)."""

    heading: str
    players: int
    scores: tuple[int, ...] | None
    stock: int | None
    events: tuple[str, ...]
    explanation: str
    drawing: str | None = None
    illegal: str | None = None
    note: str | None = None
    #: the ruling ends the hand where the play stands (an established renege it scores)
    ended: bool = False
    #: the hand ruled on (a record: its course) and its review, for the page to draw
    hand: Course | None = None
    review: Mapping[str, Any] | None = None


def names_of(form: Mapping[str, str]) -> list[str]:
    """The players' names a desk form gives (``names``: seat 0 first, comma separated; none:
    the seats are called by their numbers)."""
    text = (form.get("names") or "").strip()
    if len(text) > MOST_NAMES:
        raise DeskError(_("the players' names: at most {most} characters").format(most=MOST_NAMES))
    names = [n.strip() for n in text.split(",")] if text else []
    if any(not n for n in names):
        raise DeskError(_("the players' names: give one name per seat, separated by commas"))
    return names


def _number(form: Mapping[str, str], name: str, what: str) -> int | None:
    text = (form.get(name) or "").strip()
    if not text:
        return None
    number = read_whole(text, signed=True, digits=20)
    if number is None:
        raise DeskError(_("{what}: {text} is not a whole number").format(what=what,
                                                                           text=quote(text)))
    return number


def _seats(form: Mapping[str, str], name: str) -> list[int] | None:
    text = (form.get(name) or "").strip()
    return numbers_of(text, name) if text else None


def rule_tally(form: Mapping[str, str]) -> DeskRuling:
    """Score the tally form: ``contract`` is ``game/contract``; ``hearts``, ``tricks`` and
    ``order`` are numbers per seat (``0,3,5,0``); ``captured`` one line of card codes per seat
    (``-`` for none); ``result`` ``made`` or ``lost``; ``options`` ``name=value`` items."""
    game, _sep, contract = (form.get("contract") or "").partition("/")
    if not game or not contract:
        raise DeskError(_("choose the game and contract"))
    captured = None
    if (form.get("captured") or "").strip():
        captured = [line.strip() for line in (form.get("captured") or "").splitlines()]
        while captured and not captured[-1]:
            captured.pop()
    result = (form.get("result") or "").strip()
    if result not in ("", "made", "lost"):
        raise DeskError(_("the result is made or lost, not {text}").format(text=quote(result)))
    try:
        options = options_of_text(form.get("options"))
        answer = score_hand(
            game, contract, players=_number(form, "players", _("players")),
            options=options, declarer=_number(form, "declarer", _("the declarer")),
            tricks=_seats(form, "tricks"), hearts=_seats(form, "hearts"), captured=captured,
            last_winner=_number(form, "last_trick", _("the last trick's winner")),
            order=_seats(form, "order"), made=None if not result else result == "made",
            stock=_number(form, "stock", _("the stock")) or 0)
    except MissingTally as exc:
        asked = _(" or ").join(_(_ASK[n]) if n in _ASK else n for n in exc.needs)
        raise DeskError(_("{problem}: give {asked}").format(problem=exc, asked=asked)) from None
    except SCORE_ERRORS as exc:
        raise DeskError(str(exc)) from None
    c, s = answer.contract, answer.score
    return DeskRuling(f"{c.title}", c.players, tuple(s.scores),
                  s.stock if c.has_stock else None, tuple(s.events),
                  explanation_html(s.explanation))


def rule_record(text: str, with_review: bool = True) -> DeskRuling:
    """Replay a pasted hand record (JSON text) and draw it; a complete hand is also reviewed
    when ``with_review`` (a second or so)."""
    if not text.strip():
        raise DeskError(_("paste a hand record (JSON) first"))
    try:
        doc = load_json_text(text)
        if isinstance(doc, list):
            raise DeskError(_("paste one hand record: this is a list (a partie or session)"))
        rec = read_record(doc)
        res = replay(rec)
    except (RecordError, TallyError) as exc:
        raise DeskError(str(exc)) from None
    note = None
    done = None
    if with_review and res.complete and res.illegal is None:
        reviewed = review_or_why(rec)
        if isinstance(reviewed, str):
            note = _("no review: {why}").format(why=reviewed)
        else:
            done = reviewed
    elif with_review and res.illegal is None:
        note = _("the review comes once the hand is played to its end")
    illegal = None
    scores = tuple(res.scores) if res.scores is not None else None
    stock = res.stock
    events = tuple(res.score.events) if res.score is not None else ()
    lines = list(res.explanation)
    if res.illegal is not None:
        bad = res.illegal
        illegal = _("{where}, {card} by seat {seat}, is illegal: {why} (rule {rule})").format(
            where=bad.where().capitalize(), card=bad.card, seat=bad.seat, why=bad.message,
            rule=bad.rule)
    ruled = res.ruling
    ended = False
    if ruled is not None:
        # a renege: established, the hand ends there and the ruling scores it; else corrected
        lines += ruled.explanation
        if ruled.established and ruled.scores is not None:
            scores, events = tuple(ruled.scores), tuple(ruled.events)
            stock = ruled.stock if rec.contract.has_stock else None
            illegal = _("{illegal}: a renege, established (option renege={option})").format(
                illegal=illegal, option=ruled.option)
            ended = True
        else:
            illegal = _("{illegal}: a renege, corrected without penalty").format(illegal=illegal)
    return DeskRuling(f"{rec.contract.title}", rec.players, scores,
                  stock, events, explanation_html(lines),
                  hand_html(course(rec), review=done, title=""), illegal, note, ended,
                  course(rec), done)
