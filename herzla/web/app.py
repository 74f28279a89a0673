"""The app factory: a Flask app over a store, with its guard, its error answers, the JSON API
and the pages.  Tests build one on a temporary file and call it with Flask's test client; the
server (:mod:`herzla.web.server`) serves the same app.

>>> import tempfile, os
>>> from herzla.web.store import Store
>>> app = create_app(Store(os.path.join(tempfile.mkdtemp(), "t.db")))
>>> app.test_client().get("/desk").status_code
200
"""

from __future__ import annotations

from flask import Flask
from flask.json.provider import DefaultJSONProvider
from werkzeug.routing import BaseConverter

from herzla.web import (
    api,
    auth,
    errors,
    evenings,
    limits,
    live,
    pad,
    pages,
    speech,
    table_pages,
    tables,
)
from herzla.web.config import AppState, WebConfig
from herzla.web.store import DocumentStore

__all__ = ["create_app"]

#: the most fields one form may have
MAX_FORM_PARTS = 50


class DocumentId(BaseConverter):
    """A document's id in a path (``<doc:doc_id>``): any one segment but the words of the calls
    beside the ids (``/api/evenings/import``), so that such a path names its own call alone
    (its ``Allow`` lists the call's methods, not the id's)."""

    regex = r"(?!import$)[^/]+"


def create_app(store: DocumentStore, config: WebConfig | None = None) -> Flask:
    """The table app over ``store``, guarded as ``config`` says (default: no token, loopback
    only)."""
    config = config or WebConfig()
    app = Flask("herzla.web")
    app.config.update(
        MAX_CONTENT_LENGTH=config.max_body,
        MAX_FORM_MEMORY_SIZE=config.max_body,
        MAX_FORM_PARTS=MAX_FORM_PARTS,
        TRAP_HTTP_EXCEPTIONS=False,
        PROPAGATE_EXCEPTIONS=False,
    )
    provider = app.json
    assert isinstance(provider, DefaultJSONProvider)
    provider.sort_keys = False
    provider.ensure_ascii = False
    app.jinja_env.autoescape = True
    app.url_map.converters["doc"] = DocumentId
    app.extensions["herzla"] = AppState(store, config)
    speech.install(app)  # first: the guard's own pages speak the request's language
    if config.limits is not None:
        limits.install(app, config.limits)
    auth.install(app)
    errors.install(app)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(evenings.blueprint)
    app.register_blueprint(tables.blueprint)
    app.register_blueprint(pages.blueprint)
    app.register_blueprint(live.blueprint)
    app.register_blueprint(pad.blueprint)
    app.register_blueprint(table_pages.blueprint)
    return app
