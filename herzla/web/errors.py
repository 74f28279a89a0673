"""Every error as one line: a 4xx answers ``{"error": "..."}`` under ``/api/`` and a short page
elsewhere (a stale write of a document is 409); anything unforeseen is a 500 that shows only an
id, the traceback going to the log under that id.  No traceback ever reaches a page."""

from __future__ import annotations

import logging
import secrets

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from herzla.i18n import N_, _
from herzla.web.store import DocumentTooLarge, NotFound, StaleRevision, StoreError, StoreFull

__all__ = ["ApiError", "install", "one_line", "respond"]

log = logging.getLogger("herzla.web")


class ApiError(Exception):
    """Bad input or a refused request: the status and one line naming the problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def one_line(message: str, limit: int = 300) -> str:
    """``message`` on one line (every run of white space one space), at most ``limit``
    characters."""
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def respond(status: int, message: str) -> Response:
    """The error answer: JSON for the API, a short page for a person."""
    message = one_line(message)
    if wants_json():
        out = jsonify({"error": message})
    else:
        try:
            out = Response(render_template("error.html", status=status, message=message),
                           mimetype="text/html")
        except Exception:  # the page itself failed: the line alone
            out = Response(f"{status}: {message}\n", mimetype="text/plain")
    out.status_code = status
    return out


#: what a person reads for the HTTP errors the framework raises (404, 405 and 413 name the
#: address, the method and the limit: :func:`_http_error`)
_SAID = {
    400: N_("the request could not be read"),
}


def _http_error(exc: HTTPException) -> Response:
    status = exc.code or 500
    said = _(_SAID[status]) if status in _SAID else exc.name.lower()
    if status == 413:
        from herzla.web.config import state

        said = _("the request is larger than %(kib)s KiB, the most this app takes") % {
            "kib": state().config.max_body // 1024}
    elif status == 405:
        said = _("%(path)s does not take %(method)s") % {"path": request.path,
                                                          "method": request.method}
    elif status == 404:
        said = _("there is no page %(path)s") % {"path": request.path}
    out = respond(status, said)
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        out.headers["Allow"] = ", ".join(exc.valid_methods)
    return out


def _api_error(exc: ApiError) -> Response:
    return respond(exc.status, exc.message)


def _store_error(exc: StoreError) -> Response:
    """A document that is not there (404), a stale write or a store full (409), a body too
    large (413); any
    other problem of the store is the server's (500, logged)."""
    if isinstance(exc, NotFound):
        return respond(404, str(exc))
    if isinstance(exc, StaleRevision | StoreFull):
        return respond(409, str(exc))
    if isinstance(exc, DocumentTooLarge):
        return respond(413, str(exc))
    return _unforeseen(exc)


def _unforeseen(exc: Exception) -> Response:
    if isinstance(exc, HTTPException):
        return _http_error(exc)
    ident = secrets.token_hex(4)
    log.error("error %s on %s %s", ident, request.method, request.path, exc_info=exc)
    return respond(500, _("something went wrong inside herzla (error %(ident)s, in the "
                          "server's log)") % {"ident": ident})


def install(app: Flask) -> None:
    """Register the error answers with ``app``."""
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(StoreError, _store_error)
    app.register_error_handler(Exception, _unforeseen)
