"""Amounts and lists as the reports write them, in the current language (:mod:`herzla.i18n`):
shared by the records' reports, the evening's text, the settlement and the advice.

>>> from herzla.i18n import language
>>> signed(-30), cent_sign(), or_list(["C7", "CA", "C8"]), seat_scores([40, -40], "c")
('-30', 'c', 'C7, CA or C8', 'seat 0 +40c, seat 1 -40c')
>>> with language("de"):
...     signed(-30), cent_sign(), or_list(["C7", "CA", "C8"]), seat_scores([40, -40], cent_sign())
('−30', ' ct', 'C7, CA oder C8', 'Platz 0 +40 ct, Platz 1 −40 ct')
"""

from __future__ import annotations

from collections.abc import Sequence

from herzla.contracts.words import cent_sign, signed
from herzla.i18n import DEFAULT, _, current, format_number, minus

__all__ = ["capital", "cent_sign", "decimal", "localized", "or_list", "seat_scores", "signed"]


def seat_scores(scores: Sequence[int], unit: str) -> str:
    """``seat 0 +40c, seat 1 -40c, ...``."""
    return ", ".join(_("seat {seat} {score}").format(seat=s, score=signed(v) + unit)
                     for s, v in enumerate(scores))


def or_list(items: Sequence[str]) -> str:
    """``a, b or c``."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} or {last}").format(items=", ".join(items[:-1]), last=items[-1])


def capital(text: str) -> str:
    """``text`` as a sentence begins (``play 6 (trick 2, ...)`` -> ``Play 6 (trick 2, ...)``),
    the rest as it was."""
    return text[:1].upper() + text[1:]


def decimal(x: float, digits: int = 1, *, sign: bool = True) -> str:
    """A mean or a difference as the reasons write it: ``+6.5`` (``+6,5`` in German)."""
    if current() == DEFAULT:
        return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"
    return format_number(x, digits, sign=sign)


def localized(text: str) -> str:
    """A number written the English way (``1,234.5``, ``-3``), as the current language writes
    it (``1.234,5``, ``−3`` in German)."""
    if current() == DEFAULT:
        return text
    return text.replace(",", "\0").replace(".", ",").replace("\0", ".").replace("-", minus)
