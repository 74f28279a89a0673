"""The words the contracts' explanations are written in: lists of seats and cards, plurals,
places."""

from __future__ import annotations

from collections.abc import Sequence

from herzla.cards import cards_of
from herzla.i18n import DEFAULT, _, current, format_number, format_signed, pgettext, translations

__all__ = ["amount_text", "and_list", "card_list", "cent_sign", "cents", "counted",
           "ordinal_word", "plural", "points", "seat_list", "seat_word", "tr"]


def and_list(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (nothing for no items)."""
    if len(items) <= 1:
        return "".join(items)
    return _("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


def seat_list(seats: Sequence[int]) -> str:
    return and_list([seat_word(s) for s in seats])


def seat_word(seat: int) -> str:
    """``seat 2``: a seat as the explanations name it, in the current language."""
    return _("seat {seat}").format(seat=seat)


def card_list(mask: int) -> str:
    return " ".join(str(c) for c in cards_of(mask))


def points(n: int) -> str:
    """A signed amount as the text of the current language writes it: ``+10``, ``-20`` in
    English, ``+10``, ``−20`` (the minus sign) in German; 0 as ``+0``."""
    if current() == DEFAULT or n >= 0:
        return f"{n:+d}"
    return format_number(n)


def cent_sign() -> str:
    """What follows an amount of cents in text, space included: ``c`` (``80c``; German
    `` ct``, ``80 ct``).  Every amount of cents herzla writes for people ends in it."""
    return pgettext("after an amount of cents", "c")


def cents(n: int) -> str:
    """An amount in cents as the explanations write it: ``80c``; German ``80 ct``."""
    if current() == DEFAULT:
        return f"{n}{cent_sign()}"
    return f"{format_number(n)}{cent_sign()}"


def signed(v: int) -> str:
    """A score as the reports write it: ``+40``, ``-30``, ``0`` (in German with the minus sign
    of text, ``−30``)."""
    if current() != DEFAULT:
        return format_signed(v)
    return f"{v:+d}" if v else "0"


def amount_text(value: int, cents_: bool) -> str:
    """A hand's amount beside a seat: ``+40c``, ``-30c``, ``0c`` (German ``+40 ct``,
    ``−30 ct``); without ``cents_`` the points alone."""
    return signed(value) + (cent_sign() if cents_ else "")


def counted(n: int, name: str) -> str:
    """``3 hearts``: ``n`` cards of a class a declaration names ``name`` (``heart``), in the
    current language."""
    return f"{n} {tr(name) if n == 1 else _('{name}s').format(name=tr(name))}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def ordinal_word(n: int) -> str:
    """``first``, ``second``, ``third``, ``fourth``, then ``5th`` (German: ``als Erster``,
    ..., ``als 5.``)."""
    words = {1: _("first"), 2: _("second"), 3: _("third"), 4: _("fourth")}
    return words.get(n, _("{n}th").format(n=n))


_REFLOWED: dict[str, dict[str, str]] = {}


def tr(message: str) -> str:
    """``message`` in the current language, where it was marked for the catalog as written in
    the code (``N_``) but is read with its runs of white space as one space (a rule's text, a
    summary written over several lines): the catalog is looked up as written, then reflowed."""
    if not message or current() == DEFAULT:
        return message
    found = _(message)
    if found != message:
        return " ".join(found.split()) if "\n" in found else found
    code = current()
    index = _REFLOWED.get(code)
    if index is None:
        catalog = getattr(translations(code), "_catalog", {})
        index = {" ".join(k.split()): " ".join(v.split()) for k, v in catalog.items()
                 if isinstance(k, str) and k and isinstance(v, str)}
        _REFLOWED[code] = index
    return index.get(" ".join(message.split()), message)
