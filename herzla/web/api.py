"""The JSON API under ``/api/`` (the Table app page of the docs): each call reads its JSON body
with the library's reader (:func:`herzla.records.load_json_text`: a key given twice, nesting too
deep or a number of too many digits is refused), calls the library, and answers what the command
line answers with ``--json``.  Bad input is a 4xx with ``{"error": "one line"}``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request

from herzla.contracts import MissingTally, TallyError
from herzla.contracts.tallies import SCORE_ERRORS, score_hand
from herzla.counting import read_whole
from herzla.quote import quote
from herzla.records import RecordError, load_json_text, read_record, replay
from herzla.sheets import score_sheet
from herzla.web.config import state
from herzla.web.errors import ApiError
from herzla.web.openapi import document

__all__ = ["SCORE_FIELDS", "answered", "blueprint", "json_body", "revision_given",
           "score_body"]

blueprint = Blueprint("api", __name__, url_prefix="/api")

#: the fields of a ``POST /api/score`` body, and the library's name of each tally
SCORE_FIELDS = {"game": "game", "contract": "contract", "players": "players",
                "hearts": "hearts", "tricks": "tricks", "captured": "captured",
                "order": "order", "declarer": "declarer", "made": "made", "stock": "stock",
                "options": "options", "last_trick": "last_winner"}


def json_body() -> Any:
    """The request's body as JSON (415 unless it says it is JSON; 413 over the size limit;
    422 for bad UTF-8 or bad JSON)."""
    if request.mimetype != "application/json":
        raise ApiError(415, "send the body as JSON, with the header "
                            "Content-Type: application/json")
    data = request.get_data(cache=False)
    if not data.strip():
        raise ApiError(422, "the body is empty: send a JSON document")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ApiError(422, f"the body is not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                            f"position {exc.start})") from None
    try:
        return load_json_text(text)
    except RecordError as exc:
        raise ApiError(422, str(exc)) from None


def answered(body: Mapping[str, Any], revision: int, status: int = 200) -> Response:
    """``body`` as JSON, with the document's ``revision`` as its ETag (``"N"``)."""
    out = jsonify(body)
    out.status_code = status
    out.headers["ETag"] = f'"{revision}"'
    return out


def revision_given() -> int | None:
    """The revision a change was made from: the header ``If-Match: "N"`` (or ``N``), else
    ``?revision=N``, else None (whatever the document's revision is now); 422 for one that
    is not a revision."""
    text = request.headers.get("If-Match")
    if text is None:
        text = request.args.get("revision")
    if text is None:
        return None
    word = text.strip().removeprefix("W/").strip('"')
    revision = read_whole(word, digits=15)
    if revision is None:
        raise ApiError(422, f"a revision is a whole number (If-Match: \"3\" or ?revision=3), "
                            f"not {quote(text[:40])}")
    return revision


def _answer(body: Mapping[str, Any], status: int = 200) -> Response:
    out = jsonify(body)
    out.status_code = status
    return out


@blueprint.post("/replay")
def replay_call() -> Response:
    """A hand record (or a list of them: a partie or session) replayed, checked and scored:
    what ``herzla replay --json`` answers; an illegal play is 200 with ``illegal`` set."""
    doc = json_body()
    limit = state().config.max_records
    try:
        if isinstance(doc, list):
            if len(doc) > limit:
                raise ApiError(413, f"the list holds {len(doc)} records; one request takes at "
                                    f"most {limit}")
            return _answer(score_sheet(doc).to_dict())
        return _answer(replay(read_record(doc)).to_dict())
    except (RecordError, TallyError) as exc:
        raise ApiError(422, str(exc)) from None


def score_body(doc: Any) -> dict[str, Any]:
    """The keyword arguments of :func:`herzla.contracts.tallies.score_hand` from a
    ``POST /api/score`` body (422 for a body that is not an object, lacks the game or contract,
    or has a field the call does not take)."""
    if not isinstance(doc, dict):
        raise ApiError(422, f"the body is a JSON object of the tallies, not {quote(doc)}")
    unknown = [k for k in doc if k not in SCORE_FIELDS]
    if unknown:
        raise ApiError(422, f"unknown field {quote(unknown[0])}; the fields are "
                            f"{', '.join(SCORE_FIELDS)}")
    for key in ("game", "contract"):
        if not isinstance(doc.get(key), str):
            raise ApiError(422, f'give the {key} as a text, e.g. "game": "herzla", '
                                f'"contract": "normal"')
    args = {SCORE_FIELDS[k]: v for k, v in doc.items() if v is not None}
    return args


@blueprint.post("/score")
def score_call() -> Response:
    """A hand scored from its tallies: what ``herzla score --json`` answers."""
    args = score_body(json_body())
    try:
        answer = score_hand(args.pop("game"), args.pop("contract"), **args)
    except MissingTally as exc:
        named = {v: k for k, v in SCORE_FIELDS.items()}
        raise ApiError(422, f"{exc}: give " + " or ".join(
            quote(named.get(n, n)) for n in exc.needs)) from None
    except SCORE_ERRORS as exc:
        raise ApiError(422, str(exc)) from None
    return _answer(answer.to_dict())


@blueprint.get("/openapi.json")
def openapi_call() -> Response:
    """The OpenAPI description of these calls."""
    return _answer(document())
