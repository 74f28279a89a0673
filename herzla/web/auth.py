"""Who may ask: the token, the Host check and the guard against cross-site requests.

Every request passes :func:`check` before its route runs; a route never looks at the token.

- **Host.** A server listening only on loopback answers only a ``Host`` that names loopback
  (``localhost``, 127.0.0.1, [::1]): a web page elsewhere cannot reach it by pointing a name of
  its own at 127.0.0.1 (DNS rebinding).
- **Token.** With a token in force, a request without it is answered 401 and shown nothing.
  The token comes as ``Authorization: Bearer TOKEN``, as the cookie :data:`TOKEN_COOKIE`
  (HttpOnly, SameSite=Strict, and Secure when the request came over TLS, as the trusted proxy
  in front says), or once as ``?token=TOKEN``: that sets the cookie, and a page
  asked for so is sent on to its address without the token (so the token does not stay in the
  address bar, the history or a bookmark).
- **Seat keys.** A seat's key of a table of people (``?key=`` or ``Authorization: Bearer``)
  stands in for the token on that table's own pages and calls, and nowhere else
  (:mod:`herzla.web.seat_keys`).
- **Cross-site requests.** A request that changes or computes (POST, PUT, PATCH, DELETE) is
  refused (403) when the browser says it comes from another site (``Origin`` naming another
  host, ``Sec-Fetch-Site`` other than ``same-origin``).  A form must also carry the field
  ``csrf`` equal to the cookie :data:`CSRF_COOKIE` (a random value per browser, HttpOnly,
  SameSite=Strict), which another site can neither read nor set; a call of the API must send
  JSON (``Content-Type: application/json``) or no body at all, which another site's page
  cannot send without the browser asking first (and this app answers no such question).
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlencode, urlsplit

from flask import Flask, g, redirect, render_template, request
from werkzeug.wrappers import Response

from herzla.i18n import _
from herzla.web.config import is_loopback, state
from herzla.web.errors import respond, wants_json
from herzla.web.seat_keys import admits, bearer

__all__ = ["CSRF_COOKIE", "TOKEN_COOKIE", "check", "csrf_token", "install"]

TOKEN_COOKIE = "herzla_token"
CSRF_COOKIE = "herzla_csrf"
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

#: the headers of every answer: nothing is loaded from elsewhere, no script runs but the app's
#: own file (``static/live.js``, which asks this app alone), no other site frames a page, no
#: address (with its token) is sent to another site as a referrer
#: (``same-origin``, not ``no-referrer``: with that, a browser sends a form's Origin as null)
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'self'; img-src 'self' data:; "
                               "script-src 'self'; connect-src 'self'; "
                               "form-action 'self'; base-uri 'none'; frame-ancestors 'none'; "
                               "manifest-src 'self'; worker-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}


def _same(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode("utf-8", "replace"),
                                                     token.encode("utf-8"))


def _host_name(host: str) -> str:
    """The name or address of a ``Host`` header, without its port."""
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _without_token() -> str:
    """The address asked for, less its ``token`` parameter."""
    rest = [(k, v) for k, v in request.args.items(multi=True) if k != "token"]
    return request.path + ("?" + urlencode(rest) if rest else "")


def _cross_site() -> str | None:
    """Why a request that changes or computes looks cross-site, or None."""
    origin = request.headers.get("Origin")
    if origin is not None and (origin == "null" or urlsplit(origin).netloc != request.host):
        return _("this request comes from another site's page")
    fetch = request.headers.get("Sec-Fetch-Site")
    if fetch is not None and fetch not in ("same-origin", "none"):
        return _("this request comes from another site's page")
    return None


def _public() -> bool:
    """The style sheets, the scripts, the icons and the manifest, which hold nothing of the
    evenings: the page that asks for the token is styled with them."""
    return request.method in ("GET", "HEAD") and (
        request.path.startswith("/static/") or request.path in (
            "/favicon.ico", "/drawing.css", "/manifest.webmanifest", "/sw.js"))


def _join() -> Response:
    """The answer to a request without the token: for a person, a page saying how to join."""
    message = _("this table needs its token: open the address that herzla serve printed, "
                "with its ?token=")
    out: Response = respond(401, message) if wants_json() else Response(
        render_template("join.html", message=message), status=401, mimetype="text/html")
    out.headers["WWW-Authenticate"] = 'Bearer realm="herzla"'
    return out


def check() -> Response | None:
    """Refuse the request (the answer) or let it through (None)."""
    config = state().config
    if config.loopback and not is_loopback(_host_name(request.host)):
        return respond(403, _("this server answers only at its loopback address "
                              "(http://127.0.0.1 or http://localhost)"))
    token = config.token
    if token is not None and not _public():
        from_query = request.args.get("token")
        if _same(bearer(), token):
            g.by_token = True
        elif _same(request.cookies.get(TOKEN_COOKIE), token):
            pass
        elif _same(from_query, token):
            g.set_token_cookie = True
            if request.method in ("GET", "HEAD") and not wants_json():
                out = redirect(_without_token(), 303)
                _set_token_cookie(out, token)
                return out
        elif not admits(state().store, request.path):
            return _join()
    if request.method in UNSAFE:
        why = _cross_site()
        if why is not None:
            return respond(403, why)
        if wants_json() and request.mimetype not in ("", "application/json"):
            # a form another site's page sends: refused even where a call reads no body
            return respond(415, "send the body as JSON, with the header "
                                "Content-Type: application/json")
        if not wants_json():
            form = request.form.get("csrf")
            cookie = request.cookies.get(CSRF_COOKIE)
            if not cookie or not _same(form, cookie):
                return respond(403, _("this form has expired or did not come from this "
                                      "app: reload the page and send it again"))
    return None


def csrf_token() -> str:
    """The value a form of this page carries in its ``csrf`` field (made, and set as the
    cookie, when the browser has none yet)."""
    value = request.cookies.get(CSRF_COOKIE)
    if not value or len(value) > 64:
        value = g.get("new_csrf") or secrets.token_urlsafe(24)
        g.new_csrf = value
    return value


def _set_token_cookie(out: Response, token: str) -> None:
    out.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="Strict", path="/",
                   secure=request.is_secure)


def finish(out: Response) -> Response:
    """Every answer: the security headers, and the cookies this request earned."""
    for name, value in HEADERS.items():
        out.headers.setdefault(name, value)
    token = state().config.token
    if token is not None and g.get("set_token_cookie"):
        _set_token_cookie(out, token)
    if g.get("new_csrf"):
        out.set_cookie(CSRF_COOKIE, g.new_csrf, httponly=True, samesite="Strict", path="/",
                       secure=request.is_secure)
    return out


def install(app: Flask) -> None:
    """Guard every request of ``app``."""
    app.before_request(check)
    app.after_request(finish)
    app.jinja_env.globals["csrf_token"] = csrf_token
