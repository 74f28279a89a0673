"""Every error as one line: a 4xx answers ``{"error": "..."}`` under ``/api/`` and a short page
elsewhere (a stale write of a document is 409); anything unforeseen is a 500 that shows only an
id, the traceback going to the log under that id.  No traceback ever reaches a page."""

from __future__ import annotations

import logging
import secrets

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

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
    400: "the request could not be read",
}


def _http_error(exc: HTTPException) -> Response:
    status = exc.code or 500
    said = _SAID.get(status) or exc.name.lower()
    if status == 413:
        from herzla.web.config import state

        said = (f"the request is larger than {state().config.max_body // 1024} KiB, the most "
                f"this app takes")
    elif status == 405:
        said = f"{request.path} does not take {request.method}"
    elif status == 404:
        said = f"there is no page {request.path}"
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
    return respond(500, f"something went wrong inside herzla (error {ident}, in the server's "
                        f"log)")


def install(app: Flask) -> None:
    """Register the error answers with ``app``."""
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(StoreError, _store_error)
    app.register_error_handler(Exception, _unforeseen)
