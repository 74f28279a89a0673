"""Rule options: typed, named parameters with defaults, as the rules name them.

An option is written ``name=value`` on the command line and ``"name": value`` in a hand record.

>>> opt = Option("heart_unit", 10, doc="cents per heart", minimum=1)
>>> opt.parse("20")
20
>>> Option("stock_payout", "void", choices=("void", "never")).parse("sometimes")
Traceback (most recent call last):
...
herzla.options.OptionError: option stock_payout: "sometimes" is not one of void, never
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from herzla.counting import read_whole
from herzla.i18n import _
from herzla.limits import MAX_AMOUNT
from herzla.names import did_you_mean, find_name
from herzla.quote import number, quote

__all__ = ["Option", "OptionError", "given_options", "parse_option_assignments",
           "resolve_options"]


class OptionError(ValueError):
    """An unknown option name or an option value of the wrong kind."""


@attrs.frozen(slots=True)
class Option:
    """One rule option: its name, default (whose type is the option's type) and allowed values.

    ``rule`` is the id of the rule-book entry it changes; a whole-number option lies between
    ``minimum`` and ``maximum``, and never beyond ±:data:`herzla.limits.MAX_AMOUNT` (None: the
    limit).
    """

    name: str
    default: bool | int | str
    choices: tuple[str, ...] | None = None
    doc: str = ""
    rule: str = ""
    minimum: int | None = None
    maximum: int | None = None
    #: its other names, in German, as a person may type them (``herzwert`` for
    #: ``heart_unit``); the option's own name is the one written in records and JSON
    names: tuple[str, ...] = ()

    @property
    def type(self) -> type:
        return type(self.default)

    @property
    def lowest(self) -> int:
        """The lowest value a whole-number option takes."""
        return -MAX_AMOUNT if self.minimum is None else max(self.minimum, -MAX_AMOUNT)

    @property
    def highest(self) -> int:
        """The highest value a whole-number option takes."""
        return MAX_AMOUNT if self.maximum is None else min(self.maximum, MAX_AMOUNT)

    def parse(self, value: Any) -> bool | int | str:
        """Check a value from JSON, or convert one typed on the command line."""
        t = self.type
        if t is bool:
            if isinstance(value, bool):
                return value
            word = value.strip().lower() if isinstance(value, str) else None
            if word in ("true", "false", "ja", "nein"):  # in English or German
                return word in ("true", "ja")
            raise OptionError(self._said(_("{value} is not true or false"), value))
        if t is int:
            if isinstance(value, bool):
                raise OptionError(self._said(_("{value} is not a whole number"), value))
            if isinstance(value, str):
                text = value.strip()
                digits = text.lstrip("+-")
                if digits.isascii() and digits.isdigit() and len(digits) > 30:
                    raise OptionError(self._said(_("{value} is more than {limit}"), value,
                                                 limit=f"{MAX_AMOUNT:,}"))
                read = read_whole(text, signed=True, digits=30)
                if read is None:
                    raise OptionError(self._said(_("{value} is not a whole number"), value))
                value = read
            if not isinstance(value, int):
                raise OptionError(self._said(_("{value} is not a whole number"), value))
            if value < self.lowest:
                low = self.lowest if self.lowest == self.minimum else f"{self.lowest:,}"
                raise OptionError(_("option {name}: {value} is less than {limit}").format(
                    name=self.name, value=number(value), limit=low))
            if value > self.highest:
                high = self.highest if self.highest == self.maximum else f"{self.highest:,}"
                raise OptionError(_("option {name}: {value} is more than {limit}").format(
                    name=self.name, value=number(value), limit=high))
            return value
        if not isinstance(value, str):
            raise OptionError(self._said(_("{value} is not text"), value))
        if self.choices is not None:
            choice = find_name(value, self.choices)
            if choice is None:
                raise OptionError(self._said(_("{value} is not one of {choices}"), value,
                                             choices=", ".join(self.choices))
                                  + _hint(did_you_mean(value, self.choices)))
            return choice
        return value

    def _said(self, message: str, value: Any, **fields: str) -> str:
        """``option NAME: MESSAGE``, ``value`` quoted into the message."""
        return _("option {name}: {problem}").format(
            name=self.name, problem=message.format(value=quote(value), **fields))

    def describe(self) -> str:
        values = "|".join(self.choices) if self.choices else f"{self.type.__name__}"
        default = str(self.default).lower() if isinstance(self.default, bool) else self.default
        return f"{self.name}={values} (default {default}): {self.doc}"


def resolve_options(
    known: Iterable[Option], given: Mapping[str, Any] | None, where: str = ""
) -> dict[str, bool | int | str]:
    """Every known option's value: the given one (checked) or its default."""
    out: dict[str, bool | int | str] = {o.name: o.default for o in known}
    out.update(given_options(known, given, where))
    return out


def given_options(
    known: Iterable[Option], given: Mapping[str, Any] | None, where: str = ""
) -> dict[str, bool | int | str]:
    """The options given, each by its own name (a name is read in any case: ``Heart_Unit``)
    and with a value of its type (``"5"`` from a command line is ``5``); OptionError names an
    unknown option (and the ones it may mean), a value of the wrong kind, an option given
    twice."""
    table = {o.name: o for o in known}
    other = {n: o.name for o in table.values() for n in o.names}  # the German names
    if given is not None and not isinstance(given, Mapping):
        raise OptionError(_("options are a mapping of option names to values, not {given}")
                          .format(given=quote(given)))
    out: dict[str, bool | int | str] = {}
    for name, value in (given or {}).items():
        found = find_name(name, table)
        if found is None and find_name(name, other) is not None:
            found = other[find_name(name, other) or ""]
        if found is None:
            names = ", ".join(sorted(table)) or _("none")
            raise OptionError(_("unknown option {name}{where} ({hint}known: {names})").format(
                name=quote(name), where=where,
                hint=did_you_mean(name, sorted(table)) or did_you_mean(name, sorted(other)),
                names=names))
        if found in out:
            raise OptionError(_("option {name} is given twice{where}").format(name=found,
                                                                            where=where))
        out[found] = table[found].parse(value)
    return out


def _hint(text: str) -> str:
    """``"; did you mean X?"`` after a message, from :func:`did_you_mean`."""
    return f"; {text.strip()}" if text else ""


def parse_option_assignments(items: Iterable[str]) -> dict[str, str]:
    """``["a=1", "b=x"]`` from ``--option`` flags into a mapping (values still text)."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise OptionError(_("--option {given}: write NAME=VALUE").format(given=quote(item)))
        out[name.strip()] = value.strip()
    return out
