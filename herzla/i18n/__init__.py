"""The language herzla speaks to people: English (``en``) or German (``de``).

Every text a person reads goes through here: :func:`_` (and :func:`ngettext` for plurals,
:func:`pgettext` where one English word has two German ones) translates a message into the
language chosen for the current context, from the ``herzla`` catalog
(``herzla/locale/de/LC_MESSAGES/herzla.po``).  :func:`N_` only marks a message for the catalog
(a declaration's text, translated where it is read).  The choice is a context variable: a
thread, an asyncio task or one request of the table app each has its own, and it starts as
English.

>>> from herzla.i18n import _, language
>>> message = "unknown language {code} (known: {known})"
>>> _(message).format(code="fr", known="en, de")
'unknown language fr (known: en, de)'
>>> with language("de"):
...     _(message).format(code="fr", known="en, de")
'unbekannte Sprache fr (bekannt: en, de)'
>>> current()
'en'
>>> language("Deutsch")
language('de')
>>> current()
'de'
>>> language("en")
language('en')

Codes, JSON keys, files and numbers never change with the language; only what a person reads.
"""

from __future__ import annotations

import gettext as _gettext
import io
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType

from herzla.i18n.catalog import compile_po
from herzla.i18n.formats import (
    format_date,
    format_money,
    format_number,
    format_signed,
    minus,
)
from herzla.i18n.state import DEFAULT, LANGUAGES, current, current_language

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "Choice",
    "UnknownLanguage",
    "_",
    "choose_language",
    "current",
    "format_date",
    "format_money",
    "format_number",
    "format_signed",
    "language",
    "language_from_env",
    "minus",
    "ngettext",
    "npgettext",
    "pgettext",
    "read_language",
    "speaking",
    "translations",
]

DOMAIN = "herzla"
#: where the catalogs are: ``<lang>/LC_MESSAGES/herzla.po`` (and the built ``.mo``)
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_current = current_language
_loaded: dict[str, _gettext.NullTranslations] = {}
_lock = threading.Lock()


class UnknownLanguage(ValueError):
    """A language herzla has no catalog for."""


def read_language(code: object) -> str:
    """The language code ``code`` names (``de``, ``DE``, ``de_AT``, ``de-CH``, ``Deutsch``,
    ``en_US.UTF-8``, ``English``); :class:`UnknownLanguage` otherwise."""
    if isinstance(code, str):
        text = code.strip().lower()
        if text in ("deutsch", "german"):
            return "de"
        if text in ("englisch", "english"):
            return "en"
        base = text.replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
        if base in LANGUAGES:
            return base
    raise UnknownLanguage(_("unknown language {code} (known: {known})").format(
        code=repr(code) if not isinstance(code, str) else '"' + "".join(
            c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
            for c in code[:40]) + '"',
        known=", ".join(LANGUAGES)))


class Choice:
    """What :func:`language` returns: the choice made, undone when used as a context manager
    ends."""

    __slots__ = ("_token", "code")

    def __init__(self, code: str) -> None:
        self.code = code
        self._token = _current.set(code)

    def __enter__(self) -> str:
        return self.code

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        _current.reset(self._token)

    def __repr__(self) -> str:
        return f"language({self.code!r})"


def language(code: str) -> Choice:
    """Choose the language of the current context: ``herzla.language("de")`` from here on, or
    ``with herzla.language("de"): ...`` for a block (the choice before it comes back after)."""
    return Choice(read_language(code))


def translations(code: str) -> _gettext.NullTranslations:
    """The catalog of ``code`` (loaded once): the built ``.mo``, or the ``.po`` compiled in
    memory where no ``.mo`` was built (a source checkout)."""
    found = _loaded.get(code)
    if found is not None:
        return found
    with _lock:
        found = _loaded.get(code)
        if found is None:
            found = _load(code)
            _loaded[code] = found
    return found


def _load(code: str) -> _gettext.NullTranslations:
    if code == DEFAULT:
        return _gettext.NullTranslations()
    folder = LOCALE_DIR / code / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return _gettext.GNUTranslations(fh)
    if po.is_file():
        data = compile_po(po.read_text(encoding="utf-8"))
        return _gettext.GNUTranslations(io.BytesIO(data))
    return _gettext.NullTranslations()


def _(message: str) -> str:
    """``message`` in the current language."""
    code = _current.get()
    if code == DEFAULT:
        return message
    return translations(code).gettext(message)


def N_(message: str) -> str:
    """``message`` itself, marked for the catalog: translated where it is read (``_(x)``)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural of a message for ``n``, in the current language (the language's
    own plural rule)."""
    code = _current.get()
    if code == DEFAULT:
        return singular if n == 1 else plural
    return translations(code).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where ``context`` tells two senses apart."""
    code = _current.get()
    if code == DEFAULT:
        return message
    return translations(code).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context."""
    code = _current.get()
    if code == DEFAULT:
        return singular if n == 1 else plural
    return translations(code).npgettext(context, singular, plural, n)


def language_from_env(environ: dict[str, str] | None = None) -> str:
    """The language the environment asks for, read as gettext reads it (``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the first set); ``C``, ``POSIX``, nothing, or a
    language herzla has no catalog for is English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for part in value.split(":"):
            if part in ("C", "POSIX") or part.startswith(("C.", "POSIX.")):
                return DEFAULT
            try:
                return read_language(part)
            except UnknownLanguage:
                continue
        return DEFAULT
    return DEFAULT


def choose_language(accept: str | None) -> str:
    """The language an HTTP ``Accept-Language`` header asks for most (``de`` or ``en``;
    English when it asks for neither)."""
    best, best_q = DEFAULT, -1.0
    for item in (accept or "").split(",")[:50]:
        tag, _sep, params = item.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                continue
        if not (0.0 < q <= 1.0):
            continue
        try:
            code = read_language(tag)
        except UnknownLanguage:
            continue
        if q > best_q:
            best, best_q = code, q
    return best


@contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """A block in ``code`` (None: the current language), for callers that may have none."""
    if code is None:
        yield current()
        return
    with language(code) as chosen:
        yield chosen
