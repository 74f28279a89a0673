"""Files the command line writes (``--sample-out``, ``--plot``, ``--svg``, ``--html``, ``herzla
example -o``) and its progress line.

An output file is checked before any work starts (a path, not a folder, in a folder that exists
and can be written), and written so that nothing is half-written or clobbered:

- a regular file (or a new one) is written to a temporary file beside it and renamed onto it
  only when everything is written; on any error or interruption the temporary file is removed
  and the old file stays as it was;
- a symbolic link is followed: its target is written as above, and the link stays a link;
- a FIFO, a character device (``/dev/null``, a terminal) or a socket is written directly, never
  replaced;
- ``-`` is standard output, and a path that names an open file descriptor (``/dev/stdout``,
  ``/dev/stderr``, ``/dev/fd/N``, ``/proc/self/fd/N``, or a link to one) is written through that
  descriptor as the shell opened it: ``--sample-out /dev/stdout >> file`` appends to the file,
  never replaces it.

An output file on standard output has it to itself: the command's answer and its messages go to
standard error then (:func:`on_stdout`), and two outputs cannot both be standard output.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import attrs
import click

from herzla.cli.common import fail
from herzla.i18n import _
from herzla.support.files import read_only, replacing

__all__ = ["Output", "Progress", "check_output", "keep_apart", "on_stdout", "open_output"]


@attrs.frozen(slots=True)
class Output:
    """Where an output file goes: ``path`` (links followed), or the open file descriptor ``fd``
    the name stands for (``-``, ``/dev/stdout``, ``/dev/fd/N``, ...); ``name`` as it was given."""

    name: str
    path: Path
    fd: int | None = None

    @property
    def is_stdout(self) -> bool:
        return self.fd == 1

    def __str__(self) -> str:
        return "standard output" if self.name == "-" else self.name


#: the folder of a process's open file descriptors, once its links are resolved
_FD_FOLDER = re.compile(r"/proc/(\d+)/fd")


def _descriptor(path: str) -> int | None:
    """The open file descriptor of this process that ``path`` names, if it names one: ``-``
    (1), or a path whose links lead to ``/proc/self/fd/N`` (``/dev/stdout``, ``/dev/fd/N``, a
    link of one's own)."""
    if path == "-":
        return 1
    p = os.path.abspath(path)
    for _step in range(40):  # as many links as the system follows
        folder = os.path.realpath(os.path.dirname(p))
        name = os.path.basename(p)
        m = _FD_FOLDER.fullmatch(folder)
        if m and name.isascii() and name.isdigit() and int(m.group(1)) == os.getpid():
            return int(name)
        if not os.path.islink(p):
            return None
        p = os.path.join(folder, os.readlink(p))
    return None


def check_output(path: str, what: str) -> Output:
    """The file ``path`` will write (links followed), checked; a usage error names the problem."""
    if not path.strip():
        fail(f"{what}: give a file name, not an empty one")
    fd = _descriptor(path)
    if fd is not None:
        shown = "standard output" if path == "-" else path
        try:
            mode = os.fstat(fd).st_mode
        except OSError:
            fail(f"{what} {shown}: file descriptor {fd} is not open")
        if stat.S_ISDIR(mode):
            fail(f"{what} {shown} is a folder, not a file")
        return Output(path, Path(f"/dev/fd/{fd}"), fd)
    target = Path(os.path.realpath(path))
    if target.is_dir():
        fail(f"{what} {path} is a folder, not a file")
    if target.exists() and not _direct(target) and read_only(target):
        fail(f"{what} {path}: the file cannot be written (it is read-only)")
    folder = target.parent
    if not folder.is_dir():
        fail(f"{what} {path}: no such folder {folder}")
    if not _direct(target) and not os.access(folder, os.W_OK | os.X_OK):
        fail(f"{what} {path}: the folder {folder} cannot be written (permission denied)")
    return Output(path, target)


def on_stdout(*outputs: tuple[str, Output | None]) -> bool:
    """Whether one of the outputs (each with the flag that names it) is standard output, where
    it must be alone: the command's answer and its messages then go to standard error.  A
    usage error when two of them are (their bytes would be mixed)."""
    flags = [flag for flag, out in outputs if out is not None and out.is_stdout]
    if len(flags) > 1:
        fail(f"{' and '.join(flags)} cannot both write to standard output: give one of them a "
             f"file")
    return bool(flags)


def _identity(output: Output | str) -> tuple[int, int] | str | None:
    """What names one file however it is reached: its device and inode where it exists, else
    its path with the links followed (None: standard input, or a descriptor not open)."""
    try:
        if isinstance(output, Output):
            st = os.fstat(output.fd) if output.fd is not None else output.path.stat()
        elif output == "-":
            return None
        else:
            st = os.stat(output)
    except OSError:
        return None if isinstance(output, Output) and output.fd is not None else (
            str(output.path) if isinstance(output, Output) else os.path.realpath(output))
    return st.st_dev, st.st_ino


def keep_apart(inputs: Sequence[tuple[str, str]],
               outputs: Sequence[tuple[str, Output | None]]) -> None:
    """A usage error when an output file is one of the files read (``inputs``: what each is
    called, its path) or another output: a command never writes over what it reads, nor one
    output over another."""
    seen: dict[tuple[int, int] | str, str] = {}
    for what, path in inputs:
        key = _identity(path)
        if key is not None:
            seen.setdefault(key, what)
    read = dict(seen)
    for flag, out in outputs:
        if out is None:
            continue
        key = _identity(out)
        if key is None or (out.fd in (1, 2) and key not in read):
            continue
        if key in read:
            fail(f"{flag} {out} is {read[key]} this command reads: an output is never written "
                 f"over an input (give another file)")
        if key in seen:
            fail(f"{seen[key]} and {flag} both name {out}: give each output a file of its own")
        seen[key] = flag


def _direct(target: Path) -> bool:
    """Whether ``target`` is written in place: a FIFO, a device or a socket."""
    try:
        mode = target.stat().st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode)


@contextmanager
def open_output(output: Output, binary: bool = False) -> Iterator[IO[Any]]:
    """A file to write ``output`` through (see the module notes)."""
    if output.fd in (1, 2):  # standard output or error: the program's own stream
        stream = sys.stdout if output.fd == 1 else sys.stderr
        stream.flush()
        yield stream.buffer if binary else stream
        stream.flush()
        return
    if output.fd is not None:  # written as the descriptor is open (appending, at its place)
        dup = os.dup(output.fd)
        fd_file: IO[Any] = (os.fdopen(dup, "wb") if binary
                            else os.fdopen(dup, "w", encoding="utf-8", newline="\n"))
        with fd_file:
            yield fd_file
        return
    target = output.path
    if _direct(target):
        fh: IO[Any] = (open(target, "wb") if binary  # noqa: SIM115
                       else open(target, "w", encoding="utf-8", newline="\n"))  # noqa: SIM115
        with fh:
            yield fh
        return
    with replacing(target, binary) as fh:
        yield fh


class Progress:
    """A progress line on standard error, kept up to date by a thread of its own, so that it
    shows within two seconds of the start (:data:`FIRST`) however long a single share of the
    work takes (a slow policy playing a few hands), and never for a run that ends before.

    On a terminal the line is rewritten in place every :data:`EVERY` seconds and cleared at
    the end; elsewhere (``--progress`` asked for it: a log) a line is added every
    :data:`EVERY_LOG` seconds.  ``progress(done)`` reports the units done so far.
    """

    #: seconds before the first line (a quick run shows none)
    FIRST = 1.0
    #: seconds between two updates on a terminal, and in a log
    EVERY = 0.5
    EVERY_LOG = 5.0

    def __init__(self, total: int, what: str, verb: str | None = None,
                 terminal: bool | None = None) -> None:
        self.total = total
        self.what = what
        self.verb = _("simulating") if verb is None else verb
        self.terminal = sys.stderr.isatty() if terminal is None else terminal
        self.start = time.perf_counter()
        self.done = 0
        self.shown = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="herzla-progress", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        if self._stop.wait(self.FIRST):
            return
        every = self.EVERY if self.terminal else self.EVERY_LOG
        while True:
            with self._lock:
                if self._stop.is_set():
                    return
                self._write(self.line())
            if self._stop.wait(every):
                return

    def line(self) -> str:
        """What the line says now."""
        spent = time.perf_counter() - self.start
        done = self.done
        percent = 100 * done // self.total if self.total else 100
        text = _("{verb}: {percent}  {done} of {total} {what}, {spent} so far").format(
            verb=self.verb, percent=f"{percent:3d}%", done=f"{done:,}", total=f"{self.total:,}",
            what=self.what, spent=_duration(spent))
        if done:
            text += _(", about {left} left").format(
                left=_duration(spent * (self.total - done) / done))
        return text

    def _write(self, text: str) -> None:
        if self.terminal:
            click.echo(f"\r{text:<78}", nl=False, err=True)
        else:
            click.echo(text, err=True)
        self.shown = True

    def __call__(self, done: int) -> None:
        self.done = done

    def close(self) -> None:
        """Stop the line (cleared on a terminal)."""
        with self._lock:
            self._stop.set()
            if self.shown and self.terminal:
                click.echo("\r" + " " * 78 + "\r", nl=False, err=True)
        self._thread.join()


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds // 60:.0f} min {seconds % 60:02.0f} s"
    return f"{seconds // 3600:.0f} h {seconds % 3600 // 60:02.0f} min"
