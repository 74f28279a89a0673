"""A policy's parameters: its attrs fields with defaults, each read from text by its type.

The type is the field's annotation (resolved with :func:`typing.get_type_hints`, so a module
with ``from __future__ import annotations`` works too), else the type of its default:

- ``int``, ``float``, ``bool`` (``true``/``false``, ``yes``/``no``, ``1``/``0``), ``str``;
- ``X | None`` (``Optional[X]``): ``none`` (or ``null``) is None, anything else is read as X;
- ``Literal["a", "b"]``: one of the values written.

>>> import attrs
>>> @attrs.frozen
... class P:
...     depth: int | None = None
...     fast: bool = False
>>> kinds = policy_parameters(P)
>>> parse_parameter("3", kinds["depth"][1], None), parse_parameter("none", kinds["depth"][1], 4)
(3, None)
>>> parse_parameter("x", kinds["depth"][1], None)
Traceback (most recent call last):
...
ValueError: "x" is not a whole number or none
"""

from __future__ import annotations

import math
import types
import typing
from typing import Any

import attrs

from herzla.counting import read_whole
from herzla.i18n import N_, _
from herzla.quote import quote

__all__ = ["parse_parameter", "policy_parameters"]

#: the longest whole number a parameter reads (Python refuses longer ones with a traceback)
_DIGITS = 30
_NONE = ("none", "null")
_TRUE = ("true", "1", "yes")
_FALSE = ("false", "0", "no")


def policy_parameters(cls: type) -> dict[str, tuple[Any, Any]]:
    """Each parameter of a policy class (an attrs field with a default): its default and its
    type (the annotation, else the default's type; None when neither says)."""
    if not attrs.has(cls):
        return {}
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # an annotation that does not resolve: the defaults' types say
        hints = {}
    out: dict[str, tuple[Any, Any]] = {}
    for f in attrs.fields(cls):
        if f.default is attrs.NOTHING:
            continue
        kind = hints.get(f.name, f.type if not isinstance(f.type, str) else None)
        factory = isinstance(f.default, attrs.Factory)  # type: ignore[arg-type]
        if kind is None and f.default is not None and not factory:
            kind = type(f.default)
        out[f.name] = (f.default, kind)
    return out


def _union(kind: Any) -> tuple[Any, ...] | None:
    """The members of a union type (``int | None``, ``Optional[int]``), else None."""
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:
        return typing.get_args(kind)
    return None


def _words(kind: Any) -> str:
    """What a value of ``kind`` is, in words."""
    members = _union(kind)
    if members is not None:
        return _(" or ").join(_("none") if m is type(None) else _words(m) for m in members)
    if typing.get_origin(kind) is typing.Literal:
        return _("one of {values}").format(values=", ".join(str(v) for v in
                                                             typing.get_args(kind)))
    said = {int: N_("a whole number"), float: N_("a number"), bool: N_("true or false"),
            str: N_("text")}.get(kind)
    return _(said) if said is not None else getattr(kind, "__name__", str(kind))


def _read(text: str, kind: Any) -> Any:
    """``text`` as a value of ``kind``; ValueError when it is not one."""
    members = _union(kind)
    if members is not None:
        if type(None) in members and text.strip().lower() in _NONE:
            return None
        for member in members:
            if member is type(None):
                continue
            try:
                return _read(text, member)
            except ValueError:
                continue
        raise ValueError(text)
    if typing.get_origin(kind) is typing.Literal:
        for value in typing.get_args(kind):
            if str(value) == text.strip():
                return value
        raise ValueError(text)
    if kind is bool:
        word = text.strip().lower()
        if word not in _TRUE + _FALSE:
            raise ValueError(text)
        return word in _TRUE
    if kind is int:
        number = read_whole(text, signed=True, digits=_DIGITS)
        if number is None:
            raise ValueError(text)
        return number
    if kind is float:
        if len(text) > 4 * _DIGITS:
            raise ValueError(text)
        value = float(text)
        if not math.isfinite(value):
            raise ValueError(text)
        return value
    if kind is str:
        return text
    raise TypeError(kind)


def parse_parameter(text: str, kind: Any, default: Any) -> Any:
    """A parameter's value from ``text`` by its type ``kind`` (:func:`policy_parameters`);
    ValueError in one sentence when the text is not a value of that type, or the type is one
    no text can be read as (annotate the field: ``depth: int | None = None``)."""
    if kind is None:
        raise ValueError(_("its default is {value} "
                           "and it has no type to read {text} as (annotate the field, "
                           "e.g. depth: int | None = None)").format(
            value=quote(default) if default is not None else 'None', text=quote(text)))
    try:
        return _read(text, kind)
    except ValueError:
        raise ValueError(_("{text} is not {kind}").format(
            text=quote(text), kind=_words(kind))) from None
    except TypeError:
        raise ValueError(_("its type {kind} cannot be read from text (a parameter is "
                           "a whole number, a number, true or false, text, one of a Literal's "
                           "values, or one of these or None)").format(kind=_words(kind))) from None
