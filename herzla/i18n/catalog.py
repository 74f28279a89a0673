r"""Reading a gettext catalog (``.po``) and compiling it to the binary form (``.mo``).

herzla keeps its translations in ``herzla/locale/<lang>/LC_MESSAGES/herzla.po``, the source
people edit (``tools/catalog.py`` extracts and updates it).  The wheel carries the compiled
``.mo`` beside it, built by the build hook (``hatch_build.py``) from this module; a source tree
without a built ``.mo`` reads the ``.po`` through the same compiler, so a checkout and an
installed wheel translate alike.

This module imports nothing of herzla (the build hook loads it by its path).

>>> po = 'msgid ""\nmsgstr "Language: de\\n"\n\nmsgid "trick"\nmsgstr "Stich"\n'
>>> entries = parse_po(po)
>>> [(e.msgid, e.msgstr) for e in entries]
[('', ('Language: de\n',)), ('trick', ('Stich',))]
>>> import gettext, io
>>> gettext.GNUTranslations(io.BytesIO(compile_entries(entries))).gettext("trick")
'Stich'
"""

from __future__ import annotations

import ast
import struct
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["CatalogEntry", "compile_entries", "compile_po", "parse_po"]


@dataclass(frozen=True)
class CatalogEntry:
    """One message of a catalog: its context, id, plural id, translations and flags."""

    msgid: str
    msgstr: tuple[str, ...]
    msgctxt: str | None = None
    msgid_plural: str | None = None
    flags: frozenset[str] = frozenset()
    obsolete: bool = False
    locations: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid

    @property
    def translated(self) -> bool:
        return all(self.msgstr) and bool(self.msgstr)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags


def _unquote(text: str, line_no: int) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"line {line_no}: a quoted string expected, not {text[:40]!r}")
    value = ast.literal_eval(text)
    assert isinstance(value, str)
    return value


def parse_po(text: str) -> list[CatalogEntry]:
    """The entries of a ``.po`` file's text (obsolete ``#~`` entries marked, not dropped)."""
    entries: list[CatalogEntry] = []
    fields: dict[str, str] = {}
    flags: set[str] = set()
    locations: list[str] = []
    obsolete = False
    last: str | None = None

    def close() -> None:
        nonlocal fields, flags, locations, obsolete, last
        if "msgid" in fields:
            plural = fields.get("msgid_plural")
            if plural is None:
                strs: tuple[str, ...] = (fields.get("msgstr", ""),)
            else:
                n = 0
                found = []
                while f"msgstr[{n}]" in fields:
                    found.append(fields[f"msgstr[{n}]"])
                    n += 1
                strs = tuple(found)
            entries.append(CatalogEntry(fields["msgid"], strs, fields.get("msgctxt"), plural,
                                 frozenset(flags), obsolete, tuple(locations)))
        fields, flags, locations, obsolete, last = {}, set(), [], False, None

    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#~"):
            obsolete = True
            line = line[2:].strip()
            if not line:
                continue
        elif line.startswith("#"):
            if "msgid" in fields and last is not None:
                close()
            if line.startswith("#,"):
                flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            elif line.startswith("#:"):
                locations.extend(line[2:].split())
            continue
        if not line:
            close()
            continue
        if line.startswith('"'):
            if last is None:
                raise ValueError(f"line {no}: a continued string with nothing before it")
            fields[last] += _unquote(line, no)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not (
                keyword.startswith("msgstr[") and keyword.endswith("]")):
            raise ValueError(f"line {no}: unknown keyword {keyword[:40]!r}")
        if keyword in ("msgctxt", "msgid") and "msgid" in fields and (
                keyword == "msgctxt" or last != "msgctxt"):
            close()
        fields[keyword] = _unquote(rest, no)
        last = keyword
    close()
    return entries


def compile_entries(entries: Iterable[CatalogEntry]) -> bytes:
    """The ``.mo`` bytes of the translated, non-fuzzy, current entries (and the header)."""
    pairs: dict[bytes, bytes] = {}
    for e in entries:
        if e.obsolete or (e.msgid and (e.fuzzy or not e.translated)):
            continue
        key = e.msgid if e.msgid_plural is None else f"{e.msgid}\0{e.msgid_plural}"
        if e.msgctxt is not None:
            key = f"{e.msgctxt}\x04{key}"
        pairs[key.encode()] = "\0".join(e.msgstr).encode()
    keys = sorted(pairs)
    ids = b"".join(k + b"\0" for k in keys)
    strs = b"".join(pairs[k] + b"\0" for k in keys)
    n = len(keys)
    start = 7 * 4 + 16 * n
    id_table: list[int] = []
    pos = 0
    for k in keys:
        id_table += [len(k), start + pos]
        pos += len(k) + 1
    str_table: list[int] = []
    pos = 0
    for k in keys:
        str_table += [len(pairs[k]), start + len(ids) + pos]
        pos += len(pairs[k]) + 1
    header = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return header + struct.pack(f"{2 * n}i", *id_table) + struct.pack(
        f"{2 * n}i", *str_table) + ids + strs


def compile_po(text: str) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file's text."""
    return compile_entries(parse_po(text))
