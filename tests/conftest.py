"""Shared fixtures: the worked cases, a click runner, and the table app's test client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner

from herzla import contracts as registry

if TYPE_CHECKING:
    from flask import Flask
    from flask.testing import FlaskClient

    from herzla.web.store import Store

CASES = Path(__file__).parent / "cases"


def load_cases() -> list[tuple[str, dict[str, Any]]]:
    return [(p.stem, json.loads(p.read_text(encoding="utf-8")))
            for p in sorted(CASES.glob("*.json"))]


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with no language in its environment (the command line reads it), so
    that a German desktop runs the English tests as CI does; tests of German ask for it."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def builtin_registry() -> Iterator[None]:
    """Only herzla's own contracts, as a user without plug-ins has them (restored afterwards)."""
    restore = registry.builtin_only()
    yield
    restore()

# The test plug-in is found through its entry point in the tests that ask for it, never by
# collection (which would put it on sys.path for the whole run).
collect_ignore = ["plugins"]


PLUGINS = Path(__file__).parent / "plugins"


@pytest.fixture
def plugin_path(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """tests/plugins on sys.path (the house policy and its entry point), caches cleared."""
    from herzla.players.registry import clear_caches

    monkeypatch.syspath_prepend(str(PLUGINS))
    clear_caches()
    yield
    clear_caches()


# -- the table app's test client (the web extra): a store on a fresh file, an app on it --------
@pytest.fixture
def store(tmp_path: Path) -> Store:
    from herzla.web.store import Store

    return Store(tmp_path / "herzla.db")


@pytest.fixture
def app(store: Store) -> Flask:
    from herzla.web.app import create_app

    return create_app(store)


@pytest.fixture
def client(app: Flask) -> Iterator[FlaskClient]:
    with app.test_client() as c:
        yield c
