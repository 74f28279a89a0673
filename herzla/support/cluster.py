"""Tasks on a dask.distributed cluster: an ordered map with retries, cancellation and a bounded
connect time.

:func:`cluster_map` runs ``fn(item)`` for each item of ``items`` as a dask task on the workers of
the scheduler at ``address`` and yields the results in the order of ``items``, whatever order
the workers finish in.  It is all a caller needs (``herzla simulate --cluster`` plays its seeded
blocks through it)::

    from herzla.support.cluster import cluster_map
    for result in cluster_map(functools.partial(work, common), items, "tcp://host:8786"):
        ...

- ``fn`` and the items must pickle (a module-level function, or a :func:`functools.partial` of
  one) and the workers must be able to import them: start them from an environment with the
  same herzla (and plug-ins) installed.
- Connecting is bounded by ``timeout`` seconds: nothing listening at the address, no dask
  scheduler there, or a scheduler without a worker is a :class:`ClusterError` with a one-line
  message, never a hang.  So is losing every worker, or the scheduler, for ``timeout`` seconds
  during the run.
- A worker that dies loses nothing: the scheduler runs its tasks again on the others (a task
  whose workers died ``distributed.scheduler.allowed-failures`` + 1 times, 4 by default, is a
  ClusterError).  A task that raises is tried ``retries`` more times, then its exception is
  raised here as it is.
- At most ``window`` tasks are on the cluster at a time (default: twice the workers' threads,
  at least 4), so the scheduler holds few tasks and few results wait, however many items.
- Closing the generator (an exception or Ctrl-C in the loop, ``break``) cancels the tasks still
  on the cluster and closes the connection.

``distributed`` is imported only here, when a cluster is asked for; without it the functions
raise ClusterError saying to ``pip install 'herzla[dask]'``.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any, TypeAlias, TypeVar

from herzla.counting import read_whole
from herzla.i18n import _
from herzla.limits import DEFAULT_TIMEOUT

__all__ = ["DEFAULT_TIMEOUT", "ClusterError", "check_address", "check_cluster", "cluster_map",
           "connect", "quiet_logs"]

T = TypeVar("T")
R = TypeVar("R")
#: distributed's Client and Future (imported only when a cluster is asked for; partly typed)
Client: TypeAlias = Any
Future: TypeAlias = Any

#: how often a wait for a result looks at the cluster's health (seconds)
_POLL = 0.5
_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
#: a host name (labels of letters, digits, hyphens and, as container names have them,
#: underscores), an IPv4 address, or an IPv6 one in brackets
_HOST = re.compile(r"(?=.{1,253}$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?"
                   r"(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?"
                   r"|\[[0-9A-Fa-f:.]{2,45}(?:%[A-Za-z0-9]+)?\]")
_INSTALL = "--cluster needs dask.distributed: pip install 'herzla[dask]'"


class ClusterError(RuntimeError):
    """The cluster cannot be used or was lost, said in one line."""


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def quiet_logs() -> None:
    """Keep distributed's log (a lost worker, a lost scheduler, with tracebacks) off standard
    error, for a command line that reports what matters in one line.  Does nothing without
    distributed."""
    try:
        import distributed  # noqa: F401  (its import sets its loggers' levels)
    except ImportError:
        return
    import logging

    silent = logging.CRITICAL + 1
    names = [n for n in logging.root.manager.loggerDict
             if n.split(".")[0] in ("distributed", "tornado", "asyncio")]
    for name in {"distributed", "tornado", "asyncio", *names}:
        logger = logging.getLogger(name)
        logger.setLevel(silent)
        for handler in logger.handlers:
            handler.setLevel(silent)


def check_address(address: str) -> str:
    """The scheduler address with its protocol (``host:port`` becomes ``tcp://host:port``);
    ClusterError names what is wrong with it (no host, a host that is no host name or IP
    address, no port, a port outside 1 to 65535).

    >>> check_address("127.0.0.1:8786"), check_address("tcp://sched.example:8786")
    ('tcp://127.0.0.1:8786', 'tcp://sched.example:8786')
    >>> check_address("sched.example")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    herzla.support.cluster.ClusterError: the scheduler address 'sched.example' has no port ...
    """
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    hint = "(write tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786)"
    shown = repr(address) if len(address) <= 60 else repr(address[:60]) + "..."
    if scheme not in _SCHEMES:
        raise ClusterError(_("the scheduler address {shown}: unknown protocol {scheme!r} "
                             "{hint}").format(shown=shown, scheme=scheme[:20], hint=hint))
    if not rest:
        raise ClusterError(_("the scheduler address {shown} is empty {hint}").format(
            shown=shown, hint=hint))
    if scheme in ("tcp", "tls"):
        host, colon, port = rest.rpartition(":")
        number = read_whole(port, digits=5)
        if not colon or (not host and number is None):
            raise ClusterError(_("the scheduler address {shown} has no port {hint}").format(
                shown=shown, hint=hint))
        if not host:
            raise ClusterError(_("the scheduler address {shown} has no host {hint}").format(
                shown=shown, hint=hint))
        if not _HOST.fullmatch(host):
            raise ClusterError(_("the scheduler address {shown}: {host!r} is not a host "
                                 "name or IP address {hint}").format(
                shown=shown, host=host[:40], hint=hint))
        if number is None or not 0 < number < 65536:
            raise ClusterError(_("the scheduler address {shown}: {port!r} is not a port "
                                 "(1 to 65535) {hint}").format(
                shown=shown, port=port[:20], hint=hint))
    return f"{scheme}://{rest}"


def check_cluster(cluster: object, error: type[ValueError] = ValueError) -> str | None:
    """The ``cluster`` argument of every function that can run on a dask cluster, checked on
    entry: None, or the scheduler's address (:func:`check_address`).  ``error`` (the
    function's own ValueError) names a cluster that is not text or not an address.  Reaching the
    scheduler is left to the run, whose :class:`ClusterError` says why it cannot.

    >>> check_cluster(None), check_cluster("127.0.0.1:8786")
    (None, 'tcp://127.0.0.1:8786')
    >>> check_cluster("tcp://host:99999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the scheduler address 'tcp://host:99999': '99999' is not a port (1 to 65535) ...
    """
    if cluster is None:
        return None
    if not isinstance(cluster, str):
        from herzla.quote import quote

        raise error(_("cluster is the address of a dask scheduler (tcp://HOST:PORT), not "
                      "{cluster}").format(cluster=quote(cluster)))
    try:
        return check_address(cluster)
    except ClusterError as exc:
        raise error(str(exc)) from None


def _probe(address: str, timeout: float) -> None:
    """For a tcp:// address: fail at once where nothing listens (dask would retry until its
    timeout), and within ``timeout`` where nothing answers."""
    scheme, _sep, rest = address.partition("://")
    if scheme != "tcp":
        return
    host, _colon, port = rest.rpartition(":")
    host = host.strip("[]")
    import socket  # here: every command that can use a cluster imports this module

    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except ConnectionRefusedError:
        raise ClusterError(_("no dask scheduler at {address}: nothing listens there "
                             "(start one with 'dask scheduler')").format(address=address)) from None
    except TimeoutError:
        raise ClusterError(_("no dask scheduler at {address}: no answer within "
                             "{timeout:g} s").format(address=address, timeout=timeout)) from None
    except OSError as exc:
        raise ClusterError(_("no dask scheduler at {address}: {exc}").format(
            address=address, exc=_one_line(exc))) from None


def _hello(address: str, timeout: float) -> None:
    """Ask whatever listens at ``address`` who it is, within ``timeout`` seconds: a dask
    scheduler answers its identity (the client's own handshake would wait for ever on a
    server that accepts the connection and says nothing)."""
    import asyncio

    import distributed.comm

    open_comm: Any = getattr(distributed.comm, "connect")  # noqa: B009 (not in its __all__)

    async def ask() -> Any:
        comm = await open_comm(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    answer: list[Any] = []

    def run() -> None:
        try:
            answer.append(asyncio.run(asyncio.wait_for(ask(), timeout)))
        except BaseException as exc:  # handed to the caller
            answer.append(exc)

    thread = threading.Thread(target=run, name="herzla-cluster-hello", daemon=True)
    thread.start()
    thread.join(timeout + 1)
    got = answer[0] if answer else None
    if got is None or isinstance(got, TimeoutError):
        raise ClusterError(_("no dask scheduler answered at {address} within {timeout:g} s").format(
            address=address, timeout=timeout))
    if isinstance(got, BaseException):
        raise ClusterError(_("no dask scheduler answered at {address} "
                             "({got})").format(address=address, got=_one_line(got))) from None
    if not isinstance(got, dict) or got.get("type") != "Scheduler":
        kind = got.get("type") if isinstance(got, dict) else None
        raise ClusterError(f"{address} is not a dask scheduler"
                           + (f" (a dask {kind})" if kind else ""))


def _new_client(address: str, timeout: float) -> Client:
    try:
        import distributed
    except ImportError:
        raise ClusterError(_INSTALL) from None

    base: Any = distributed.Client

    class _Client(base):  # type: ignore[misc]
        """A client that, when it fails to connect, leaves nothing to close at exit."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            try:
                super().__init__(*args, **kwargs)
            except BaseException:
                with contextlib.suppress(Exception):
                    self.status = "closed"
                with contextlib.suppress(Exception):
                    self._loop_runner.stop()
                raise

    try:
        return _Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:
        raise ClusterError(_("no dask scheduler answered at {address} within {timeout:g} s "
                             "({exc})").format(
            address=address, timeout=timeout, exc=_one_line(exc))) from None


def _threads(client: Client) -> tuple[int, int]:
    """(workers, threads) of the cluster now ((0, 0) while the scheduler is away)."""
    if client.status != "running":
        return 0, 0
    try:
        info = client.scheduler_info(n_workers=0)
    except TypeError:  # distributed before 2025: every worker listed
        info = client.scheduler_info()
    listed = info.get("workers", {})
    workers = info.get("n_workers", len(listed))
    threads = info.get("total_threads", sum(int(w.get("nthreads", 1)) for w in listed.values()))
    return int(workers), int(threads)


@contextlib.contextmanager
def connect(address: str, timeout: float = DEFAULT_TIMEOUT) -> Iterator[Client]:
    """A client of the scheduler at ``address`` that has at least one worker, closed on exit;
    ClusterError (one line) when there is none within ``timeout`` seconds."""
    if timeout <= 0:
        raise ClusterError(_("the cluster timeout must be more than 0 seconds, not "
                             "{timeout:g}").format(
            timeout=timeout))
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise ClusterError(_INSTALL) from None
    address = check_address(address)
    _probe(address, timeout)
    _hello(address, timeout)
    client = _new_client(address, timeout)
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(_("the dask scheduler at {address} has no worker (start one with "
                                 "'dask worker {address}')").format(address=address)) from None
        yield client
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=timeout)


def cluster_map(fn: Callable[[T], R], items: Iterable[T], address: str, *,
                timeout: float = DEFAULT_TIMEOUT, retries: int = 1, window: int | None = None,
                on_connect: Callable[[int], None] | None = None) -> Generator[R, None, None]:
    """``fn(item)`` for each item, run on the cluster at ``address``, yielded in order (see the
    module notes).  ``on_connect(workers)`` is called once connected."""
    with connect(address, timeout) as client:
        if on_connect is not None:
            on_connect(_threads(client)[0])
        yield from ordered_results(client, fn, items, timeout=timeout, retries=retries,
                                   window=window)


def ordered_results(client: Client, fn: Callable[[T], R], items: Iterable[T], *,
                    timeout: float = DEFAULT_TIMEOUT, retries: int = 1,
                    window: int | None = None) -> Generator[R, None, None]:
    """:func:`cluster_map` on a connected client (left open)."""
    address = str(getattr(client.scheduler, "address", "") or "the cluster")
    import uuid

    prefix = f"herzla-{uuid.uuid4().hex[:12]}"
    todo = enumerate(items)
    pending: deque[Future] = deque()

    def top_up() -> None:
        limit = max(1, window) if window is not None else max(4, 2 * _threads(client)[1])
        while len(pending) < limit:
            nxt = next(todo, None)
            if nxt is None:
                return
            i, item = nxt
            pending.append(client.submit(fn, item, key=f"{prefix}-{i}", retries=retries,
                                         pure=False))

    done = False
    try:
        top_up()
        while pending:
            result = _result(client, pending[0], timeout, address)
            pending.popleft()
            top_up()
            yield result
        done = True
    finally:
        if not done and pending:
            if client.status == "running":
                with contextlib.suppress(Exception):
                    client.cancel(list(pending), force=True)
            pending.clear()


def _result(client: Client, future: Future, timeout: float, address: str) -> Any:
    """The future's result; ClusterError when the cluster is lost (no scheduler, or no worker,
    for ``timeout`` seconds) or keeps killing the task's workers."""
    from distributed import KilledWorker

    lost_since: float | None = None
    while True:
        try:
            return future.result(timeout=_POLL)
        except TimeoutError:
            pass
        except KilledWorker as exc:
            raise ClusterError(_("the workers running a task died too often "
                                 "({exc}); see the workers' logs").format(
                exc=_one_line(exc))) from None
        except Exception as exc:
            if type(exc).__name__ in ("CancelledError", "FutureCancelledError"):
                if client.status != "running" or "connection" in str(exc):
                    raise ClusterError(_("lost the connection to the dask scheduler at "
                                         "{address}").format(address=address)) from None
                raise ClusterError(_("the dask scheduler at {address} cancelled a task "
                                     "({exc})").format(
                    address=address, exc=_one_line(exc))) from None
            raise
        healthy = client.status == "running" and _threads(client)[0] > 0
        now = time.monotonic()
        if healthy:
            lost_since = None
        elif lost_since is None:
            lost_since = now
        elif now - lost_since > timeout:
            if client.status != "running":
                text = _("lost the connection to the dask scheduler at {address} for more "
                         "than {timeout:g} s")
            else:
                text = _("lost every worker of {address} for more than {timeout:g} s")
            raise ClusterError(text.format(address=address, timeout=timeout))
