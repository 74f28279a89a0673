"""The store's contract (tests/store_contract.py) run against both of herzla's backends: the
SQLite file, and a PostgreSQL database (marked ``server``; skipped without a server)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from herzla.web.documents import DocumentStore
from herzla.web.sqlite_store import SqliteStore
from tests.postgres import fresh_schema
from tests.store_contract import *  # noqa: F403
from tests.store_contract import NewStore


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.server)])
def new_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[NewStore]:
    if request.param == "sqlite":
        yield lambda: SqliteStore(tmp_path / "contract.db")
        return
    from herzla.web.postgres_store import PostgresStore

    opened: list[PostgresStore] = []

    def new() -> DocumentStore:
        opened.append(PostgresStore(url, pool_size=4))
        return opened[-1]

    with fresh_schema() as url:
        yield new
        for store in opened:
            store.close()
