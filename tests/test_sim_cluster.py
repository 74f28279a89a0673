"""``herzla simulate --cluster`` on a dask scheduler and workers started here, on 127.0.0.1.

The scheduler and the workers are processes of their own (``python -m dask scheduler`` and
``python -m dask worker``, as a user starts them), on ports they choose (the scheduler writes
its address to a file).  The runs are small; the faults: a worker killed mid-run, a scheduler
that is not there or does not answer, Ctrl-C and SIGTERM during a run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from herzla.cli import main
from herzla.sim.api import plan_run, run_plan
from tests.helpers import at_a_terminal

# skipped without the dask extra; looked up, not imported: the default set, which leaves these
# tests out, does not import distributed in every process to collect them
pytestmark = [pytest.mark.cluster,
              pytest.mark.skipif(find_spec("distributed") is None, reason="needs the dask extra")]

ROOT = Path(__file__).resolve().parents[1]
DASK = [sys.executable, "-m", "dask"]


def wait_for(check: Callable[[], Any], what: str, seconds: float = 60.0) -> Any:
    """Poll ``check()`` until it is true (a deadline against hangs, not a timing assert)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def start_worker(address: str, log: Path) -> subprocess.Popen[bytes]:
    with open(log, "wb") as fh:
        return subprocess.Popen([*DASK, "worker", address, "--nthreads", "1", "--no-nanny",
                                 "--no-dashboard", "--host", "127.0.0.1"],
                                stdout=fh, stderr=subprocess.STDOUT, cwd=log.parent)


def start_scheduler(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    info = folder / "scheduler.json"
    with open(folder / "scheduler.log", "wb") as fh:
        proc = subprocess.Popen([*DASK, "scheduler", "--host", "127.0.0.1", "--port", "0",
                                 "--no-dashboard", "--scheduler-file", str(info)],
                                stdout=fh, stderr=subprocess.STDOUT, cwd=folder)
    try:
        wait_for(lambda: info.exists() and info.read_text(encoding="utf-8").strip(),
                 "the scheduler's address")
    except AssertionError:
        stop(proc)
        raise
    address = json.loads(info.read_text(encoding="utf-8"))["address"]
    assert isinstance(address, str) and address.startswith("tcp://127.0.0.1:")
    return proc, address


def client(address: str) -> Any:
    """A client of the scheduler at ``address`` (distributed is partly typed)."""
    import distributed

    make: Any = distributed.Client
    return make(address, timeout=20, set_as_default=False)


def workers_seen(address: str) -> int:
    with client(address) as c:
        return int(c.scheduler_info(n_workers=0)["n_workers"])


def scheduler_tasks(address: str) -> int:
    def count(dask_scheduler: Any) -> int:
        return len(dask_scheduler.tasks)

    with client(address) as c:
        return int(c.run_on_scheduler(count))


@contextlib.contextmanager
def two_workers(folder: Path) -> Iterator[str]:
    """The address of a scheduler with two workers of one thread each, logging into ``folder``,
    all stopped afterwards."""
    scheduler, address = start_scheduler(folder)
    workers = [start_worker(address, folder / f"worker{i}.log") for i in range(2)]
    try:
        wait_for(lambda: workers_seen(address) == 2, "two workers")
        yield address
    finally:
        for w in workers:
            stop(w)
        stop(scheduler)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a scheduler with two workers of one thread each."""
    with two_workers(tmp_path_factory.mktemp("cluster")) as address:
        yield address


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, ["simulate", *args, "--no-progress"])


def answer(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert isinstance(out, dict)
    del out["elapsed_s"], out["hands_per_s"]
    return out


def one_error_line(result: Result) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("herzla: error: ")
    return lines[0]


@pytest.mark.parametrize("args", [
    ["herzla", "--stock", "30", "--hands", "5000", "--seed", "21", "--block-size", "256"],
    ["herzeln", "--partie", "--hands", "900", "--seed", "22", "--block-size", "128"],
    ["herzerln", "--players", "3", "--policy", "heuristic", "--hands", "700", "--seed", "23",
     "--block-size", "100", "--batch-size", "300"],
    ["herzla", "--session", "6", "--stock", "40", "--policy", "heuristic", "--hands", "700",
     "--seed", "24", "--block-size", "64"],
], ids=["herzla-bidding", "herzeln-partie", "herzerln-3p", "herzla-session"])
def test_same_answer_as_one_local_process(cluster: str, args: list[str], tmp_path: Path) -> None:
    local = answer(*args, "--jobs", "1", "--sample", "3", "--sample-out",
                   str(tmp_path / "local.jsonl"), "--rows", str(tmp_path / "local.csv"))
    remote = answer(*args, "--cluster", cluster, "--sample", "3", "--sample-out",
                    str(tmp_path / "cluster.jsonl"), "--rows", str(tmp_path / "cluster.csv"))
    assert remote == local
    assert ((tmp_path / "cluster.jsonl").read_text(encoding="utf-8")
            == (tmp_path / "local.jsonl").read_text(encoding="utf-8"))
    # one row a hand (partie, evening): the same file from the cluster's workers
    assert ((tmp_path / "cluster.csv").read_text(encoding="utf-8")
            == (tmp_path / "local.csv").read_text(encoding="utf-8"))


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_a_plug_in_contract_and_policy_play_on_the_cluster(
        plugin_path: None, engine: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The spec a task carries holds the contract and the policies themselves: a plug-in's
    pickle by their import path, which the workers (the plug-ins on their path) import."""
    from herzla import contracts as registry
    from tests.conftest import PLUGINS

    monkeypatch.setattr(registry, "_registry", None)  # found anew, the plug-in's game too
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(PLUGINS), *filter(None, [os.environ.get("PYTHONPATH")])]))
    args = ["bube", "--contract", "no-jacks", "--hands", "600", "--seed", "4", "--block-size",
            "100", "-o", "jack_penalty=7", "--engine", engine,
            "--policy", "house_policy:POLICY[spare=true],heuristic,random,house"]
    local = answer(*args, "--jobs", "1")
    with two_workers(tmp_path) as address:
        assert answer(*args, "--cluster", address) == local
    assert local["policy"] == "house_policy:POLICY[spare=true],heuristic,random,house"


def test_the_table_names_the_cluster(cluster: str) -> None:
    result = invoke("herzla-kids", "--hands", "2000", "--seed", "1", "--cluster", cluster)
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith(f"2 dask workers at {cluster}).")


def test_a_worker_that_dies_mid_run_loses_nothing(cluster: str, tmp_path: Path) -> None:
    extra = start_worker(cluster, tmp_path / "extra.log")
    try:
        wait_for(lambda: workers_seen(cluster) == 3, "the third worker")
        plan = plan_run("herzla", "normal", hands=120_000, seed=31, block=1024)
        want = run_plan(plan, jobs=1).to_dict()
        killed: list[int] = []

        def kill_once(done: int) -> None:
            if not killed:
                os.kill(extra.pid, signal.SIGKILL)
                killed.append(done)

        res = run_plan(plan, cluster=cluster, batch_size=1024, progress=kill_once)
        assert killed and killed[0] < plan.hands  # killed while blocks were still to play
        assert extra.wait(timeout=20) == -signal.SIGKILL
        got = res.to_dict()
        for d in (got, want):
            del d["elapsed_s"], d["hands_per_s"]
        assert got == want
    finally:
        stop(extra)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_nothing_listening_is_one_line() -> None:
    address = f"tcp://127.0.0.1:{free_port()}"
    line = one_error_line(invoke("herzla", "--hands", "100", "--cluster", address))
    assert line == (f"herzla: error: no dask scheduler at {address}: nothing listens there "
                    f"(start one with 'dask scheduler')")


def test_a_silent_server_is_one_line_within_the_timeout() -> None:
    """Something accepts the connection but never answers: give up after --cluster-timeout."""
    with socket.socket() as srv:
        srv.bind(("127.0.0.1", 0))
        srv.listen(8)
        address = f"tcp://127.0.0.1:{srv.getsockname()[1]}"
        held: list[socket.socket] = []
        done = threading.Event()

        def accept() -> None:
            srv.settimeout(0.2)
            while not done.is_set():
                try:
                    held.append(srv.accept()[0])
                except OSError:
                    continue

        t = threading.Thread(target=accept, daemon=True)
        t.start()
        try:
            line = one_error_line(invoke("herzla", "--hands", "100", "--cluster", address,
                                         "--cluster-timeout", "1"))
        finally:
            done.set()
            t.join()
            for c in held:
                c.close()
    assert line.startswith(f"herzla: error: no dask scheduler answered at {address} within 1 s")


def test_a_scheduler_without_workers_is_one_line(tmp_path: Path) -> None:
    scheduler, address = start_scheduler(tmp_path)
    try:
        line = one_error_line(invoke("herzla", "--hands", "100", "--cluster", address,
                                     "--cluster-timeout", "1"))
    finally:
        stop(scheduler)
    assert line == (f"herzla: error: the dask scheduler at {address} has no worker (start one "
                    f"with 'dask worker {address}')")


@pytest.mark.parametrize("bad", ["sched.example", "tcp://127.0.0.1:0", "ftp://127.0.0.1:21"])
def test_a_bad_address_is_one_line(bad: str) -> None:
    line = one_error_line(invoke("herzla", "--hands", "100", "--cluster", bad))
    assert "scheduler address" in line and "tcp://HOST:PORT" in line


def test_jobs_and_cluster_exclude_each_other(cluster: str) -> None:
    line = one_error_line(invoke("herzla", "--hands", "100", "--cluster", cluster, "-j", "2"))
    assert "--jobs and --cluster exclude each other" in line


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_an_interrupted_run_cancels_its_tasks(cluster: str, tmp_path: Path,
                                              sig: signal.Signals) -> None:
    out = tmp_path / "out"
    out.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "herzla", "simulate", "herzla", "--hands",
                             "1e9", "--seed", "4", "--no-progress", "--cluster", cluster,
                             "--sample", "5", "--sample-out", str(out / "sample.jsonl")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=at_a_terminal)
    try:
        wait_for(lambda: proc.poll() is not None or scheduler_tasks(cluster) > 0,
                 "tasks on the cluster")
        os.killpg(proc.pid, sig)  # Ctrl-C at a terminal signals the whole group
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    name = "interrupted" if sig == signal.SIGINT else f"stopped by {sig.name}"
    assert stderr == f"herzla: {name}\n"
    assert proc.returncode == 128 + sig
    assert stdout == ""
    assert list(out.iterdir()) == []  # no sample file, no .tmp file
    wait_for(lambda: scheduler_tasks(cluster) == 0, "the cluster to drop the run's tasks")


def test_a_lost_scheduler_is_one_line(tmp_path: Path) -> None:
    scheduler, address = start_scheduler(tmp_path)
    worker = start_worker(address, tmp_path / "worker.log")
    try:
        wait_for(lambda: workers_seen(address) == 1, "the worker")
        proc = subprocess.Popen([sys.executable, "-m", "herzla", "simulate", "herzla",
                                 "--hands", "1e9", "--seed", "5", "--no-progress", "--cluster",
                                 address, "--cluster-timeout", "2"],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, start_new_session=True, preexec_fn=at_a_terminal)
        try:
            wait_for(lambda: proc.poll() is not None or scheduler_tasks(address) > 0,
                     "tasks on the cluster")
            scheduler.kill()
            stdout, stderr = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    finally:
        stop(worker)
        stop(scheduler)
    assert stderr == f"herzla: error: lost the connection to the dask scheduler at {address}\n"
    assert proc.returncode == 2 and stdout == ""


def test_advise_on_the_cluster_answers_as_at_home(cluster: str) -> None:
    """``herzla advise --cluster``: the same seeded answer as one local process."""
    args = ["advise", "herzla", "--hand", "CT C7 SJ S8 H9 H7 D9 D7", "--samples", "12",
            "--seed", "5", "--only", "beddl", "--only", "mord", "--json"]
    home = CliRunner().invoke(main, [*args, "--jobs", "1"])
    away = CliRunner().invoke(main, [*args, "--cluster", cluster])
    assert home.exit_code == 0 and away.exit_code == 0, (home.output, away.output)
    a, b = json.loads(home.stdout), json.loads(away.stdout)
    del a["elapsed_s"], b["elapsed_s"]
    assert a == b
    both = CliRunner().invoke(main, [*args, "--jobs", "2", "--cluster", cluster])
    assert both.exit_code == 2 and "exclude each other" in both.stderr
