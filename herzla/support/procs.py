"""Local worker processes: an ordered map over this process and ``workers`` helpers.

:func:`local_map` runs ``fn(item)`` for each item and yields the results in the order of the
items.  The calling process plays too: it hands each helper a few items ahead (so a helper never
waits for work) and, while no result is due, runs the next item itself; so ``workers`` helpers
and the caller keep ``workers + 1`` cores busy, and the helpers' start-up is not time lost.

Start-up is cheap: on Linux, a process with no other thread *forks* its helpers (a few
milliseconds: numpy and herzla are already imported, and no resource tracker or fork server is
started); elsewhere, or with other threads running, a fork server with the module of ``fn``
preloaded forks them (one interpreter start for the run, then a fork per helper).

Faults and signals:

- A helper that dies (``kill -9``, out of memory) loses nothing: its items go to the others and
  a new helper replaces it; after :data:`RESTARTS` deaths in one map the map fails with
  :class:`WorkerLost`, one line.
- Helpers ignore SIGINT and SIGHUP (Ctrl-C at a terminal, a hang-up of the session, a signal to
  the process group: the caller decides) and die silently of SIGTERM; on Linux they also get
  SIGTERM when the caller dies.  Signals are blocked while a helper starts, so none catches it
  half-made (nor a fork server or its resource tracker, which keep them blocked: no traceback
  from them when a whole process group is signalled).
- However the map ends (done, an exception, Ctrl-C, SIGTERM turned into an exception by the
  caller, the generator closed), the helpers are stopped and waited for before it returns.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # multiprocessing is imported where helpers start: a command that starts
    from multiprocessing.connection import Connection  # none (``herzla solve``) pays nothing

from herzla.i18n import _

__all__ = ["RESTARTS", "WorkerLost", "default_jobs", "local_map", "start_method", "usable_jobs"]

T = TypeVar("T")
R = TypeVar("R")

#: helper deaths one map survives (their items are run again); one more is a WorkerLost
RESTARTS = 2
#: items each helper holds (one running, the rest waiting in its pipe)
AHEAD = 2
#: the signals that stop a run (SIGHUP is not everywhere)
_SIGNALS = {getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
            if hasattr(signal, name)}


def default_jobs() -> int:
    """All the cores this process may use: the default and the most of ``jobs``."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def usable_jobs(jobs: int | None) -> int:
    """The processes to play on when ``jobs`` are asked for (None: all): never more than
    :func:`default_jobs`, the cores this process may use (more would only take turns on them).
    The command line says so when it plays on fewer (:func:`herzla.cli.common.note_jobs`)."""
    cores = default_jobs()
    return cores if jobs is None else min(jobs, cores)


def _preload(fn: Callable[..., Any]) -> list[str]:
    """The module the fork server imports before it forks helpers: the one ``fn`` (or the
    function of a :func:`functools.partial`) is defined in, which imports what it needs."""
    module = getattr(getattr(fn, "func", fn), "__module__", None)
    return [module] if isinstance(module, str) and module != "__main__" else []


class WorkerLost(RuntimeError):
    """Helpers kept dying; the message is one line."""


def start_method() -> str:
    """How helpers start here: ``fork`` (Linux, no other thread in this process), else
    ``forkserver`` where there is one, else ``spawn``.  The environment variable
    ``HERZLA_START_METHOD`` chooses one of them (for tests)."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    forced = os.environ.get("HERZLA_START_METHOD", "")
    if forced in methods:
        return forced
    if sys.platform.startswith("linux") and threading.active_count() == 1 and "fork" in methods:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _die_with_parent() -> None:
    """Linux: SIGTERM this process when the one that started it dies."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        import ctypes  # in the helper only

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _helper(conn: Connection, fn: Callable[[Any], Any], inherited: list[int]) -> None:
    """A helper's life: run the items it is sent, send back (index, ok, result or error)."""
    for sig in _SIGNALS:
        signal.signal(sig, signal.SIG_DFL if sig == signal.SIGTERM else signal.SIG_IGN)
    _die_with_parent()
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _SIGNALS)
    for fd in inherited:  # the caller's ends of the other helpers' pipes (fork)
        with contextlib.suppress(OSError):
            os.close(fd)
    try:
        while True:
            msg = conn.recv()
            if msg is None:
                return
            i, item = msg
            try:
                out: tuple[int, bool, Any] = (i, True, fn(item))
            except Exception as exc:
                out = (i, False, exc)
            try:
                conn.send(out)
            except Exception as exc:  # an answer or an error that does not pickle
                conn.send((i, False, RuntimeError(f"{type(exc).__name__}: {exc}")))
    except (EOFError, OSError, KeyboardInterrupt):
        return  # the caller is gone or stopped us: nothing to say


class _Helper:
    def __init__(self, ctx: Any, fn: Callable[[Any], Any], others: list[int]) -> None:
        parent, child = ctx.Pipe()
        self.conn = parent
        self.proc = ctx.Process(target=_helper, args=(child, fn, others), daemon=True)
        self.proc.start()
        child.close()
        self.held: deque[int] = deque()  # indices sent, not answered yet, in order

    def stop(self, hard: bool) -> None:
        if not hard:
            with contextlib.suppress(OSError, ValueError):
                self.conn.send(None)
        else:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                self.proc.terminate()

    def reap(self) -> None:
        self.proc.join(timeout=2)
        if self.proc.exitcode is None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                self.proc.kill()
            self.proc.join(timeout=2)
        self.conn.close()


@contextlib.contextmanager
def _quiet_start() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP blocked while helpers start: a signal that comes meanwhile
    waits and stops this process right after, and what starts inherits the blocked signals:
    a helper unblocks them once its handlers are set; a fork server and its resource tracker
    (which unblocks SIGINT and SIGTERM, both of which it ignores) keep them blocked, and end
    when this process closes their pipes."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _describe(code: int | None) -> str:
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


def local_map(fn: Callable[[T], R], items: Iterable[T], workers: int, *,
              window: int | None = None) -> Generator[R, None, None]:
    """``fn(item)`` for each item, in order, on this process and ``workers`` helpers (see the
    module notes); ``fn`` and the items must pickle.

    This process runs an item only when no result is waiting and the item is fewer than
    ``window`` (default ``4 * (workers + 1)``) places after the one due.  An exception of ``fn``
    is raised here as it is; helpers that keep dying raise WorkerLost.  With no helpers
    (``workers`` 0) it is ``map(fn, items)`` on this process.
    """
    if workers <= 0:  # nothing to wait for: with no helper to answer, a wait never ends
        yield from map(fn, items)
        return
    todo = enumerate(items)
    queue: deque[tuple[int, T]] = deque()  # to hand out before the rest (a dead helper's)
    exhausted = False
    sent: dict[int, T] = {}  # items the helpers hold
    results: dict[int, R] = {}
    due = 0  # the index to yield next
    ahead = window if window is not None else 4 * (workers + 1)
    import multiprocessing.connection

    method = start_method()
    ctx = multiprocessing.get_context(method)
    if method == "forkserver":
        ctx.set_forkserver_preload(_preload(fn))
    helpers: list[_Helper] = []
    deaths = 0
    clean = False

    def next_item() -> tuple[int, T] | None:
        nonlocal exhausted
        if queue:
            return queue.popleft()
        if exhausted:
            return None
        nxt = next(todo, None)
        exhausted = nxt is None
        return nxt

    def start(count: int) -> None:
        # forked helpers inherit this process's objects with the garbage collector's marks
        # frozen, so that their collections pass them by instead of writing to (and so
        # copying) the pages they share with this process; here they are unfrozen at once
        # (unless the caller froze them itself)
        frozen = method == "fork" and not gc.get_freeze_count()
        if frozen:
            gc.freeze()
        try:
            with _quiet_start():
                for _n in range(count):
                    fds = [h.conn.fileno() for h in helpers] if method == "fork" else []
                    helpers.append(_Helper(ctx, fn, fds))
        finally:
            if frozen:
                gc.unfreeze()

    def lose(h: _Helper) -> None:
        """A helper died: its items go back in the queue, a new helper replaces it."""
        nonlocal deaths, queue
        h.proc.join(timeout=2)
        code = h.proc.exitcode
        helpers.remove(h)
        h.reap()
        queue = deque(sorted([*queue, *((i, sent.pop(i)) for i in h.held)],
                             key=lambda x: x[0]))
        deaths += 1
        if deaths > RESTARTS:
            raise WorkerLost(_("worker processes keep dying ({deaths} died, the last "
                               "{code})").format(deaths=deaths, code=_describe(code)))
        start(1)

    try:
        start(workers)
        while True:
            while due in results:
                out = results.pop(due)
                due += 1
                yield out
            for h in list(helpers):  # keep every helper a few items ahead
                while len(h.held) < AHEAD:
                    nxt = next_item()
                    if nxt is None:
                        break
                    try:
                        h.conn.send(nxt)
                    except OSError:  # it died: the item stays to do
                        queue.appendleft(nxt)
                        lose(h)
                        break
                    h.held.append(nxt[0])
                    sent[nxt[0]] = nxt[1]
            if exhausted and not queue and not sent:
                break
            waits: list[Any] = [h.conn for h in helpers] + [h.proc.sentinel for h in helpers]
            ready = multiprocessing.connection.wait(waits, timeout=0)
            if not ready:  # no answer yet: run the next item here, unless too far ahead
                nxt = next_item()
                if nxt is not None and nxt[0] - due < ahead:
                    results[nxt[0]] = fn(nxt[1])
                    continue
                if nxt is not None:
                    queue.appendleft(nxt)
                ready = multiprocessing.connection.wait(waits)
            for h in list(helpers):
                dead = h.proc.sentinel in ready
                if not dead and h.conn not in ready:
                    continue
                failed: BaseException | None = None
                try:
                    while h.conn.poll():
                        i, ok, value = h.conn.recv()
                        h.held.remove(i)
                        sent.pop(i)
                        if ok:
                            results[i] = value
                        else:
                            failed = value
                            break
                except (EOFError, OSError, pickle.UnpicklingError):
                    dead = True
                if failed is not None:
                    raise failed
                if dead:
                    lose(h)
        clean = True
    finally:
        for h in helpers:
            h.stop(hard=not clean)
        for h in helpers:
            h.reap()
