"""Files written whole or not at all: what every writer of herzla's files (the command line's
outputs, the evening's file) uses, so that a crash, a full disk or an interruption leaves the
old file or the new one, never a mix.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_whole(folder / "a.txt", b"one")
>>> try:
...     with replacing(folder / "a.txt") as fh:
...         _ = fh.write("two")
...         raise KeyboardInterrupt
... except KeyboardInterrupt:
...     pass
>>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
('one', ['a.txt'])
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

__all__ = ["read_only", "replacing", "write_whole"]


def read_only(target: Path) -> bool:
    """Whether ``target`` is a file that may not be written: one this user cannot write, or
    one that no one may (no write permission at all, which holds for the superuser too)."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return not os.access(target, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP |
                                                         stat.S_IWOTH)


@contextlib.contextmanager
def replacing(target: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A file that takes the place of ``target`` when the block ends: written to a temporary
    file beside it (with ``target``'s permissions, or the umask's for a new file), flushed to the
    disk, then renamed onto it, the rename itself synced where the system can.  On any error or
    interruption the temporary file is removed and ``target`` stays as it was.  A
    :func:`read_only` target is not replaced (PermissionError: "the file is read-only")."""
    if read_only(target):
        raise PermissionError(errno.EACCES, "the file is read-only", str(target))
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        try:
            mode = stat.S_IMODE(target.stat().st_mode)
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.fchmod(fd, mode)
        fh = (os.fdopen(fd, "wb") if binary
              else os.fdopen(fd, "w", encoding="utf-8", newline="\n"))
        with fh:
            yield fh
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


def write_whole(target: Path, data: bytes) -> None:
    """Write ``data`` to ``target`` whole or not at all (:func:`replacing`)."""
    with replacing(target, binary=True) as fh:
        fh.write(data)
