"""The language of each request of the app, and the pages' words.

The language is chosen per request as the Table app page of the docs says: ``?lang=de`` (or
``en``) for that call, else the one the person chose with the switch on every page
(``?language=de``, kept in the cookie ``herzla_lang``), else the browser's ``Accept-Language``;
English where it asks for neither. The request runs in it (:func:`herzla.i18n.language`, a
context variable: each request its own), so the library's texts (explanations, errors, hints)
come in it too.

The templates translate with Jinja2's i18n extension (new style: ``_("Deal %(k)s", k=3)``
formats and escapes), over herzla's own gettext functions and its one catalog
(``herzla/locale/de/LC_MESSAGES/herzla.po``), which holds the library's messages and the
app's: Flask-Babel is not needed."""

from __future__ import annotations

from contextlib import suppress
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from markupsafe import Markup, escape

from herzla.contracts.words import cent_sign
from herzla.draw.pips import pip_sprite
from herzla.i18n import (
    N_,
    _,
    choose_language,
    current,
    format_number,
    language,
    ngettext,
    pgettext,
    read_language,
)

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.wrappers import Response

__all__ = ["COOKIE", "N_", "_", "cents", "current", "hyphenated", "install", "ngettext",
           "number", "pgettext", "signed_number"]


def install(app: Flask) -> None:
    """Give ``app``'s templates gettext's functions (Jinja2's i18n extension, new style: each
    message formatted with its values, escaped) and the suits' signs."""
    env = app.jinja_env
    env.add_extension("jinja2.ext.i18n")
    env.policies["ext.i18n.trimmed"] = True  # as the catalog's extraction reads them
    env.install_gettext_callables(  # type: ignore[attr-defined,unused-ignore]
        gettext=_, ngettext=ngettext, pgettext=pgettext, newstyle=True)
    env.globals["pip_sprite"] = Markup(pip_sprite())
    env.globals.update(cents=cents, number=number, signed_number=signed_number)
    env.filters["hy"] = hyphenated
    app.context_processor(_languages)
    app.before_request(_choose)
    app.before_request(_remember)
    app.teardown_request(_done)


#: the cookie that keeps the language a person chose with the pages' switch
COOKIE = "herzla_lang"
#: the query parameter of the switch (remembered), beside ``lang`` (for that call alone)
SWITCH = "language"
#: the languages the pages speak, each in its own word
SPOKEN = (("de", "Deutsch"), ("en", "English"))


def asked() -> str:
    """The language this request asks for: ``?lang=``, else the switch's cookie, else
    ``Accept-Language`` (English where none of them names one herzla speaks)."""
    from flask import request

    for given in (request.args.get("lang"), request.cookies.get(COOKIE)):
        if given:
            try:
                return read_language(given[:40])
            except ValueError:
                continue
    return choose_language(request.headers.get("Accept-Language"))


def _choose() -> None:
    from flask import g

    g.herzla_language = language(asked())


def _done(_exc: BaseException | None) -> None:
    from flask import g

    choice = g.pop("herzla_language", None)
    if choice is not None:
        with suppress(ValueError):  # set in another context: nothing of it is left here
            choice.__exit__(None, None, None)


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


def number(value: float, digits: int = 0, sign: bool = False) -> str:
    """A number as the page's language writes it (``+6.5``; German ``+6,5``; the minus sign
    U+2212)."""
    return format_number(value, digits, sign=sign)


def signed_number(value: int) -> str:
    """A score with its sign (``+40``, ``-30``, ``0``)."""
    return number(value, 0, sign=value != 0)


def cents(value: int, sign: bool = False) -> str:
    """An amount of cents as the pages write it: ``40c`` (German ``40 ct``), ``+40c`` with
    ``sign``."""
    return number(value, 0, sign=sign) + cent_sign()


_VOWELS = frozenset("aeiouäöüyAEIOUÄÖÜY")
#: letters that stay together at a break, the break coming before them
_CLUSTERS = ("sch", "ch", "ck", "ph", "th", "qu")


def _syllables(word: str) -> list[str]:
    """``word`` cut where a German (or English) word may break, roughly: before a consonant
    or a cluster (``sch``, ``ch``, ``ck``) that a vowel follows, with a vowel before the cut
    and three letters at least on each side (words of 8 letters and more)."""
    parts, last, i = [], 0, 3
    while i < len(word) - 3:
        size = next((len(c) for c in _CLUSTERS if word[i:i + len(c)].lower() == c), 1)
        follow = word[i + size:i + size + 1]
        # not inside a cluster that began before ``i`` (the "h" of "th")
        inside = any(word[i - k:i - k + len(c)].lower() == c
                     for c in _CLUSTERS for k in range(1, len(c)) if i - k >= 0)
        if (not inside and word[i] not in _VOWELS and follow and follow in _VOWELS
                and i - last >= 3
                and len(word) - i >= 3 and any(x in _VOWELS for x in word[last:i])):
            parts.append(word[last:i])
            last = i
        i += size
    parts.append(word[last:])
    return parts


def hyphenated(text: object) -> Markup:
    """A name with soft hyphens where its long words may break (:func:`_syllables`; the parts
    of a word with a hyphen each), escaped: a narrow column wraps it with a hyphen, never
    mid-word without one, also where the browser has no dictionary of the language.

    >>> str(hyphenated("Dorothea Herzerlkönigin <b>")).replace("\\xad", "|")
    'Doro|thea Her|zerl|königin &lt;b&gt;'
    >>> str(hyphenated("Anna-Katharina Schleichermord")).replace("\\xad", "|")
    'Anna-Katha|rina Schlei|cher|mord'
    """
    out = []
    for word in str(text).split(" "):
        pieces = []
        for piece in word.split("-"):
            if len(piece) < 8 or not piece.isalpha():
                pieces.append(str(escape(piece)))
            else:
                pieces.append("\u00ad".join(str(escape(x)) for x in _syllables(piece)))
        out.append("-".join(pieces))
    return Markup(" ".join(out))
