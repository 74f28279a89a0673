"""Local worker processes: the ordered map, a worker killed mid-run, signals to a parallel run
(and to one writing records), and the cap on ``--jobs``.

The signal tests run ``herzla simulate`` in a session of its own (``start_new_session``) and
signal its process group, as a terminal or ``kill -- -PGID`` does, or the parent alone.
"""

from __future__ import annotations

import functools
import gc
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from herzla.cli import main
from herzla.support.procs import RESTARTS, WorkerLost, default_jobs, local_map, start_method
from tests.helpers import EIGHT, at_a_terminal, invoke

ROOT = Path(__file__).resolve().parents[1]
two_cores = pytest.mark.skipif(default_jobs() < 2, reason="needs 2 usable cores")


def square(x: int) -> int:
    return x * x


def fail_on(bad: int, x: int) -> int:
    if x == bad:
        raise ValueError(f"item {bad} is bad")
    return x


def die_on(marker: Path, parent: int, x: int) -> int:
    """Kill the helper that runs item 0 (never the parent); with a marker path, only once."""
    if x == 0 and os.getpid() != parent and (not marker.name or not marker.exists()):
        if marker.name:
            marker.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return x * 10


def frozen_here(parent: int, _x: int) -> tuple[bool, int]:
    """Whether this is a helper, and the objects the garbage collector leaves alone here."""
    return os.getpid() != parent, gc.get_freeze_count()


def test_forked_helpers_inherit_frozen_objects_and_this_process_does_not_keep_them() -> None:
    """A forked helper's collections pass by what it inherits (no copy of the shared pages);
    the caller's collector is as it was."""
    if start_method() != "fork":
        pytest.skip("helpers are not forked here")
    got = list(local_map(functools.partial(frozen_here, os.getpid()), range(8), 1))
    assert all(count > 0 for helper, count in got if helper)
    assert any(helper for helper, _ in got)
    assert gc.get_freeze_count() == 0


def test_local_map_keeps_order() -> None:
    assert list(local_map(square, range(40), 2)) == [x * x for x in range(40)]
    assert list(local_map(square, iter(range(5)), 1, window=1)) == [0, 1, 4, 9, 16]
    assert list(local_map(square, [], 1)) == []


def test_local_map_with_no_helpers_runs_here_and_ends() -> None:
    """``workers`` 0 (``--jobs 1``): every item on this process, and the map ends after the last
    (it waited for an answer from no helper, for ever, once the items ran out)."""
    got: list[Any] = []
    pids: set[int] = set()

    def here(x: int) -> int:
        pids.add(os.getpid())
        return x * x

    def run() -> None:
        got.append(list(local_map(here, range(5), 0)))
        got.append(list(local_map(here, [], 0)))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=20)
    assert not thread.is_alive(), "local_map with no helpers did not end"
    assert got == [[0, 1, 4, 9, 16], []]
    assert pids == {os.getpid()}


def test_an_exception_comes_back_as_it_is() -> None:
    with pytest.raises(ValueError, match="item 7 is bad"):
        list(local_map(functools.partial(fail_on, 7), range(20), 1))


def test_a_killed_helper_loses_nothing(tmp_path: Path) -> None:
    fn = functools.partial(die_on, tmp_path / "died", os.getpid())
    assert list(local_map(fn, range(12), 1)) == [x * 10 for x in range(12)]
    assert (tmp_path / "died").exists()


def test_helpers_that_keep_dying_are_one_line() -> None:
    fn = functools.partial(die_on, Path(""), os.getpid())
    with pytest.raises(WorkerLost) as info:
        list(local_map(fn, range(6), 1))
    message = str(info.value)
    assert "\n" not in message
    assert f"{RESTARTS + 1} died" in message and "SIGKILL" in message


def test_fork_where_safe(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    monkeypatch.delenv("HERZLA_START_METHOD", raising=False)
    if sys.platform.startswith("linux"):
        alone = threading.active_count() == 1
        assert start_method() == ("fork" if alone else "forkserver")


def test_too_many_jobs_are_capped_with_a_note() -> None:
    result = CliRunner().invoke(main, ["simulate", "herzla-kids", "--hands", "300", "--seed", "1",
                                       "--jobs", "1000", "--no-progress"])
    assert result.exit_code == 0, result.output
    cores = default_jobs()
    assert result.stderr.startswith(f"herzla: note: --jobs 1000 is more than the {cores} core")
    assert len(result.stderr.splitlines()) == 1
    processes = result.stdout.strip().splitlines()[-1]
    assert processes.endswith(("1 process).", f"{cores} processes)."))


# -- a whole run as a user starts it ----------------------------------------------------------

def herzla(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "herzla", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env={**os.environ, **(env or {})},
                            preexec_fn=at_a_terminal)


def children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="ascii")
    except OSError:
        return []
    return [int(p) for p in text.split()]


def wait_for(check: Any, what: str, seconds: float = 30.0) -> Any:
    """Poll ``check()`` until it is true (a deadline against hangs, not a timing assert)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


def group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


RUN = ["simulate", "herzla", "--hands", "1e8", "--seed", "3", "--jobs", "2", "--no-progress"]


@two_cores
@pytest.mark.parametrize(("sig", "to_group", "method"), [
    (signal.SIGTERM, True, "fork"),
    (signal.SIGTERM, False, "fork"),
    (signal.SIGHUP, True, "fork"),
    pytest.param(signal.SIGHUP, False, "fork", marks=pytest.mark.slow),
    (signal.SIGINT, True, "fork"),
    pytest.param(signal.SIGHUP, True, "forkserver", marks=pytest.mark.slow),
    pytest.param(signal.SIGTERM, True, "forkserver", marks=pytest.mark.slow),
], ids=lambda v: v.name if isinstance(v, signal.Signals) else str(v))
def test_a_signal_stops_a_parallel_run_cleanly(tmp_path: Path, sig: signal.Signals,
                                               to_group: bool, method: str) -> None:
    out = tmp_path / "out"
    out.mkdir()
    proc = herzla(*RUN, "--sample", "5", "--sample-out", str(out / "sample.jsonl"),
                  env={"HERZLA_START_METHOD": method})
    try:
        wait_for(lambda: children(proc.pid), "the worker process")
        wait_for(lambda: list(out.iterdir()), "the sample file being written")
        if to_group:
            os.killpg(proc.pid, sig)
        else:
            os.kill(proc.pid, sig)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    name = "interrupted" if sig == signal.SIGINT else f"stopped by {sig.name}"
    assert stderr == f"herzla: {name}\n"  # no traceback from a worker or the resource tracker
    assert proc.returncode == 128 + sig
    assert stdout == ""
    wait_for(lambda: group_gone(proc.pid), "the workers to go")
    assert list(out.iterdir()) == []  # no sample, no .tmp file


@two_cores
@pytest.mark.slow
def test_a_worker_killed_mid_run_changes_nothing() -> None:
    args = ["simulate", "herzla", "--contract", "normal", "--hands", "600000", "--seed", "9",
            "--block-size", "4096", "--json", "--no-progress"]
    proc = herzla(*args, "--jobs", "2")
    try:
        helper = wait_for(lambda: children(proc.pid), "the worker process")[0]
        os.kill(helper, signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, stderr
    assert stderr == ""
    got = json.loads(stdout)
    result = CliRunner().invoke(main, [*args, "--jobs", "1"])
    want = json.loads(result.stdout)
    for d in (got, want):
        del d["elapsed_s"], d["hands_per_s"]
    assert got == want


@two_cores
def test_workers_that_keep_dying_stop_the_run_with_one_line(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    if start_method() != "fork":
        pytest.skip("the patched task reaches the workers only when they are forked")
    import herzla.sim.runner as runner

    parent = os.getpid()
    real = runner.play_task

    def dying(plan: Any, task: Any) -> Any:
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(plan, task)

    monkeypatch.setattr(runner, "play_task", dying)
    out = tmp_path / "sample.jsonl"
    result = CliRunner().invoke(main, ["simulate", "herzla", "--hands", "3000", "--seed", "1",
                                       "--block-size", "100", "--jobs", "2", "--no-progress",
                                       "--sample", "3", "--sample-out", str(out)])
    assert result.exit_code == 2, result.output
    assert result.stderr == (f"herzla: error: worker processes keep dying ({RESTARTS + 1} died, "
                             f"the last killed by SIGKILL)\n")
    assert result.stdout == "" and list(tmp_path.iterdir()) == []


# -- the cap on --jobs: the note, the summary, and advise -------------------------------------
@pytest.mark.parametrize("hands", ["1000", "300000"])
def test_jobs_note_agrees_with_summary(hands: str) -> None:
    from herzla.support.procs import default_jobs

    res = CliRunner().invoke(main, ["simulate", "herzla", "--hands", hands, "--seed", "1",
                                    "--jobs", "1000", "--no-progress"])
    assert res.exit_code == 0, res.output
    note = re.search(r"playing on (\d+)", res.stderr)
    summary = re.search(r"(\d+) process(?:es)?\)", res.stdout)
    assert note is not None and summary is not None
    assert note.group(1) == summary.group(1)
    assert 1 <= int(summary.group(1)) <= default_jobs()


def test_advise_plays_on_no_more_processes_than_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    import herzla.support.procs

    started: list[int] = []

    def local_map(fn: Any, items: Any, workers: int) -> Any:
        started.append(workers)
        return map(fn, items)

    monkeypatch.setattr(herzla.support.procs, "default_jobs", lambda: 2)
    monkeypatch.setattr(herzla.support.procs, "local_map", local_map)
    result = invoke("advise", "herzla", "--hand", " ".join(EIGHT), "--samples", "40", "--jobs",
                    "40", "--only", "beddl", "--json")
    assert result.exit_code == 0, result.output
    assert started == [1]  # two processes: this one and one worker
    assert result.stderr.strip() == ("herzla: note: --jobs 40 is more than the 2 cores this "
                                     "process may use; playing on 2")
    again = invoke("simulate", "herzla", "--hands", "100000", "--seed", "1", "--jobs", "40")
    assert again.stderr.strip() == result.stderr.strip()  # the same note, the same code


# -- SIGTERM to a run writing records ---------------------------------------------------------
def test_sigterm_leaves_no_partial_file(tmp_path: Path) -> None:
    out = tmp_path / "hands.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "herzla", "simulate", "herzla", "--hands",
                             "1e9", "--jobs", "1", "--seed", "1", "--sample", "2",
                             "--sample-out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 30
    while time.time() < deadline and not any(p.name.endswith(".tmp") for p in
                                             tmp_path.iterdir()):
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM
    assert err.decode().strip() == "herzla: stopped by SIGTERM"
    assert list(tmp_path.iterdir()) == []
