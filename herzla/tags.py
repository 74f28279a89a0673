"""A hand record's tags: what the people at the table want kept with the hand, as PGN's headers
keep it (``{"event": "Stammtisch Oberau", "date": "2026-12-07", "comment": "..."}``).

Tags are an object of strings whose keys are lowercase words (letters and digits, joined by
``-`` or ``_``), at most :data:`MAX_TAGS` of them, each value at most :data:`MAX_TAG_LENGTH`
characters.  They are kept unchanged wherever the record goes and ignored by every rule.

>>> read_tags({"event": "Stammtisch Oberau", "comment": "Sepp swore it was a heart"})
{'event': 'Stammtisch Oberau', 'comment': 'Sepp swore it was a heart'}
>>> read_tags({"Event": "x"})
Traceback (most recent call last):
...
herzla.tags.TagError: tag "Event": a tag's name is a lowercase word (e.g. "event", "comment")
"""

from __future__ import annotations

import re

from herzla.i18n import _, format_number
from herzla.quote import quote

__all__ = ["MAX_TAGS", "MAX_TAG_LENGTH", "TagError", "read_tags"]

#: the most tags a record keeps
MAX_TAGS = 32
#: the longest a tag's value (and its name) may be, in characters
MAX_TAG_LENGTH = 1000
_KEY = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")


class TagError(ValueError):
    """Tags that are not an object of at most 32 lowercase names and short strings."""


def read_tags(obj: object) -> dict[str, str]:
    """The tags ``obj`` holds (a JSON object), checked; TagError names the first problem."""
    if not isinstance(obj, dict):
        raise TagError(_("tags must be a JSON object of names and text, not {value}").format(
            value=quote(obj)))
    if len(obj) > MAX_TAGS:
        raise TagError(_("a record keeps at most {most} tags, not {count}").format(
            most=MAX_TAGS, count=format_number(len(obj))))
    out: dict[str, str] = {}
    for key, value in obj.items():
        if not isinstance(key, str) or len(key) > MAX_TAG_LENGTH or not _KEY.fullmatch(key):
            raise TagError(_("tag {key}: a tag's name is a lowercase word (e.g. \"event\", "
                             "\"comment\")").format(key=quote(key)))
        if not isinstance(value, str):
            raise TagError(_("tag {key}: its value must be text, not {value}").format(
                key=quote(key), value=quote(value)))
        if len(value) > MAX_TAG_LENGTH:
            raise TagError(_("tag {key}: its value is {length} characters long, more than "
                             "{most}").format(key=quote(key), length=format_number(len(value)),
                                              most=format_number(MAX_TAG_LENGTH)))
        out[key] = value
    return out
