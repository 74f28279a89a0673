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
import stat
import tempfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from herzla.evening.entry import Entry
from herzla.evening.errors import EveningError
from herzla.evening.names import seat_of
from herzla.quote import quote
from herzla.records import MAX_DOCUMENT, RecordError, load_json_text

if TYPE_CHECKING:
    from herzla.evening.model import Change, Evening

__all__ = ["FORMAT", "VERSION", "create", "dumps", "evening_from_json", "evening_to_json",
           "load", "save", "update"]

#: what the file's ``format`` says
FORMAT = "herzla-evening"
#: the version this herzla writes, and the latest it reads
VERSION = 1
_KEYS = ("format", "version", "game", "players", "options", "stock", "dealer", "revision",
         "sheet", "deals", "undo")


def _change_json(change: Change) -> dict[str, Any]:
    out: dict[str, Any] = {"change": change.kind, "k": change.k}
    if change.entry is not None:
        out["entry"] = change.entry.to_json()
    return out


def evening_to_json(evening: Evening) -> dict[str, Any]:
    """The file's object of ``evening``."""
    out: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": evening.game,
        "players": list(evening.players), "options": dict(evening.options),
        "stock": evening.start_stock, "dealer": evening.first_dealer,
        "revision": evening.revision,
    }
    if evening.sheet:
        out["sheet"] = True
    out["deals"] = [e.to_json() for e in evening.entries]
    out["undo"] = [_change_json(c) for c in evening.history]
    return out


def _whole(obj: Mapping[str, Any], key: str, default: int) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise EveningError(f"{key} must be a whole number from 0, not {quote(value)}")
    return value


def _change(obj: object, i: int) -> Change:
    from herzla.evening.model import Change

    where = f"undo[{i}]"
    if not isinstance(obj, Mapping) or set(obj) - {"change", "k", "entry"}:
        raise EveningError(f"{where}: a change is {{\"change\": ..., \"k\": ..., \"entry\": "
                           f"...}}, not {quote(obj)}")
    kind = obj.get("change")
    if kind not in ("add", "edit", "drop"):
        raise EveningError(f"{where}: the change is add, edit or drop, not {quote(kind)}")
    k = _whole(obj, "k", 0)
    entry = None
    if kind != "add":
        if "entry" not in obj:
            raise EveningError(f"{where}: an {kind} keeps the entry it changed")
        try:
            entry = Entry.from_json(obj["entry"])
        except EveningError as exc:
            raise EveningError(f"{where}: {exc}") from None
    return Change(kind, k, entry)


def _check_undo(history: list[Change], entries: int) -> None:
    """The changes must take the evening back step by step: each ``k`` a deal there is."""
    count = entries
    for i in reversed(range(len(history))):
        c = history[i]
        top = count if c.kind != "drop" else count + 1
        if not 1 <= c.k <= top or (c.kind == "add" and c.k != count):
            raise EveningError(f"undo[{i}]: there is no deal {c.k} to take back")
        count += {"add": -1, "edit": 0, "drop": 1}[c.kind]


def evening_from_json(obj: object) -> Evening:
    """The evening of a file's object (see the module notes)."""
    from herzla.evening.model import MAX_DEALS, MAX_UNDO, Evening

    if not isinstance(obj, Mapping) or obj.get("format") != FORMAT:
        raise EveningError(f"not a herzla evening (its file is a JSON object with \"format\": "
                           f"\"{FORMAT}\")")
    version = obj.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise EveningError(f"the evening's version must be a whole number from 1, not "
                           f"{quote(version)}")
    if version > VERSION:
        raise EveningError(f"the evening is of version {quote(version)}, written by a later "
                           f"herzla; this one reads version {VERSION}: update herzla")
    unknown = sorted(str(k) for k in obj if k not in _KEYS)
    if unknown:
        raise EveningError(f"unknown key {quote(unknown[0])} in the evening (keys: "
                           f"{', '.join(_KEYS)})")
    for key in ("game", "players"):
        if key not in obj:
            raise EveningError(f"the evening has no {quote(key)}")
    raw_deals = obj.get("deals", [])
    raw_undo = obj.get("undo", [])
    for key, value in (("deals", raw_deals), ("undo", raw_undo)):
        if not isinstance(value, list):
            raise EveningError(f"{key} must be a list, not {quote(value)}")
    if len(raw_deals) > MAX_DEALS and not obj.get("sheet"):
        raise EveningError(f"the evening has {len(raw_deals)} deals; an evening holds at most "
                           f"{MAX_DEALS}")
    options = obj.get("options") or {}
    if not isinstance(options, Mapping):
        raise EveningError(f"options must be an object, not {quote(options)}")
    sheet = obj.get("sheet", False)
    if not isinstance(sheet, bool):
        raise EveningError(f"sheet is true or false, not {quote(sheet)}")
    base = Evening.new(obj["game"], obj["players"], options, _whole(obj, "stock", 0))
    dealer = obj.get("dealer", len(base.players) - 1)
    first = seat_of(dealer, base.players, "dealer")
    entries = []
    for i, raw in enumerate(raw_deals):
        try:
            entries.append(Entry.from_json(raw))
        except EveningError as exc:
            raise EveningError(f"deals[{i}] (deal {i + 1}): {exc}") from None
    history = [_change(c, i) for i, c in enumerate(raw_undo[-MAX_UNDO:])]
    _check_undo(history, len(entries))
    return Evening._made(base.game, base.players, base.options, base.start_stock, first,
                         entries, history, _whole(obj, "revision", 0), sheet)


def load(path: str | os.PathLike[str]) -> Evening:
    """The evening in the file ``path``; EveningError names what is wrong in one line (no such
    file, not UTF-8 JSON, not an evening, a later version, a deal that does not fit)."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as fh:
            data = fh.read(MAX_DOCUMENT + 1)
    except FileNotFoundError:
        raise EveningError(f"no such file: {name}") from None
    except IsADirectoryError:
        raise EveningError(f"{name} is a folder, not a file") from None
    except OSError as exc:
        raise EveningError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_DOCUMENT:
        raise EveningError(f"{name} is larger than {MAX_DOCUMENT // 2**20} MiB: not an evening")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EveningError(f"{name} is not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                           f"position {exc.start})") from None
    try:
        obj = load_json_text(text)
    except RecordError as exc:
        raise EveningError(f"{name}: {exc}") from None
    try:
        from herzla.evening.model import Evening

        return Evening.from_json(obj)
    except EveningError as exc:
        raise EveningError(f"{name}: {exc}", exc.needs) from None


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
    target = Path(os.path.realpath(os.fspath(path)))
    data = dumps(evening).encode("utf-8")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    with contextlib.suppress(OSError):  # the rename itself on the disk, where it can be
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


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
            raise EveningError(f"{os.fspath(path)} exists already: a new evening is not written "
                               f"over it (give another file name)")
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
