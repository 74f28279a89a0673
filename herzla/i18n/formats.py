"""Numbers, money and dates as a person reads them in each language.

>>> format_number(1234.5, 2, "de"), format_number(1234.5, 2, "en")
('1.234,50', '1,234.50')
>>> format_money(-170, "de"), format_money(170, "en"), format_money(560, "de", sign=True)
('−1,70 €', '1.70 €', '+5,60 €')
>>> import datetime

from herzla.i18n.state import current
>>> format_date(datetime.date(2026, 12, 7), "de"), format_date(datetime.date(2026, 12, 7), "en")
('7. Dez. 2026', '7 Dec 2026')
>>> format_signed(-40, "de"), format_signed(40), format_signed(0)
('−40', '+40', '0')
"""

from __future__ import annotations

import datetime

from herzla.i18n.state import current

__all__ = ["format_date", "format_money", "format_number", "format_signed", "minus"]

#: the minus sign in text (U+2212), in both languages
minus = "\u2212"

_SEPARATORS = {"en": (",", "."), "de": (".", ",")}
_MONTHS = {
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
    "de": ("Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.",
           "Nov.", "Dez."),
}


def _code(lang: str | None) -> str:
    if lang is None:
        lang = current()
    return lang if lang in _SEPARATORS else "en"


def format_number(value: float, digits: int = 0, lang: str | None = None, *,
                  sign: bool = False) -> str:
    """``value`` with ``digits`` decimals and the language's separators (``1.234,50`` in
    German), a minus sign (U+2212) below 0 and, with ``sign``, a plus above it."""
    group, point = _SEPARATORS[_code(lang)]
    text = f"{abs(value):,.{digits}f}"
    text = text.replace(",", "\0").replace(".", point).replace("\0", group)
    negative = value < 0 and any(ch not in "0.,\0" for ch in text.replace(group, ""))
    head = minus if negative else ("+" if sign and value > 0 else "")
    return head + text


def format_signed(value: int, lang: str | None = None) -> str:
    """A whole amount as a rule book writes it: ``+80``, ``−33``, ``0``."""
    return format_number(value, 0, lang, sign=True)


def format_money(cents: int, lang: str | None = None, *, sign: bool = False) -> str:
    """Cents as euros: ``1,70 €`` in German, ``1.70 €`` in English."""
    code = _code(lang)
    number = format_number(abs(cents) / 100, 2, code)
    head = minus if cents < 0 else ("+" if sign and cents > 0 else "")
    return f"{head}{number} €"


def format_date(day: datetime.date, lang: str | None = None) -> str:
    """A day as a person writes it: ``7. Dez. 2026``, ``7 Dec 2026``."""
    code = _code(lang)
    month = _MONTHS[code][day.month - 1]
    return f"{day.day}. {month} {day.year}" if code == "de" else f"{day.day} {month} {day.year}"
