"""The modules that moved since herzla 0.2 import by their old paths: the very same modules
(:mod:`herzla.moved`), never copies."""

from __future__ import annotations

import importlib
import sys

import pytest

import herzla.support
from herzla.moved import MOVED, now_of
from herzla.support import kept


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_gives_the_module_at_its_new_one(old: str) -> None:
    assert importlib.import_module(old) is importlib.import_module(MOVED[old])


def test_a_moved_package_s_modules_move_with_it() -> None:
    from herzla.support import cluster

    old = importlib.import_module("herzla.machinery.cluster")  # no file of its own: no stubs
    assert (old.ClusterError, old.cluster_map) == (cluster.ClusterError, cluster.cluster_map)
    assert now_of("herzla.machinery.procs") == "herzla.support.procs"
    assert now_of("herzla.machinery") == "herzla.support"
    assert now_of("herzla.machinery_x") is None and now_of("herzla.tallyho") is None
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("herzla.machinery.no_such_module")


def test_a_first_import_by_the_old_path_loads_one_module(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    # as in a fresh process: neither name loaded yet (both put back after the test)
    monkeypatch.setattr(herzla.support, "kept", kept)
    for name in ("herzla.support.kept", "herzla.machinery.kept", "herzla.machinery"):
        if name in sys.modules:
            monkeypatch.delitem(sys.modules, name)
    old = importlib.import_module("herzla.machinery.kept")
    assert sys.modules["herzla.support.kept"] is old is sys.modules["herzla.machinery.kept"]
    assert old.__spec__ is not None
    assert old.__name__ == old.__spec__.name == "herzla.support.kept"
    assert old.check_kept.__module__ == "herzla.support.kept" and old is not kept
