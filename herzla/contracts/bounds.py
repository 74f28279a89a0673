"""A contract's declaration checked against the limits (:mod:`herzla.limits`).

Every contract checks its own declaration when it is made (:func:`declaration_problem`,
:func:`amount_problem`), so options that would take a hand's amounts beyond the limits are an
:class:`~herzla.options.OptionError` naming them, never a wrapped 64-bit sum; the registry checks
a plug-in's with the same functions (:mod:`herzla.contracts.checks`).

>>> from herzla.cards import HEARTS_MASK, PACK_32
>>> from herzla.contracts.vocabulary import CardValue, TrickRules
>>> rules = TrickRules(values=(CardValue(HEARTS_MASK, -(2**62), "heart"),))
>>> declaration_problem(rules, PACK_32.mask, 4)
'the value of a heart, -4,611,686,018,427,387,904, is beyond ±1,000,000,000,000'
>>> declaration_problem(TrickRules(per_trick=10**12), PACK_32.mask, 4) is None
True
"""

from __future__ import annotations

from typing import Any, Protocol

from herzla.cards import Card, Rank
from herzla.contracts.vocabulary import (
    CardValue,
    EarlyEnd,
    LayoutRules,
    LeadBan,
    Rows,
    TrickRules,
)
from herzla.limits import MAX_AMOUNT, MAX_HAND_AMOUNT
from herzla.options import OptionError


class _Bounded(Protocol):
    """What :func:`amount_problem` asks of a contract."""

    def amount_bound(self) -> int: ...

__all__ = ["DeclarationError", "amount_problem", "declaration_problem", "one_line"]

#: every card of the encoding (36 bits)
_CARDS = (1 << 36) - 1


class DeclarationError(OptionError):
    """A contract whose declaration, for its players and options, lies beyond the limits (or
    a plug-in's ``declare()`` that raised).  ``problem`` says what, without naming the
    contract."""

    def __init__(self, message: str, problem: str) -> None:
        super().__init__(message)
        self.problem = problem

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (str(self), self.problem)


def one_line(exc: BaseException, cut: str = "") -> str:
    """What ``exc`` says, on one line and at most 160 characters (``cut`` marks a cut): how a
    plug-in's own error is quoted."""
    text = " ".join(str(exc).split())
    return text if len(text) <= 160 else text[:160] + cut


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _amount(value: object, what: str) -> str | None:
    if not _whole(value):
        return f"{what} must be a whole number, not {type(value).__name__}"
    assert isinstance(value, int)
    if abs(value) > MAX_AMOUNT:
        return f"{what}, {value:,}, is beyond ±{MAX_AMOUNT:,}"
    return None


def _cards(value: object, what: str) -> str | None:
    if not _whole(value) or not 0 <= value <= _CARDS:  # type: ignore[operator]
        return f"{what} must be a bit set of cards (0 to 2**36 - 1), not {value!r:.40}"
    return None


def _trick_problem(d: TrickRules) -> str | None:
    for v in d.values:
        if not isinstance(v, CardValue):
            return f"values holds {type(v).__name__}, not a CardValue"
        name = v.name if isinstance(v.name, str) else "card"
        problem = _cards(v.cards, f"the cards of the {name} value") or _amount(
            v.points, f"the value of a {name}")
        if problem:
            return problem
    for what in ("per_trick", "last_trick"):
        problem = _amount(getattr(d, what), what)
        if problem:
            return problem
    for ban in d.lead_bans:
        if not isinstance(ban, LeadBan):
            return f"lead_bans holds {type(ban).__name__}, not a LeadBan"
        problem = _cards(ban.cards, "the cards of a lead ban")
        if problem:
            return problem
        if not _whole(ban.tricks) or not 0 <= ban.tricks <= MAX_AMOUNT:
            return f"a lead ban's tricks must be 0 to {MAX_AMOUNT:,}, not {ban.tricks!r:.40}"
        if not isinstance(ban.rule, str) or not ban.rule:
            return "a lead ban's rule must be the id of a rule (text)"
    if d.early_end is not None and not isinstance(d.early_end, EarlyEnd):
        return f"early_end must be an EarlyEnd or None, not {d.early_end!r:.40}"
    for m in (*d.counted, *(d.danger or ())):
        problem = _cards(m, "a counted or danger class")
        if problem:
            return problem
    return None


def _layout_problem(d: LayoutRules, pack: int, players: int) -> str | None:
    rows = d.rows
    if not isinstance(rows, Rows):
        return f"rows must be Rows, not {type(rows).__name__}"
    if not rows.sequence or not all(isinstance(r, Rank) for r in rows.sequence):
        return "the rows' sequence must be ranks (at least one)"
    if rows.opening not in rows.sequence:
        return f"the rows' opening rank {rows.opening!r:.40} is not in their sequence"
    if rows.first is not None and (not isinstance(rows.first, Card)
                                   or not pack >> rows.first.index & 1):
        return f"the card that opens the deal, {rows.first!s:.40}, is not in the pack"
    places = d.places
    if not isinstance(places, tuple) or len(places) != players:
        return f"places must give the points of each of the {players} places"
    for i, p in enumerate(places, 1):
        problem = _amount(p, f"the points of place {i}")
        if problem:
            return problem
    return None


def declaration_problem(d: object, pack: int, players: int) -> str | None:
    """None if the declaration ``d`` of a deal of ``players`` seats from the pack ``pack`` (a
    bit set) is made of the vocabulary's words and each amount it declares keeps to the limit,
    else what is wrong, in words (what a whole hand can move: :func:`amount_problem`)."""
    if isinstance(d, TrickRules):
        return _trick_problem(d)
    if isinstance(d, LayoutRules):
        return _layout_problem(d, pack, players)
    return f"declare() answered {type(d).__name__}, not TrickRules or LayoutRules"


def amount_problem(contract: _Bounded) -> str | None:
    """None if what one hand of ``contract`` can move at worst (``amount_bound()``) keeps to
    the limit, else what it can move, in words."""
    worst = contract.amount_bound()
    if not _whole(worst):
        return f"amount_bound() answered {type(worst).__name__}, not a whole number"
    if not 0 <= worst <= MAX_HAND_AMOUNT:
        return f"a hand can move {worst:,} at most, beyond the limit of {MAX_HAND_AMOUNT:,}"
    return None
