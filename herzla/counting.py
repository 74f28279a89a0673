"""How text for people counts: from 1, and saying where.

JSON answers keep their documented 0-based indexes (a play's ``index`` is its place in the
record's ``plays``, a list's records count from 0); every sentence a person reads counts from 1
as people do and says where a play is: "play 15, trick 4, 3rd card".

>>> ordinal(1), ordinal(2), ordinal(3), ordinal(4), ordinal(11), ordinal(22)
('1st', '2nd', '3rd', '4th', '11th', '22nd')
>>> play_place(14, players=4)
'play 15, trick 4, 3rd card'
>>> play_place(14)
'play 15'

A number a person typed is read by :func:`read_whole` alone, which takes the digits 0 to 9
and nothing else (``str.isdigit`` says yes to ``²``, which ``int`` refuses):

>>> read_whole("12"), read_whole(" 7 "), read_whole("²"), read_whole("-3", signed=True)
(12, 7, None, -3)
"""

from __future__ import annotations

import re

from herzla.i18n import DEFAULT, _, current

__all__ = ["ordinal", "play_place", "read_whole"]

_WHOLE = re.compile(r"[0-9]+", re.ASCII)
_SIGNED = re.compile(r"[+-]?[0-9]+", re.ASCII)


def read_whole(text: object, *, signed: bool = False, digits: int = 19) -> int | None:
    """The whole number ``text`` writes in the digits 0 to 9 (white space around it allowed;
    ``signed``: a ``+`` or ``-`` before it), at most ``digits`` digits long; None for
    anything else: a digit that is no number (``²``), a word, a fraction, too many digits."""
    if not isinstance(text, str):
        return None
    word = text.strip()
    if not (_SIGNED if signed else _WHOLE).fullmatch(word) or len(word.lstrip("+-")) > digits:
        return None
    return int(word)


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..., ``11th``, ``21st`` (German: ``1.``)."""
    if current() != DEFAULT:
        return f"{n}."
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


def play_place(index: int, players: int | None = None) -> str:
    """Where the play of 0-based ``index`` in a record's ``plays`` is, counted from 1: with
    ``players`` (a trick deal, every trick one card a seat) its trick and its card in the
    trick."""
    where = _("play {n}").format(n=index + 1)
    if players is None or players < 1:
        return where
    return _("{play}, trick {trick}, {nth} card").format(
        play=where, trick=index // players + 1, nth=ordinal(index % players + 1))
