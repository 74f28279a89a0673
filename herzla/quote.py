"""How messages quote what a user wrote: as the user wrote it (JSON text, not Python), short.

A message names the offending value, but never repeats a megabyte of it, never prints a Python
repr (``True``, ``None``, ``'x'``), and never fails on a value too deep or too large to print.

>>> quote(True), quote(None), quote("H7"), quote(3)
('true', 'null', '"H7"', '3')
>>> quote([1, [2, [3]]]), quote({"a": 1})
('a list', 'an object')
>>> quote("x" * 100)
'"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..." (100 characters)'
>>> quote(10**100)
'a number of 101 digits'
>>> print(quote("a" + chr(0x2028) + "b"))
"a\\u2028b"
"""

from __future__ import annotations

import json
from typing import Any

from herzla.i18n import _

__all__ = ["number", "quote", "visible"]

#: characters of a text shown in a message
SHOWN = 40


def number(value: int) -> str:
    """A whole number as text, described by its length when it is very long."""
    digits = len(str(abs(value))) if abs(value) < 10**4000 else None
    if digits is not None and digits <= 30:
        return str(value)
    sign = "-" if value < 0 else ""
    return f"{sign}a number of {digits} digits" if digits else f"{sign}a number of 4000+ digits"


def _visible(text: str) -> str:
    """JSON text with every character that does not print (a line or paragraph separator such
    as U+0085 or U+2028, a control, a format mark) escaped as JSON writes it, ``\\u0085``: a
    message stays one line and shows what was there."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else
                   "".join(f"\\u{u:04x}" for u in _utf16(c)) for c in text)


def _utf16(c: str) -> list[int]:
    data = c.encode("utf-16-be", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "big") for i in range(0, len(data), 2)]


def visible(text: str) -> str:
    r"""``text`` as it may be shown anywhere (a terminal, an SVG picture, a page): every
    character that does not print (a control such as ESC or BEL, a format mark, a line
    separator other than the line feed) shown escaped, ``\u001b``; line feeds kept.  So what a
    plug-in or a user wrote cannot move a terminal's cursor, ring its bell or change its colour,
    nor make an XML document malformed.

    >>> visible("\x1b[31mRed\x07 jacks\nline two")
    '\\u001b[31mRed\\u0007 jacks\nline two'
    """
    if text.isprintable():
        return text
    return "\n".join(_visible(line) for line in str(text).split("\n"))


def quote(value: Any) -> str:
    """A value as it reads in JSON, shortened; lists and objects by their kind."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):
        return json.dumps(value) if len(repr(value)) <= SHOWN else _("a number")
    if isinstance(value, str):
        if len(value) <= SHOWN:
            return _visible(json.dumps(value, ensure_ascii=False))
        return f"{_visible(json.dumps(value[:SHOWN], ensure_ascii=False))[:-1]}...\" " + \
            _("({n} characters)").format(n=len(value))
    if isinstance(value, list | tuple):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return type(value).__name__
