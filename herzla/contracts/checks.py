"""The checks a contract class and its declaration pass before herzla plays them.

A plug-in is checked when the registry takes it in (:func:`check_contract_class`,
:func:`check_game`): its metadata (``game``, ``id``, ``player_counts``, ``options``), a contract
of it for each number of players with the default options (built inside a guard, so a
``declare()`` that raises is a :class:`PluginError`, not a traceback in every command), and its
declaration against the limits (:mod:`herzla.limits`): every declared amount within
``±MAX_AMOUNT``, what one hand can move at worst within ``MAX_HAND_AMOUNT``, both for the default
options and with the whole-number options at the ends of their ranges.  The registry skips a
class that fails, with one :class:`PluginWarning` line naming it and why.

Every contract checks its own declaration when it is made (:func:`declaration_problem`), so
options that would take a hand's amounts beyond the limits are an
:class:`~herzla.options.OptionError` naming them, never a wrapped 64-bit sum.

>>> from herzla.cards import HEARTS_MASK, PACK_32
>>> from herzla.contracts.vocabulary import CardValue, TrickRules
>>> rules = TrickRules(values=(CardValue(HEARTS_MASK, -(2**62), "heart"),))
>>> declaration_problem(rules, PACK_32.mask, 4)
'the value of a heart, -4,611,686,018,427,387,904, is beyond ±1,000,000,000,000'
>>> declaration_problem(TrickRules(per_trick=10**12), PACK_32.mask, 4) is None
True
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from herzla.cards import Card, Rank
from herzla.contracts.vocabulary import (
    CardValue,
    EarlyEnd,
    LayoutRules,
    LeadBan,
    Rows,
    TrickRules,
)
from herzla.limits import MAX_AMOUNT, MAX_HAND_AMOUNT, MAX_PARTIE_AMOUNT, MAX_SEATS
from herzla.options import Option, OptionError

if TYPE_CHECKING:
    from herzla.contracts.base import Contract
    from herzla.contracts.game import Game

__all__ = ["DeclarationError", "PluginError", "PluginWarning", "amount_problem",
           "check_contract_class", "check_game", "declaration_problem", "named", "skip"]

#: every card of the encoding (36 bits)
_CARDS = (1 << 36) - 1


class PluginError(ValueError):
    """A contract class or game herzla cannot use, in one line naming it (``what``) and saying
    why (``why``)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(f"{what}: {why}")
        self.what = what
        self.why = why

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.what, self.why)


class DeclarationError(OptionError):
    """A contract whose declaration, for its players and options, lies beyond the limits (or
    a plug-in's ``declare()`` that raised).  ``problem`` says what, without naming the
    contract."""

    def __init__(self, message: str, problem: str) -> None:
        super().__init__(message)
        self.problem = problem

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (str(self), self.problem)


class PluginWarning(UserWarning):
    """A plug-in the registry skips (the command line shows it as one ``herzla: warning:``
    line)."""


def skip(what: str, why: str) -> None:
    """Warn, in one line, that the registry skips ``what`` because of ``why``."""
    warnings.warn(f"{what} is skipped: {why}", PluginWarning, stacklevel=3)


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


def amount_problem(contract: Contract) -> str | None:
    """None if what one hand of ``contract`` can move at worst (``amount_bound()``) keeps to
    the limit, else what it can move, in words."""
    worst = contract.amount_bound()
    if not _whole(worst):
        return f"amount_bound() answered {type(worst).__name__}, not a whole number"
    if not 0 <= worst <= MAX_HAND_AMOUNT:
        return f"a hand can move {worst:,} at most, beyond the limit of {MAX_HAND_AMOUNT:,}"
    return None


# -- a class, on registration --------------------------------------------------------------
def named(cls: type[Contract]) -> str:
    """A contract class as a registry message names it."""
    game, cid = getattr(cls, "game", None), getattr(cls, "id", None)
    key = f"{game}/{cid}" if isinstance(game, str) and isinstance(cid, str) and game and cid \
        else cls.__qualname__
    return f"the contract {key} ({cls.__module__}.{cls.__qualname__})"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    text = text if len(text) <= 160 else text[:160] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _metadata_problem(cls: type[Contract]) -> str | None:
    from herzla.contracts.base import LayoutContract, TrickContract

    for what in ("game", "id"):
        value = getattr(cls, what, None)
        if not isinstance(value, str) or not value:
            return f"the class attribute {what} must be set (text)"
        if not value.isprintable() or any(c.isspace() or c == "/" for c in value):
            return f"the {what} {value!r:.40} holds a space, a slash or a control character"
    if not issubclass(cls, TrickContract | LayoutContract):
        return "a contract class subclasses TrickContract or LayoutContract"
    counts = cls.player_counts
    if not isinstance(counts, tuple) or not counts or not all(_whole(n) for n in counts):
        return f"player_counts must be a tuple of whole numbers, not {counts!r:.40}"
    if len(set(counts)) != len(counts):
        return f"player_counts names a number twice: {counts!r:.40}"
    for n in counts:
        if not 2 <= n <= MAX_SEATS:
            return f"player_counts holds {n}: a table has 2 to {MAX_SEATS} seats"
    options = cls.options
    if not isinstance(options, tuple) or not all(isinstance(o, Option) for o in options):
        return "options must be a tuple of herzla.options.Option"
    names = [o.name for o in options]
    if len(set(names)) != len(names):
        return "options names an option twice"
    for o in options:
        if not isinstance(o.default, bool | int | str):
            return f"the option {o.name} has a default of {type(o.default).__name__}"
        try:
            if o.parse(o.default) != o.default:
                return f"the option {o.name}'s default does not read as itself"
        except OptionError as exc:
            return f"its default is refused: {exc}"
    return None


def _extremes(options: tuple[Option, ...]) -> Iterator[dict[str, int]]:
    """Option values at the ends of the whole-number options' ranges: each alone at its
    lowest and highest, and all at once."""
    ints = [o for o in options if isinstance(o.default, int) and not isinstance(o.default, bool)]
    ends = {o.name: (o.lowest, o.highest) for o in ints}
    for name, (low, high) in ends.items():
        yield {name: low}
        yield {name: high}
    if len(ends) > 1:
        yield {name: low for name, (low, _) in ends.items()}
        yield {name: high for name, (_, high) in ends.items()}


def _shown(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v:,}" if _whole(v) else f"{k}={v}" for k, v in options.items())


def check_contract_class(cls: type[Contract]) -> None:
    """PluginError (one line naming ``cls`` and why) unless herzla can play the class: its
    metadata, a contract for each number of players with the default options, and its
    declaration within the limits with any options (the whole-number options' ends probed)."""
    problem = _metadata_problem(cls)
    if problem:
        raise PluginError(named(cls), problem)
    for n in cls.player_counts:
        declarer = 0 if cls.needs_declarer else None
        try:
            contract = cls(n, None, declarer)
        except Exception as exc:  # the plug-in's own code: any error at all
            why = exc.problem if isinstance(exc, DeclarationError) else _one_line(exc)
            raise PluginError(named(cls), f"with {n} players and the default options: "
                              f"{why}") from None
        if contract.hand_size < 1:
            raise PluginError(named(cls), f"with {n} players its pack of "
                              f"{len(contract.pack())} cards deals nobody a card")
        if getattr(contract.declaration, "early_end", None) is not None \
                and not cls.needs_declarer:
            raise PluginError(named(cls), "an early end needs a declarer "
                              "(needs_declarer = True)")
        for given in _extremes(cls.options):
            try:
                cls(n, given, declarer)
            except DeclarationError as exc:
                raise PluginError(named(cls), f"with {n} players and {_shown(given)}: "
                                  f"{exc.problem}") from None
            except OptionError:  # a combination its check_options refuses
                continue
            except Exception as exc:
                raise PluginError(named(cls), f"with {n} players and {_shown(given)}: "
                                  f"{_one_line(exc)}") from None


def check_game(game: Game) -> None:
    """PluginError (one line) unless herzla can use the plug-in game: an id, a partie and a
    bidding of its own contracts, and what a partie can move at worst within the limit."""
    gid = getattr(game, "id", None)
    if not isinstance(gid, str) or not gid:
        raise PluginError(f"the game {type(game).__name__} ({type(game).__module__})",
                          "the class attribute id must be set")
    what = f"the game {gid} ({type(game).__module__})"
    classes = game.contract_classes()
    ids = [c.id for c in classes]
    if not _whole(game.partie) or not 0 <= game.partie <= len(classes):
        raise PluginError(what, f"its partie of {game.partie!r:.40} deals is not 0 to its "
                          f"{len(classes)} contracts")
    unknown = [b for b in game.bidding if b not in ids]
    if unknown:
        raise PluginError(what, f"its bidding names {unknown[0]!r:.40}, not one of its "
                          f"contracts")
    for cls in classes:
        if cls.game != gid:
            raise PluginError(what, f"it holds {named(cls)} of another game")
    partie = classes[: game.partie]
    for n in sorted({n for c in partie for n in c.player_counts}):
        worst = 0
        for cls in partie:
            if n in cls.player_counts:
                worst += cls.default(n).amount_bound()
        if worst > MAX_PARTIE_AMOUNT:
            raise PluginError(what, f"a partie of {n} players can move {worst:,} at most, "
                              f"beyond the limit of {MAX_PARTIE_AMOUNT:,}")

