"""Hostile model files given as ``net[weights=FILE]``: one line and exit 2 before anything is
played, on every command that takes a policy, and a clear herzla error from the library; the
shipped model's hash checked on load."""

from __future__ import annotations

import io
import math
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

import herzla
from herzla.cli import main
from herzla.players import netmodel
from herzla.players.modelfile import ModelError, digest
from herzla.players.netmodel import SHIPPED_SHA256, WEIGHTS, load_model
from herzla.players.policy import PolicyError
from herzla.sim.match import MatchError

pytestmark = pytest.mark.usefixtures("builtin_registry")

SHIPPED = Path(netmodel.__file__).with_name(WEIGHTS)


def _arrays() -> dict[str, Any]:
    with np.load(SHIPPED) as data:
        return {k: data[k] for k in data.files}


def _with(**changes: Any) -> Callable[[Path], None]:
    def write(path: Path) -> None:
        arrays = _arrays()
        arrays.update(changes)
        arrays = {k: v for k, v in arrays.items() if v is not None}
        np.savez(path, **arrays)
    return write


def _huge(path: Path) -> None:
    """A 15 KB file whose w1 header claims 608 GiB."""
    with zipfile.ZipFile(path, "w") as z:
        for name, value in _arrays().items():
            b = io.BytesIO()
            if name == "w1":
                np.lib.format.write_array_header_1_0(
                    b, {"descr": "<f8", "fortran_order": False, "shape": (38, 1 << 31)})
                b.write(bytes(3000))
            else:
                np.save(b, value)
            z.writestr(f"{name}.npy", b.getvalue())


def _pickled(path: Path) -> None:
    arrays = _arrays()
    arrays["w1"] = np.array([object()], dtype=object)
    np.savez(path, **arrays)


W = _arrays()
HOSTILE: dict[str, tuple[Callable[[Path], object], str]] = {
    "shape": (_with(w1=W["w1"][:10]), "its array w1 has the shape (10, 16), not (38, 16)"),
    "hidden": (_with(b1=W["b1"][:3]), "its array b1 has the shape (3,), not (16,)"),
    "rank": (_with(w2=W["w2"][None, :]), "its array w2 has 2 dimensions, not 1"),
    "missing": (_with(w2=None), "it has no array w2"),
    "text": (_with(w1=W["w1"].astype(str)), "its array w1 holds <U32 values, not numbers"),
    "objects": (_pickled, "its array w1 holds object values, not numbers"),
    "nan": (_with(w2=np.where(np.arange(16) == 3, math.nan, W["w2"])),
            "its array w2 holds values that are not finite"),
    "inf": (_with(b1=np.full(16, math.inf)), "its array b1 holds values that are not finite"),
    "fraction": (_with(w1=W["w1"] + 0.5), "its array w1 holds numbers that are not whole"),
    "huge": (_huge, "its array w1 claims 608 GiB, more than a model holds"),
    "not a zip": (lambda p: p.write_bytes(b"PK\x03\x04 nothing"), "it is not a model file"),
    "empty": (lambda p: p.write_bytes(b""), "it is not a model file"),
}


@pytest.fixture(params=sorted(HOSTILE))
def hostile(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    write, says = HOSTILE[request.param]
    path = tmp_path / "model.npz"
    write(path)
    yield str(path), says
    load_model.cache_clear()


def _one_line(args: list[str], says: str) -> None:
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 2, out.output
    assert out.output.startswith("herzla: error:") and says in out.output, out.output
    assert len(out.output.strip().splitlines()) == 1 and "Traceback" not in out.output


def test_match_refuses_a_hostile_model(hostile: tuple[str, str]) -> None:
    path, says = hostile
    _one_line(["match", "herzla", "--contract", "normal", "--policies",
               f"net[weights={path}],random", "--deals", "3", "--seed", "1", "--jobs", "1"], says)


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_simulate_refuses_a_hostile_model(hostile: tuple[str, str], engine: str) -> None:
    path, says = hostile
    _one_line(["simulate", "herzla", "--contract", "normal", "--policy",
               f"net[weights={path}]", "--hands", "8", "--seed", "1", "--engine", engine,
               "--jobs", "1"], says)


def test_advise_refuses_a_hostile_model(hostile: tuple[str, str]) -> None:
    path, says = hostile
    _one_line(["advise", "herzla", "--hand", "CT C7 SJ S8 H9 H7 D9 D7", "--samples", "2",
               "--model", f"net[weights={path}]", "--jobs", "1"], says)


def test_the_library_raises_a_herzla_error(hostile: tuple[str, str]) -> None:
    path, says = hostile
    with pytest.raises((MatchError, PolicyError), match="cannot read the model") as err:
        herzla.match("herzla", [f"net[weights={path}]", "random"], "normal", deals=2, seed=1,
                     jobs=1)
    assert says in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(herzla.HerzlaError, match="cannot read the model"):
        herzla.advise("CT C7 SJ S8 H9 H7 D9 D7", samples=1, model=f"net[weights={path}]")
    with pytest.raises(ModelError):
        load_model(path)


def test_a_good_model_file_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "copy.npz"
    _with()(path)
    assert load_model(str(path)).w1.shape == (38, 16)


def test_the_shipped_model_is_checked_on_load(monkeypatch: pytest.MonkeyPatch) -> None:
    assert digest(SHIPPED.read_bytes()) == SHIPPED_SHA256
    load_model.cache_clear()
    monkeypatch.setattr(netmodel, "SHIPPED_SHA256", "0" * 64)
    try:
        with pytest.raises(ModelError, match=r"the model shipped in herzla .* is damaged"):
            load_model()
    finally:
        load_model.cache_clear()
