"""The words the contracts' explanations are written in: lists of seats and cards, plurals,
places."""

from __future__ import annotations

from collections.abc import Sequence

from herzla.cards import cards_of

__all__ = ["and_list", "card_list", "ordinal_word", "plural", "seat_list"]


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (nothing for no items)."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def seat_list(seats: Sequence[int]) -> str:
    return and_list([f"seat {s}" for s in seats])


def card_list(mask: int) -> str:
    return " ".join(str(c) for c in cards_of(mask))


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def ordinal_word(n: int) -> str:
    """``first``, ``second``, ``third``, ``fourth``, then ``5th``."""
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")
