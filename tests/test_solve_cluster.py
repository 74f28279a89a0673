"""``herzla.solve_many``, ``herzla solve`` and ``herzla review`` on a dask scheduler and workers
started here, on 127.0.0.1 (as in test_sim_cluster.py): the answers of one local process."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path

import pytest
from click.testing import CliRunner

from herzla.analysis.review import review
from herzla.analysis.solve import IllegalPlayError
from herzla.analysis.solve_many import solve_each, solve_many
from herzla.cli import main
from tests.test_sim_cluster import two_workers

# skipped without the dask extra, which is looked up, not imported (as in test_sim_cluster.py)
pytestmark = [pytest.mark.cluster, pytest.mark.usefixtures("builtin_registry"),
              pytest.mark.skipif(find_spec("distributed") is None, reason="needs the dask extra")]

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
TWO_VOID = json.loads((EXAMPLES / "herzla-two-void.json").read_text())


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a scheduler with two workers of one thread each."""
    with two_workers(tmp_path_factory.mktemp("solve-cluster")) as address:
        yield address


def test_solve_many_on_a_cluster(cluster: str) -> None:
    objs = [dict(TWO_VOID, plays=TWO_VOID["plays"][:k]) for k in range(16, 33, 3)]
    local = [r.to_dict() for r in solve_many(objs, seat=3, plays=True, jobs=1)]
    remote = [r.to_dict() for r in solve_many(objs, seat=3, plays=True, cluster=cluster)]
    for d in (*local, *remote):
        del d["elapsed_s"]
    assert remote == local
    illegal = json.loads((EXAMPLES / "herzerln-heart-free.json").read_text())
    got = list(solve_each([illegal, objs[0]], seat=0, cluster=cluster))
    assert isinstance(got[0], IllegalPlayError) and got[0].illegal.index == 0


def test_review_and_the_commands_on_a_cluster(cluster: str) -> None:
    a = review(TWO_VOID, start=16).to_dict()
    b = review(TWO_VOID, start=16, cluster=cluster).to_dict()
    del a["elapsed_s"], b["elapsed_s"]
    assert a == b
    path = str(EXAMPLES / "herzla-two-void-trick6.json")
    res = CliRunner().invoke(main, ["solve", path, "--seat", "2", "--cluster", cluster])
    assert res.exit_code == 0, res.output
    assert "trick 8: seat 1 CK, seat 2 HQ" in res.output
    res = CliRunner().invoke(main, ["review", str(EXAMPLES / "herzla-two-void.json"),
                                    "--seat", "2", "--json", "--cluster", cluster])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["seats"]["2"]["loss"] == 20
