"""The store's contract (tests/store_contract.py) run against herzla's backend, the SQLite file:
a second backend runs the same tests by giving its own ``new_store``."""

from __future__ import annotations

from pathlib import Path

import pytest

from herzla.web.sqlite_store import SqliteStore
from tests.store_contract import *  # noqa: F403
from tests.store_contract import NewStore


@pytest.fixture
def new_store(tmp_path: Path) -> NewStore:
    return lambda: SqliteStore(tmp_path / "contract.db")
