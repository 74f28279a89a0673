"""The table app (``herzla serve``, the Table app page of the docs): the evening's score pad, the
disputes desk and a table against the computer, as web pages and a JSON API for the phones at a
table.

The app is a Flask application (:func:`herzla.web.app.create_app`) served by waitress
(:mod:`herzla.web.server`), with its documents in SQLite (:mod:`herzla.web.store`).  It needs
the ``web`` extra; this module imports neither, so that the command line can say how to
install it (:func:`missing`).  The rest of herzla never imports the web framework.
"""

from __future__ import annotations

from importlib.util import find_spec

__all__ = ["INSTALL", "REQUIRES", "missing"]

#: the distributions the app needs beyond herzla's own (the ``web`` extra)
REQUIRES = ("flask", "waitress", "segno")

#: how to install them
INSTALL = "python3 -m pip install 'herzla[web]'"


def missing() -> list[str]:
    """The packages of the ``web`` extra that are not installed."""
    return [name for name in REQUIRES if find_spec(name) is None]
