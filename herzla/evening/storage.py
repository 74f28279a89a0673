"""The evening's file: JSON a person can read, holding what was entered, never a derived number.

```json
{"format": "herzla-evening", "version": 1, "game": "herzla",
 "players": ["Anna", "Berni", "Carla", "Done"], "options": {}, "stock": 0, "dealer": 3,
 "revision": 2,
 "deals": [{"contract": "normal", "hearts": [0, 3, 5, 0]}, {"record": {...}}],
 "undo": [{"change": "add", "k": 1}, {"change": "add", "k": 2}]}
```

``stock`` and ``dealer`` are what the evening starts with; ``deals`` the entries as entered (a
record without its stock, which the evening carries); ``undo`` the changes
:meth:`~herzla.evening.Evening.undo` can take back, the latest last (``edit`` and ``drop`` hold
the entry they replaced or removed); ``sheet: true`` marks a list of records read as a score
sheet.  Every total, stock and winner is recomputed on reading.  A file of a later version, or
one that is not an evening, is refused in one line.

:func:`save` writes a file atomically (a temporary file beside it, flushed to the disk, then
renamed onto it: a crash or a full disk leaves the old file or the new one, never a mix);
:func:`update` loads, changes and saves one under a lock, so two writers at once lose nothing.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from herzla.evening.errors import EveningError
from herzla.evening.model import FORMAT, VERSION, Evening
from herzla.i18n import _
from herzla.records import MAX_DOCUMENT, RecordError, load_json_text
from herzla.support.files import write_whole

__all__ = ["FORMAT", "VERSION", "create", "dumps", "load", "save", "update"]

def load(path: str | os.PathLike[str]) -> Evening:
    """The evening in the file ``path``; EveningError names what is wrong in one line (no such
    file, not UTF-8 JSON, not an evening, a later version, a deal that does not fit)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            data = fh.read(MAX_DOCUMENT + 1)
    except FileNotFoundError:
        raise EveningError(_("no such file: {name}").format(name=name)) from None
    except IsADirectoryError:
        raise EveningError(_("{name} is a folder, not a file").format(name=name)) from None
    except OSError as exc:
        raise EveningError(_("cannot read {name}: {value}").format(
            name=name, value=exc.strerror or exc)) from None
    if len(data) > MAX_DOCUMENT:
        raise EveningError(_("{name} is larger than {max_document} MiB: not an evening").format(
            name=name, max_document=MAX_DOCUMENT // 2 ** 20))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EveningError(_("{name} is not UTF-8 text (byte 0x{data:02x} at "
                             "position {start})").format(
            name=name, data=data[exc.start], start=exc.start)) from None
    try:
        obj = load_json_text(text)
    except RecordError as exc:
        raise EveningError(_("{name}: {exc}").format(name=name, exc=exc)) from None
    try:
        return Evening.from_json(obj)
    except EveningError as exc:
        raise EveningError(_("{name}: {exc}").format(name=name, exc=exc), exc.needs) from None


def dumps(evening: Evening) -> str:
    """The file's text: JSON, one deal a line."""
    obj = evening.to_json()
    deals, undo = obj.pop("deals"), obj.pop("undo")
    head = json.dumps(obj, ensure_ascii=False)[:-1]

    def rows(items: list[Any]) -> str:
        if not items:
            return "[]"
        return "[\n  " + ",\n  ".join(json.dumps(x, ensure_ascii=False) for x in items) + "\n ]"

    return f"{head},\n \"deals\": {rows(deals)},\n \"undo\": {rows(undo)}\n}}\n"


def save(evening: Evening, path: str | os.PathLike[str]) -> None:
    """Write ``evening`` to ``path`` atomically (see the module notes); a link is followed and
    stays a link, the file keeps its permissions.  OSError if it cannot be written (the old
    file, if any, as it was)."""
    write_whole(Path(os.path.realpath(os.fspath(path))), dumps(evening).encode("utf-8"))


@contextlib.contextmanager
def _locked(path: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the lock of the folder of ``path`` (where the system has locks), so that one
    change of an evening file waits for another."""
    try:
        import fcntl
    except ImportError:  # no locks here: each change is still atomic
        yield
        return
    folder = os.path.dirname(os.path.realpath(os.fspath(path))) or "."
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def create(evening: Evening, path: str | os.PathLike[str]) -> None:
    """Save a new evening to ``path``, which must not exist yet (EveningError if it does:
    nothing is overwritten)."""
    with _locked(path):
        if os.path.lexists(path):
            raise EveningError(_("{path} exists already: a new evening is not written "
                                 "over it (give another file name)").format(path=os.fspath(path)))
        save(evening, path)


def update(path: str | os.PathLike[str], change: Callable[[Evening], Evening]) -> Evening:
    """Load the evening at ``path``, apply ``change`` and save what it answers, under a lock:
    the evening after the change.  An error of ``change`` (EveningError) leaves the file as
    it was."""
    with _locked(path):
        evening = load(path)
        new = change(evening)
        save(new, path)
    return new
