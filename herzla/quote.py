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
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["number", "quote"]

#: characters of a text shown in a message
SHOWN = 40


def number(value: int) -> str:
    """A whole number as text, described by its length when it is very long."""
    digits = len(str(abs(value))) if abs(value) < 10**4000 else None
    if digits is not None and digits <= 30:
        return str(value)
    sign = "-" if value < 0 else ""
    return f"{sign}a number of {digits} digits" if digits else f"{sign}a number of 4000+ digits"


def quote(value: Any) -> str:
    """A value as it reads in JSON, shortened; lists and objects by their kind."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return number(value)
    if isinstance(value, float):
        return json.dumps(value) if len(repr(value)) <= SHOWN else "a number"
    if isinstance(value, str):
        if len(value) <= SHOWN:
            return json.dumps(value, ensure_ascii=False)
        return f"{json.dumps(value[:SHOWN], ensure_ascii=False)[:-1]}...\" ({len(value)} " \
               f"characters)"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
