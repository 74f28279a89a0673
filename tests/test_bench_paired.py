"""The paired benchmark's state (benchmarks/bench_paired.py --state): values kept for one seed
are never read as another's."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def paired() -> ModuleType:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location("bench_paired",
                                                      ROOT / "benchmarks" / "bench_paired.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return module


def test_a_state_of_another_seed_is_refused(paired: ModuleType, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    state = tmp_path / "state.json"
    paired.write_state(state, 1010, {"expert": [1.0, 2.0]})
    played: list[object] = []

    def local_map(*args: object, **kwargs: object) -> list[object]:
        played.append(args)
        return []

    monkeypatch.setattr(paired, "local_map", local_map)
    with pytest.raises(SystemExit) as out:
        paired.main(["expert", "--seed", "1011", "--deals", "2", "--state", str(state),
                     "--jobs", "1"])
    assert out.value.code == 2 and not played
    err = capsys.readouterr().err
    assert "holds the values of seed 1010, not 1011" in err and err.count("\n") == 1
    # the same seed reads its values and plays nothing more
    paired.main(["expert", "--seed", "1010", "--deals", "2", "--state", str(state), "--jobs", "1"])
    assert not played and "+1.50" in capsys.readouterr().out


def test_a_state_written_before_states_named_their_seed_is_refused(
        paired: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = tmp_path / "old.json"
    state.write_text(json.dumps({"expert": [1.0, 2.0]}))
    with pytest.raises(SystemExit) as out:
        paired.read_state(state, 1010)
    assert out.value.code == 2 and "names no seed" in capsys.readouterr().err
    assert paired.read_state(tmp_path / "none.json", 1010) == {}
