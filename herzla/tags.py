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
        raise TagError(f"tags must be a JSON object of names and text, not {quote(obj)}")
    if len(obj) > MAX_TAGS:
        raise TagError(f"a record keeps at most {MAX_TAGS} tags, not {len(obj):,}")
    out: dict[str, str] = {}
    for key, value in obj.items():
        if not isinstance(key, str) or len(key) > MAX_TAG_LENGTH or not _KEY.fullmatch(key):
            raise TagError(f"tag {quote(key)}: a tag's name is a lowercase word (e.g. "
                           f"\"event\", \"comment\")")
        if not isinstance(value, str):
            raise TagError(f"tag {quote(key)}: its value must be text, not {quote(value)}")
        if len(value) > MAX_TAG_LENGTH:
            raise TagError(f"tag {quote(key)}: its value is {len(value):,} characters long, "
                           f"more than {MAX_TAG_LENGTH:,}")
        out[key] = value
    return out
