"""The app's words: gettext's functions for the pages and the app's Python (interim: the
catalog machinery lands in herzla.language)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from markupsafe import Markup

from herzla.draw.pips import pip_sprite

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.wrappers import Response

__all__ = ["N_", "_", "install", "ngettext", "pgettext"]


def install(app: Flask) -> None:
    """Give ``app``'s templates gettext's functions (Jinja2's i18n extension, new style: each
    message formatted with its values, escaped) and the suits' signs."""
    env = app.jinja_env
    env.add_extension("jinja2.ext.i18n")
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=_, ngettext=ngettext, pgettext=pgettext, newstyle=True)
    env.globals["pip_sprite"] = Markup(pip_sprite())
    env.globals.update(money=cents, number=number, signed_number=signed_number)
    app.context_processor(_languages)
    app.before_request(_remember)


#: the cookie that keeps the language a person chose with the pages' switch
COOKIE = "herzla_lang"
#: the query parameter of the switch (remembered), beside ``lang`` (for that call alone)
SWITCH = "language"
#: the languages the pages speak, each in its own word
SPOKEN = (("de", "Deutsch"), ("en", "English"))


def current() -> str:
    """The language of this request's page: ``en`` or ``de``."""
    return "en"


def _languages() -> dict[str, Any]:
    """What every page's template knows of its language: ``lang`` and the switch's links
    (this page's address with ``language=CODE``)."""
    from flask import request

    args = request.args.to_dict()
    args.pop("lang", None)
    out = []
    for code, word in SPOKEN:
        query = urlencode({**args, SWITCH: code})
        out.append((code, word, f"{request.path}?{query}"))
    return {"lang": current(), "languages": out}


def _remember() -> Response | None:
    """The switch (``?language=de``): remember the choice in a cookie and show the same page
    without the parameter."""
    from flask import redirect, request

    code = request.args.get(SWITCH)
    if code is None or request.method != "GET":
        return None
    args = request.args.to_dict()
    args.pop(SWITCH)
    args.pop("lang", None)
    query = urlencode(args)
    answer = redirect(request.path + ("?" + query if query else ""), 303)
    if code in dict(SPOKEN):
        answer.set_cookie(COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax",
                          secure=request.is_secure, httponly=True)
    return answer


def _(message: str) -> str:
    return message


def N_(message: str) -> str:
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def pgettext(context: str, message: str) -> str:
    return message


def number(value: float, digits: int = 0, sign: bool = False) -> str:
    """A number as the page's language writes it (``+6.5``; German ``+6,5``)."""
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    return text


def signed_number(value: int) -> str:
    """A score with its sign (``+40``, ``-30``, ``0``)."""
    return number(value, 0, sign=value != 0)


def cents(value: int, sign: bool = False) -> str:
    """An amount of cents as the pages write it: ``40c`` (German ``40 ct``), ``+40c`` with
    ``sign``."""
    return _("%(amount)sc") % {"amount": number(value, 0, sign=sign and value != 0)}
