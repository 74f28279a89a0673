"""Reading records from a file or standard input: one JSON document, or JSON Lines as a stream.

``RECORD`` is a file or ``-`` (standard input), read as UTF-8 bytes (so a terminal's or a pipe's
encoding settings cannot break it).  If its first non-blank line is a JSON object by itself, the
input is JSON Lines: one record a line, read and answered a line at a time, in memory that does
not grow with the input.  Otherwise it is one JSON document (a record, or a list of records),
read whole up to :data:`herzla.records.MAX_DOCUMENT`.

Every record is read by :func:`herzla.records.read_record`, the library's one reader, through
:func:`each_record`; a JSON list of records is one partie, session or match, read by
:func:`herzla.evening.read_session`, the one reader of lists (the stock carried from record to
record, the records counted from 1), whichever command reads it: the same checks for every
command.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import IO, Any

import attrs

from herzla.cli.common import fail
from herzla.i18n import _
from herzla.records import MAX_DOCUMENT, Record, RecordError, load_json_text, read_record

__all__ = ["RecordInput", "each_record", "open_records"]


@attrs.frozen(slots=True, eq=False)
class RecordInput:
    """What RECORD holds: one whole document (``document``), or JSON Lines (``lines``: the
    line number and the parsed object of each non-blank line, read as they are asked for)."""

    document: Any = None
    lines: Iterator[tuple[int, Any]] | None = None

    @property
    def many(self) -> bool:
        """Whether RECORD holds a list of records or JSON Lines (one answer each)."""
        return self.lines is not None or isinstance(self.document, list)


def each_record(source: RecordInput) -> Iterator[tuple[str, Record]]:
    """Each record RECORD holds, read by :func:`herzla.records.read_record`, with where it is
    (``""`` for a single document, ``"record K: "`` in a list, from 1, ``"line N: "`` in JSON
    Lines); a RecordError names the place first.  A list is read whole by
    :func:`herzla.evening.read_session`: its records come with the stock the list carries into
    each."""
    items: Iterator[tuple[str, Any]]
    if source.lines is not None:
        items = ((_("line {number}: ").format(number=number), obj)
                 for number, obj in source.lines)
    elif isinstance(source.document, list):
        from herzla.evening import read_session

        session = read_session(source.document)
        yield from ((f"record {d.k}: ", d.result.record) for d in session.deals
                    if d.result is not None)
        return
    else:
        items = iter([("", source.document)])
    for where, obj in items:
        try:
            record = read_record(obj)
        except RecordError as exc:
            raise RecordError(f"{where}{exc}") from None
        yield where, record


def _open(path: str) -> IO[bytes]:
    if path == "-":
        return sys.stdin.buffer
    if not path:
        fail(_("give a file name, or - for standard input"))
    if os.path.isdir(path):  # os.path, not pathlib: this is on every solve's start-up
        fail(_("{path} is a folder, not a file").format(path=path))
    if not os.path.exists(path):
        fail(_("no such file: {path}").format(path=path))
    try:
        return open(path, "rb")
    except OSError as exc:
        fail(_("cannot read {path}: {error}").format(path=path, error=exc.strerror or exc))


def _text(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        fail(_("{name} is not UTF-8 text (byte 0x{data:02x} at position {start})").format(
            name=where, data=data[exc.start], start=exc.start))


def _readline(stream: IO[bytes], where: str) -> bytes:
    try:
        line = stream.readline(MAX_DOCUMENT + 1)
    except OSError as exc:
        fail(_("cannot read {path}: {error}").format(path=where, error=exc.strerror or exc))
    if len(line) > MAX_DOCUMENT:
        fail(_("{where}: a line is longer than {mib} MiB").format(where=where,
                                                                 mib=MAX_DOCUMENT // 2**20))
    return line


def open_records(path: str) -> RecordInput:
    """Open RECORD and tell a single document from JSON Lines; RecordError (by ``fail``) names
    what cannot be read."""
    stream = _open(path)
    name = _("standard input") if path == "-" else path
    head: list[bytes] = []
    first = b""
    while True:
        line = _readline(stream, name)
        head.append(line)
        if not line or line.strip():
            first = line
            break
    is_lines = False
    if first.strip():
        try:
            where = _("{name} line {number}").format(name=name, number=len(head))
            is_lines = isinstance(json.loads(_text(first, where)), dict)
        except (ValueError, RecursionError):
            is_lines = False
    if is_lines:
        return RecordInput(lines=_lines(stream, name, len(head) - 1, first))
    rest = stream.read(MAX_DOCUMENT + 1) if first else b""
    data = b"".join(head) + rest
    if len(data) > MAX_DOCUMENT:
        fail(_("{name} is larger than {mib} MiB: a single JSON document is limited to that; "
               "write records one a line (JSON Lines) to replay more").format(
            name=name, mib=MAX_DOCUMENT // 2**20))
    try:
        document = load_json_text(_text(data, name))
    except RecordError as exc:
        fail(str(exc))
    if isinstance(document, dict) and isinstance(document.get("format"), str):
        from herzla.evening.model import FORMAT

        if document["format"] == FORMAT:
            fail(_("{name} holds an evening (the file of herzla pad), not hand records: show "
                   "it with herzla pad show {path}").format(name=name, path=path))
    return RecordInput(document=document)


def _lines(stream: IO[bytes], name: str, number: int, line: bytes
           ) -> Iterator[tuple[int, Any]]:
    """The records of JSON Lines, each parsed as it is read, from ``line`` (number ``number``
    + 1) on."""
    while line:
        number += 1
        if line.strip():
            try:
                where = _("{name} line {number}").format(name=name, number=number)
                obj = load_json_text(_text(line, where))
            except RecordError as exc:
                raise RecordError(_("line {number}: ").format(number=number) + str(exc)) from None
            yield number, obj
        line = _readline(stream, name)
