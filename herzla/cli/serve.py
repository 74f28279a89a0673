"""``herzla serve``: the table app for the phones at a table (the Table app page of the docs)."""

from __future__ import annotations

import logging
import re
import secrets
import sys
import threading

import click

from herzla.cli.common import fail
from herzla.i18n import DEFAULT, N_, _, current, language, ngettext

__all__ = ["serve_command"]

_TOKEN = re.compile(r"[A-Za-z0-9._~-]{8,200}")
_PROXY = re.compile(r"https?://[A-Za-z0-9.-]+(?::\d{1,5})?/?")


@click.command("serve", help=N_(
    """Serve the table app: the score pad, the disputes desk and a table against the computer,
    as pages and a JSON API.

    The first line printed is `herzla: serving on URL`: open the URL (with its ?token=, when a
    token is in force) in a browser. With a --host other than loopback, the URL names this
    machine's own address on the network (never 0.0.0.0), and the terminal and the start page
    show it as a QR code for the phones to scan. Ctrl-C or SIGTERM stops the server. Needs the
    web extra: python3 -m pip install 'herzla[web]'.

    \b
    Examples:
      herzla serve                          # http://127.0.0.1:8000/, this machine only
      herzla serve --host 0.0.0.0           # the phones on this network join, with the token
      herzla serve --host 0.0.0.0 --token our-table-2026   # the same address at every start
      herzla serve --port 0 --db table.db   # a free port, a store of its own
      herzla serve --db postgresql:///herzla   # on a server (the Hosting page)
    """))
@click.option("--host", default="127.0.0.1", show_default=True,
              help=N_("The address to listen on. Any address but loopback (so that phones at the "
                   "table can join, e.g. 0.0.0.0) needs a token."))
@click.option("--port", type=int, default=8000, show_default=True,
              help=N_("The port to listen on; 0 picks a free one."))
@click.option("--db", "db", metavar="FILE|URL", envvar="HERZLA_DB",
              help=N_("Where the evenings and tables are kept: an SQLite file (default: "
                      "herzla/herzla.db in your data folder, e.g. ~/.local/share), or a "
                      "PostgreSQL database, postgresql://USER@HOST/DB, which several herzla "
                      "serve processes may share (needs the server extra). Also read from "
                      "HERZLA_DB."))
@click.option("--token", metavar="TOKEN",
              help=N_("Every page and call needs this token (8 or more letters, digits or -._~). "
                   "Without --token, one is made up when the host is not loopback, anew at "
                   "each start; give the same --token to keep the phones' address across "
                   "restarts."))
@click.option("--proxy", metavar="URL",
              help=N_("herzla is served behind a reverse proxy on this machine (Caddy, with "
                      "HTTPS) at this address, e.g. https://cards.example.org/: the proxy's "
                      "X-Forwarded-For and X-Forwarded-Proto are believed, the links name this "
                      "address, and a token is needed (the Hosting page of the docs)."))
def serve_command(host: str, port: int, db: str | None, token: str | None,
                  proxy: str | None) -> None:
    from herzla.web import INSTALL, missing

    lacking = missing()
    if lacking:
        fail(ngettext("herzla serve needs the web extra ({missing} is not installed): "
                      "{install}",
                      "herzla serve needs the web extra ({missing} are not installed): "
                      "{install}", len(lacking)).format(missing=_(" and ").join(lacking),
                                                        install=INSTALL))
    from herzla.web.app import create_app
    from herzla.web.config import Limits, WebConfig, is_loopback
    from herzla.web.qr import qr_text
    from herzla.web.server import ServeError, bind, own_address, serve, url_of
    from herzla.web.store import StoreError, open_store

    if token is not None and not _TOKEN.fullmatch(token):
        fail(_("--token: give 8 to 200 letters, digits or - . _ ~ (it goes into the URL)"))
    if proxy is not None and not _PROXY.fullmatch(proxy):
        fail(_("--proxy: give the address the proxy serves, e.g. https://cards.example.org/, "
               "not {given}").format(given=repr(proxy[:60])))
    loopback = is_loopback(host) and proxy is None
    if token is None and not loopback:
        token = secrets.token_urlsafe(16)
    try:
        store = open_store(db or None)
    except StoreError as exc:
        fail(str(exc))
    try:
        sock = bind(host, port)
    except ServeError as exc:
        fail(str(exc))
    if proxy is not None:
        url = proxy.rstrip("/") + "/" + (f"?token={token}" if token else "")
    else:
        url = url_of(own_address(host), sock.getsockname()[1], token)
    app = create_app(store, WebConfig(token=token, loopback=loopback,
                                      url=None if loopback else url, limits=Limits()))
    _log_to_stderr()

    speaking = current()

    def ready() -> None:
        click.echo(f"herzla: serving on {url}")  # a line programs read: never translated
        sys.stdout.flush()
        with language(speaking):  # the terminal's language, for the person at it
            if not loopback:
                click.echo(_("herzla: the phones at the table open that address, or scan "
                             "this:"), err=True)
                click.echo(qr_text(url), err=True, nl=False)
            if proxy is not None:
                click.echo(_("herzla: the proxy passes the requests on to {url}; listening on "
                             "{host}:{port}").format(url=url_of(host, sock.getsockname()[1], None),
                                                     host=host, port=sock.getsockname()[1]),
                           err=True)
            click.echo(_("herzla: the store is {where}; Ctrl-C stops the server").format(
                where=store.where), err=True)
        warm_up_in_background()

    with language(DEFAULT):  # each phone's browser chooses its language, never this terminal
        serve(app, sock, ready=ready, proxy=proxy is not None)


def warm_up_in_background() -> threading.Thread:
    """Load the compiled solver in a thread of its own (:func:`herzla.analysis.warmup.warm_up`),
    so that the first hint or computer move at a table does not wait for a compile; without
    numba it does nothing.  A failure is logged, never raised: the pure search still runs."""
    def run() -> None:
        from herzla.analysis.warmup import warm_up

        log = logging.getLogger("herzla.web")
        try:
            how = warm_up()
        except Exception:  # the server runs on without it
            log.exception("the compiled solver could not be loaded; searches run in pure Python")
            return
        if how == "loaded":
            log.info("the compiled solver is loaded")

    thread = threading.Thread(target=run, name="herzla-warm-up", daemon=True)
    thread.start()
    return thread


def _log_to_stderr() -> None:
    """The app's log (an error's id and traceback) on standard error."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("herzla: %(asctime)s %(message)s"))
    log = logging.getLogger("herzla.web")
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False
