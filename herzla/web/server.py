"""Serving the app with waitress (a WSGI server in pure Python, threads for the requests): the
socket is bound first, so that ``--port 0`` can name the port it got before anything is
served; Ctrl-C or SIGTERM (raised in the main thread as KeyboardInterrupt, by the command line)
stops the loop, lets the requests being answered finish and closes the socket."""

from __future__ import annotations

import contextlib
import logging
import socket
import sys
from collections.abc import Callable

from flask import Flask

from herzla.i18n import _

__all__ = ["CONNECTIONS", "CONNECTIONS_EACH", "THREADS", "ServeError", "bind", "own_address",
           "serve", "url_of"]

#: the threads answering requests (a review or, later, the computer's move takes a second)
THREADS = 4

#: the connections the server holds open at once (waitress's ``connection_limit``; beyond it
#: waitress stops accepting until one closes), and the most one address may hold (a phone's
#: browser opens about six): so a hundred idle connections from one address cannot keep the
#: other phones out.  This machine itself (127.0.0.1 and ::1: a proxy in front, whose
#: connections all come from there, or a test on it) is held to the first limit alone.
CONNECTIONS = 500
CONNECTIONS_EACH = 24

#: what a connection over its address's limit is answered before it is closed
_TOO_MANY = (b"HTTP/1.1 429 Too Many Requests\r\nRetry-After: 5\r\nConnection: close\r\n"
             b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 52\r\n\r\n"
             b"too many connections from this address: close some\n")


class ServeError(Exception):
    """The address cannot be listened on: one line."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host`` (a name or address) and ``port`` (0: a free one)."""
    if not 0 <= port <= 65535:
        raise ServeError(_("--port {port} is not a port (0 to 65535; 0 picks a free one)")
                         .format(port=port))
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise ServeError(_("--host {host}: no such address ({exc})").format(
            host=host, exc=exc)) from None
    family, _type, _proto, _name, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ServeError(_("cannot listen on {host} port {port}: {why}").format(
            host=host, port=port, why=exc.strerror or exc)) from None
    return sock


#: the addresses meaning "every address of this machine", which no phone can open
WILDCARDS = ("0.0.0.0", "::", "")


def own_address(host: str) -> str:
    """The address a phone on the same network opens to reach a server listening on
    ``host``: ``host`` itself, unless it is a wildcard (0.0.0.0, ::), then this machine's own
    address on the network its traffic leaves by (found by aiming a UDP socket, which sends
    nothing, at an address of the documentation's range), else its name's address, else
    loopback."""
    if host not in WILDCARDS:
        return host
    family, probe = ((socket.AF_INET6, "2001:db8::1") if host == "::" else
                     (socket.AF_INET, "192.0.2.1"))
    for fam, target in ((family, probe), (socket.AF_INET, "192.0.2.1")):
        try:
            with socket.socket(fam, socket.SOCK_DGRAM) as udp:
                udp.connect((target, 9))
                address = str(udp.getsockname()[0])
        except OSError:
            continue
        if address not in WILDCARDS and not address.startswith("127."):
            return address
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def url_of(host: str, port: int, token: str | None) -> str:
    """The address a browser opens: ``http://HOST:PORT/`` (an IPv6 address in brackets), with
    ``?token=`` when a token is in force."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def _channel_class(app: Flask, each: int, proxies: frozenset[str]) -> type:
    """waitress's connection, with the errors waitress answers itself (a body over the limit,
    a request it cannot parse) answered as the app answers them: ``{"error": ...}`` under
    ``/api/``, the app's short page elsewhere; a connection from an address that holds
    ``each`` open already (but a proxy's, in ``proxies``) is answered 429 and closed."""
    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask
    from werkzeug.exceptions import BadRequest, default_exceptions

    class AppErrorTask(ErrorTask):
        def execute(self) -> None:
            code = getattr(self.request.error, "code", 400)
            path = getattr(self.request, "path", "") or "/"
            try:
                with app.test_request_context(path if path.startswith("/") else "/",
                                              method=self.request.command or "GET"):
                    out = app.make_response(app.handle_user_exception(
                        default_exceptions.get(code, BadRequest)()))
            except Exception:  # the app could not say it: waitress's own words
                super().execute()
                return
            body = out.get_data()
            self.status = out.status
            self.response_headers.extend((k, v) for k, v in out.headers.items()
                                         if k.lower() != "content-length")
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class AppChannel(HTTPChannel):
        error_task_class = AppErrorTask

    class LimitedChannel(AppChannel):
        def __init__(self, server: object, sock: socket.socket, addr: object, adj: object,
                     map: object = None) -> None:
            host = addr[0] if isinstance(addr, tuple) and addr else None
            if host is not None and host not in proxies:
                held = sum(1 for ch in getattr(server, "active_channels", {}).values()
                           if isinstance(ch.addr, tuple) and ch.addr and ch.addr[0] == host)
                if held >= each:
                    with contextlib.suppress(OSError):
                        sock.send(_TOO_MANY)
                    sock.close()
                    return
            super().__init__(server, sock, addr, adj, map)

    return LimitedChannel


#: the address a proxy on this machine connects from (herzla serves it on 127.0.0.1)
PROXY_ADDRESS = "127.0.0.1"


def _proxied(proxy: bool) -> dict[str, object]:
    if not proxy:
        return {}
    return {"trusted_proxy": PROXY_ADDRESS, "trusted_proxy_count": 1,
            "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"}}


def serve(app: Flask, sock: socket.socket, *, threads: int = THREADS,
          ready: Callable[[], None] | None = None, proxy: bool = False,
          connections: int = CONNECTIONS, each: int = CONNECTIONS_EACH) -> None:
    """Answer requests on ``sock`` until interrupted (KeyboardInterrupt in this thread), then
    finish the requests in hand and close the socket.  ``ready`` is called once listening.
    ``proxy``: a reverse proxy on this machine's loopback address passes the requests on, and
    its ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed (the client's address, and
    whether it came over TLS); from anyone else they are dropped."""
    from waitress.server import create_server

    logging.getLogger("waitress").setLevel(logging.WARNING)
    # one limit, the app's: waitress refuses a body over it (before reading it) with the
    # app's own answer (waitress refuses at ``>=``, the app over its limit)
    server = create_server(app, sockets=[sock], threads=threads, ident="herzla",
                           expose_tracebacks=False, clear_untrusted_proxy_headers=True,
                           max_request_body_size=app.config["MAX_CONTENT_LENGTH"] + 1,
                           channel_timeout=60, connection_limit=connections,
                           **_proxied(proxy))
    proxies = frozenset({PROXY_ADDRESS, "::1"})
    server.channel_class = _channel_class(app, each, proxies)
    try:
        if ready is not None:
            ready()
        server.run()  # returns on KeyboardInterrupt, its workers told to stop
    finally:
        server.close()
        sock.close()
        sys.stderr.flush()

