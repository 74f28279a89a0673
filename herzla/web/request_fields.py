"""A request's JSON body read as the object of named fields a call takes: anything else, or a
field the call does not know, is refused in one line that says what the call takes; and the
rule options a form's text field gives."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from herzla.i18n import _
from herzla.options import parse_option_assignments
from herzla.quote import quote

__all__ = ["fields_of", "options_of_text"]


def fields_of(body: object, fields: Collection[str], *, what: str,
              error: type[Exception]) -> Mapping[str, Any]:
    """``body`` when it is a JSON object of some of ``fields``; otherwise ``error`` naming
    ``what`` the body is (``"a new evening"``) and the fields it takes."""
    if not isinstance(body, Mapping):
        raise error(_("{what} is a JSON object of {fields}, not {body}").format(
            what=_(what), fields=", ".join(fields), body=quote(body)))
    unknown = [k for k in body if k not in fields]
    if unknown:
        raise error(_("unknown field {name}; {what} takes {fields}").format(
            name=quote(unknown[0]), what=_(what), fields=", ".join(fields)))
    return body


def options_of_text(text: str | None) -> dict[str, str]:
    """The options a form's text field gives: ``name=value`` items, separated by commas or
    white space (OptionError: an item that is not one)."""
    return parse_option_assignments((text or "").replace(",", "\n").split())
