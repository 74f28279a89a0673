"""Calls of the table app's JSON API through Flask's test client, and what the tests expect of
its answers: a status and a JSON body, or a 4xx whose body is one line of error."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask.testing import FlaskClient


def call(client: FlaskClient, method: str, path: str, body: Any = None, **headers: str) -> Any:
    """``method path`` with ``body`` as JSON (none when None) and ``headers``."""
    return client.open(path, method=method, headers=headers,
                       data=None if body is None else json.dumps(body),
                       content_type="application/json" if body is not None else None)


def ok(answer: Any, status: int = 200) -> Any:
    """The JSON body of an answer of ``status``."""
    assert answer.status_code == status, answer.get_data(as_text=True)
    return answer.get_json()


def error(answer: Any, status: int) -> str:
    """The one line of error of an answer of ``status``."""
    assert answer.status_code == status, answer.get_data(as_text=True)
    body = answer.get_json()
    assert set(body) == {"error"} and "\n" not in body["error"] and body["error"]
    return str(body["error"])
