"""The app's words: gettext's functions for the pages and the app's Python (interim: the
catalog machinery lands in herzla.language)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from markupsafe import Markup, escape

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
    env.filters["hy"] = hyphenated
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


_VOWELS = frozenset("aeiouäöüyAEIOUÄÖÜY")
_KEEP = ("ch", "ck", "ph", "th", "qu")


def hyphenated(text: object) -> Markup:
    """A name with soft hyphens where its long words may break (between syllables, roughly:
    before a consonant that a vowel follows, never inside ``sch``, ``ch``, ``ck``; three
    letters at least on each side), escaped: a narrow column wraps it with a hyphen, never
    mid-word without one, also where the browser has no dictionary of the language.

    >>> str(hyphenated("Dorothea Herzerlkönigin <b>"))
    'Dorothea Her\xadzerl\xadkö\xadnigin &lt;b&gt;'
    """
    out = []
    for word in str(text).split(" "):
        if len(word) < 8 or not word.isalpha():
            out.append(str(escape(word)))
            continue
        parts, last = [], 0
        for i in range(3, len(word) - 3):
            ch, nxt = word[i], word[i + 1]
            if (ch.isalpha() and ch not in _VOWELS and nxt in _VOWELS and i - last >= 3
                    and word[i - 1:i + 1].lower() not in _KEEP
                    and word[max(0, i - 2):i + 1].lower() != "sch"
                    and any(x in _VOWELS for x in word[last:i])):
                parts.append(word[last:i])
                last = i
        parts.append(word[last:])
        out.append("\u00ad".join(str(escape(x)) for x in parts))
    return Markup(" ".join(out))
