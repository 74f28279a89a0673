"""A PostgreSQL database for the tests marked ``server``: the server named by
``HERZLA_TEST_POSTGRES`` (default: the role and database ``.ci/run`` makes on 127.0.0.1), one
fresh schema for each test, dropped after it; skipped when psycopg is missing or no server
answers."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote

import pytest

__all__ = ["DEFAULT", "fresh_schema", "server_url"]

#: the database ``.ci/run`` makes (role herzla, password herzla)
DEFAULT = "postgresql://herzla:herzla@127.0.0.1:5432/herzla_test"


def server_url() -> str:
    """The test server's URL, or a skip saying why there is none."""
    psycopg = pytest.importorskip("psycopg", reason="the server extra (psycopg) is missing")
    url = os.environ.get("HERZLA_TEST_POSTGRES", DEFAULT)
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except psycopg.Error as exc:
        pytest.skip(f"no PostgreSQL server answers at HERZLA_TEST_POSTGRES: {exc}")
    return url


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A URL whose connections work in a new, empty schema (dropped afterwards)."""
    import psycopg

    url = server_url()
    schema = "t_" + secrets.token_hex(6)
    with psycopg.connect(url, autocommit=True) as con:
        con.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        with psycopg.connect(url, autocommit=True) as con:
            con.execute(f"DROP SCHEMA {schema} CASCADE")
