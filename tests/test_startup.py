"""Start-up: what a process that solves loads, and the short way to the contract registry when no
plug-in is installed (:mod:`herzla.contracts.plugins`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from herzla import __version__
from herzla.contracts import BUILTIN_MODULES, GROUP
from herzla.contracts.plugins import only_builtin

PLUGINS = Path(__file__).parent / "plugins"


def _dist(folder: Path, name: str, text: str | None) -> None:
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    if text is not None:
        (info / "entry_points.txt").write_text(text)


def test_only_builtin_entry_points(tmp_path: Path) -> None:
    _dist(tmp_path, "herzla", "[console_scripts]\nherzla = herzla.cli:main\n\n"
          f"[{GROUP}]\n" + "".join(f"g{i} = {m}\n" for i, m in enumerate(BUILTIN_MODULES)))
    _dist(tmp_path, "other", "[console_scripts]\nother = other:main\n")
    _dist(tmp_path, "plain", None)
    (tmp_path / "old.egg-info").write_text("Name: old\n")  # metadata as a file: no entry points
    assert only_builtin(GROUP, BUILTIN_MODULES, paths=[str(tmp_path), str(tmp_path / "none")])


def test_a_plugin_is_left_to_importlib_metadata(tmp_path: Path) -> None:
    assert not only_builtin(GROUP, BUILTIN_MODULES, paths=[str(PLUGINS)])
    _dist(tmp_path, "plug", f"[{GROUP}]\nplug = plug.game:Plug [extra]\n")
    assert not only_builtin(GROUP, BUILTIN_MODULES, paths=[str(tmp_path)])


def test_what_is_not_read_plainly_is_left_to_importlib_metadata(tmp_path: Path) -> None:
    _dist(tmp_path / "a", "odd", f"[{GROUP}\nx = herzla.contracts.herzla\n")
    assert not only_builtin(GROUP, BUILTIN_MODULES, paths=[str(tmp_path / "a")])
    _dist(tmp_path / "b", "odd", f"[{GROUP}]\nno value here\n")
    assert not only_builtin(GROUP, BUILTIN_MODULES, paths=[str(tmp_path / "b")])
    archive = tmp_path / "dists.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("z-1.0.dist-info/entry_points.txt", f"[{GROUP}]\nz = z\n")
    assert not only_builtin(GROUP, BUILTIN_MODULES, paths=[str(archive)])
    egg = tmp_path / "thing.egg"
    egg.mkdir()
    assert not only_builtin(GROUP, BUILTIN_MODULES, paths=[str(egg)])


def _loaded(code: str, extra_path: str | None = None) -> dict[str, bool]:
    env = dict(os.environ)
    if extra_path is not None:
        env["PYTHONPATH"] = os.pathsep.join([extra_path, env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, "-c", code + "\nimport json, sys\nprint(json.dumps("
                          "{m: m in sys.modules for m in ('importlib.metadata', 'numpy.random', "
                          "'herzla_nojacks')}))"], capture_output=True, text=True, env=env,
                         check=True, timeout=120)
    got: dict[str, bool] = json.loads(out.stdout.splitlines()[-1])
    return got


def test_a_solve_without_plugins_loads_neither_metadata_nor_random_streams() -> None:
    code = ("import herzla\n"
            "rec = {'game': 'herzla', 'contract': 'mord', 'players': 4, 'dealer': 3,\n"
            "       'declarer': 0, 'stock': 0, 'options': {}, 'plays': [], 'hands': [\n"
            "  'CA CK CQ SA SK SQ HA HK'.split(), 'C7 C8 C9 S7 S8 S9 H7 H8'.split(),\n"
            "  'CJ CT SJ ST HJ HT H9 HQ'.split(), 'DA DK DQ DJ DT D9 D8 D7'.split()]}\n"
            "print(herzla.solve(rec).made)")
    assert _loaded(code) == {"importlib.metadata": False, "numpy.random": False,
                             "herzla_nojacks": False}


def test_with_a_plugin_installed_the_registry_still_finds_it() -> None:
    code = "import herzla\nprint(herzla.contract_class('herzla', 'normal').id)"
    got = _loaded(code, str(PLUGINS))
    assert got["importlib.metadata"] is True
    code = "import herzla\nprint([g for g in herzla.games()])"
    assert _loaded(code, str(PLUGINS))["herzla_nojacks"] is True


def _herzla_process(prelude: str, *args: str) -> subprocess.CompletedProcess[str]:
    """The herzla command line in a fresh process, after some code of its own."""
    code = (prelude + "\nimport sys\nsys.argv = ['herzla', " + ", ".join(map(repr, args))
            + "]\nfrom herzla.cli import main\nmain()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False, timeout=120)


def test_the_command_line_ends_with_its_code_after_the_exit_functions() -> None:
    """The exit functions run; the interpreter's tear-down of every object does not (it would
    print 'torn down')."""
    prelude = ("import atexit\n"
               "atexit.register(lambda: print('exit functions ran'))\n"
               "class Held:\n"
               "    def __del__(self) -> None:\n"
               "        print('torn down')\n"
               "held = Held()")
    done = _herzla_process(prelude, "--version")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [f"herzla, version {__version__}", "exit functions ran"]
    done = _herzla_process("", "solve", str(Path(__file__).parent / "no-such-file.json"))
    assert done.returncode == 2
    assert done.stderr.startswith("herzla: error: no such file")


def test_the_command_line_waits_for_another_thread() -> None:
    """With another thread running, the ordinary exit: it waits for the thread to end.  The
    thread prints only once the main thread has finished (not after a fixed wait, which a slow
    start-up on a loaded machine would outlast)."""
    prelude = ("import threading, time\n"
               "def late() -> None:\n"
               "    while threading.main_thread().is_alive():\n"
               "        time.sleep(0.01)\n"
               "    print('the thread ended', flush=True)\n"
               "threading.Thread(target=late).start()")
    done = _herzla_process(prelude, "--version")
    assert done.returncode == 0
    assert done.stdout.splitlines() == [f"herzla, version {__version__}", "the thread ended"]


def _modules_after(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport json, sys\n"
                          "print(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True, timeout=120)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_import_herzla_loads_no_numpy() -> None:
    """numpy is loaded where arrays are made (a contract's module, the simulator), so that
    ``import herzla`` costs less than numpy alone (benchmarks/bench_startup.py)."""
    loaded = _modules_after("import herzla\nprint(herzla.Card.from_str('HA'))")
    assert "numpy" not in loaded and "click" not in loaded
    assert not {m for m in loaded if m.startswith(("herzla.sim", "herzla.analysis"))}


def test_the_score_command_loads_no_evening_nor_round() -> None:
    code = ("from herzla.cli import main\n"
            "main(['score', 'herzla', 'normal', '--hearts', '0,3,5,0', '--stock', '80'],\n"
            "     standalone_mode=False)")
    loaded = _modules_after(code)
    assert "herzla.contracts.tallies" in loaded  # it did score
    assert not {m for m in loaded if m.startswith(("herzla.evening", "herzla.round",
                                                   "herzla.sheets", "herzla.sim",
                                                   "herzla.analysis"))}


def test_solving_beddl_and_mord_loads_only_the_made_lost_search(tmp_path: Path) -> None:
    """``herzla solve`` of Beddl and Mord deals on one process (the whole process
    benchmarks/bench_solve.py times) imports neither the general alpha-beta search nor the
    compiled path (nor numba), the layout search, nor the worker processes' machinery."""
    deals = tmp_path / "deals.jsonl"
    hands = [["CA", "CK", "CQ", "SA", "SK", "SQ", "HA", "HK"],
             ["C7", "C8", "C9", "S7", "S8", "S9", "H7", "H8"],
             ["CJ", "CT", "SJ", "ST", "HJ", "HT", "H9", "HQ"],
             ["DA", "DK", "DQ", "DJ", "DT", "D9", "D8", "D7"]]
    deals.write_text("".join(json.dumps({"game": "herzla", "contract": c, "players": 4,
                                         "dealer": 3, "declarer": d, "hands": hands}) + "\n"
                             for c, d in (("mord", 0), ("beddl", 1))), encoding="utf-8")
    code = ("import atexit, json, sys\n"
            "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
            f"sys.argv = ['herzla', 'solve', {str(deals)!r}, '--json', '--jobs', '1']\n"
            "from herzla.cli import main\nmain()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    assert [json.loads(line)["made"] for line in done.stdout.splitlines()] == [True, True]
    loaded = set(json.loads(done.stderr.splitlines()[-1]))
    assert "herzla.analysis.search.made_or_lost" in loaded  # it did search
    lazy = {"herzla.analysis.search.alphabeta", "herzla.analysis.search.compiled",
            "herzla.analysis.search.kernel", "herzla.analysis.search.layout", "numba",
            "multiprocessing"}
    assert not lazy & loaded


def test_the_command_line_starts_no_blas_threads() -> None:
    """The command line leaves numpy's OpenBLAS one thread (its pool costs start-up, and herzla
    never uses it), unless the user says otherwise."""
    code = "import os, herzla.cli\nprint(os.environ['OPENBLAS_NUM_THREADS'])"
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    for given, want in ((None, "1"), ("3", "3")):
        run_env = env if given is None else {**env, "OPENBLAS_NUM_THREADS": given}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=run_env, check=True, timeout=120)
        assert out.stdout.strip() == want
