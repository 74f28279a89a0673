"""Files the command line writes (``--sample-out``, ``--plot``) and its progress line.

An output file is checked before any work starts (a path, not a folder, in a folder that exists
and can be written), and written so that nothing is half-written or clobbered:

- a regular file (or a new one) is written to a temporary file beside it and renamed onto it
  only when everything is written; on any error or interruption the temporary file is removed
  and the old file stays as it was;
- a symbolic link is followed: its target is written as above, and the link stays a link;
- a FIFO, a character device (``/dev/null``, a terminal) or a socket is written directly, never
  replaced.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import click

from herzla.cli.common import fail

__all__ = ["Progress", "check_output", "open_output"]


def check_output(path: str, what: str) -> Path:
    """The file ``path`` will write (links followed), checked; a usage error names the problem."""
    if not path.strip():
        fail(f"{what}: give a file name, not an empty one")
    target = Path(os.path.realpath(path))
    if target.is_dir():
        fail(f"{what} {path} is a folder, not a file")
    if target.exists() and not _direct(target) and not os.access(target, os.W_OK):
        fail(f"{what} {path}: the file cannot be written (permission denied)")
    folder = target.parent
    if not folder.is_dir():
        fail(f"{what} {path}: no such folder {folder}")
    if not _direct(target) and not os.access(folder, os.W_OK | os.X_OK):
        fail(f"{what} {path}: the folder {folder} cannot be written (permission denied)")
    return target


def _direct(target: Path) -> bool:
    """Whether ``target`` is written in place: a FIFO, a device or a socket."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode)


@contextmanager
def open_output(target: Path, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write ``target`` through (see the module notes)."""
    if _direct(target):
        fh: IO[Any] = (open(target, "wb") if binary  # noqa: SIM115
                       else open(target, "w", encoding="utf-8", newline="\n"))  # noqa: SIM115
        with fh:
            yield fh
        return
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


class Progress:
    """A one-line progress report on standard error, rewritten in place."""

    def __init__(self, total: int, what: str, verb: str = "simulating") -> None:
        self.total = total
        self.what = what
        self.verb = verb
        self.start = self.last = time.perf_counter()
        self.shown = False
        self._write(f"{verb} {total:,} {what} ...")

    def _write(self, text: str) -> None:
        click.echo(f"\r{text:<78}", nl=False, err=True)
        self.shown = True

    def __call__(self, done: int) -> None:
        now = time.perf_counter()
        if now - self.last < 0.25 and done < self.total:
            return
        self.last = now
        spent = now - self.start
        left = spent * (self.total - done) / done if done else 0.0
        percent = 100 * done // self.total if self.total else 100
        self._write(f"{self.verb}: {percent:3d}%  {done:,} of {self.total:,} {self.what}, "
                    f"about {_duration(left)} left")

    def close(self) -> None:
        if self.shown:
            click.echo("\r" + " " * 78 + "\r", nl=False, err=True)


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds // 60:.0f} min {seconds % 60:02.0f} s"
    return f"{seconds // 3600:.0f} h {seconds % 3600 // 60:02.0f} min"
