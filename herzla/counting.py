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
"""

from __future__ import annotations

__all__ = ["ordinal", "play_place"]


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ..., ``11th``, ``21st``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


def play_place(index: int, players: int | None = None) -> str:
    """Where the play of 0-based ``index`` in a record's ``plays`` is, counted from 1: with
    ``players`` (a trick deal, every trick one card a seat) its trick and its card in the
    trick."""
    where = f"play {index + 1}"
    if players is None or players < 1:
        return where
    return f"{where}, trick {index // players + 1}, {ordinal(index % players + 1)} card"
