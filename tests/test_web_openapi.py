"""The OpenAPI description as exact as JSON Schema allows, through Flask's test client: each
game's new evening and table read from its declaration and taken by the app, null as a field
left out, the bounds of an evening's file and a hint's policy, and the methods a path answers
(``pytest -m web``).  schemathesis checks the whole description (tests/test_web_schemathesis.py);
these are what it found."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.contracts import game_options, games, get_game
from herzla.evening.model import VERSION
from herzla.players.registry import policy_names
from herzla.web.openapi import document
from tests.web_calls import call, error, ok

pytestmark = pytest.mark.web


def _schemas() -> dict[str, Any]:
    return document()["components"]["schemas"]  # type: ignore[no-any-return]


def _by_game(name: str) -> dict[str, dict[str, Any]]:
    return {one["properties"]["game"]["const"]: one for one in _schemas()[name]["oneOf"]}


def test_each_games_new_evening_is_its_own(client: FlaskClient) -> None:
    described = _by_game("NewEvening")
    assert list(described) == games()
    for game, schema in described.items():
        counts = get_game(game).player_counts()
        players = schema["properties"]["players"]
        assert (players["minItems"], players["maxItems"]) == (min(counts), max(counts))
        assert set(schema["properties"]["options"]["anyOf"][0]["properties"]) == {
            o.name for o in game_options(game)}
        for n in (min(counts), max(counts)):  # the fewest and the most players it allows
            ok(call(client, "POST", "/api/evenings",
                    {"game": game, "players": [f"P{i + 1}" for i in range(n)]}), 201)
        assert "players" in error(call(client, "POST", "/api/evenings", {
            "game": game, "players": [f"P{i + 1}" for i in range(max(counts) + 1)]}), 422)
    example = _schemas()["NewEvening"]["examples"][0]
    ok(call(client, "POST", "/api/evenings", example), 201)


def test_a_null_field_of_a_new_evening_or_table_is_left_out(client: FlaskClient) -> None:
    # schemathesis: `"dealer": null` was taken, the description refused it
    evening = {"game": "herzerln", "players": ["P1", "P2", "P3", "P4"]}
    kept = ok(call(client, "POST", "/api/evenings",
                   {**evening, "dealer": None, "stock": None, "options": None}), 201)
    assert kept["options"] == {}
    dealer = _by_game("NewEvening")["herzerln"]["properties"]["dealer"]
    assert {"type": "null"} in dealer["anyOf"]
    table = _by_game("NewTable")["herzla"]["properties"]
    for field in ("seat", "declarer", "opponents", "seed", "options", "people", "away"):
        assert {"type": "null"} in table[field]["anyOf"], field
    assert None in table["contract"]["enum"]
    ok(call(client, "POST", "/api/tables", {"game": "herzla", "seat": None, "seed": 1,
                                            "opponents": None, "contract": None}), 201)


def test_each_games_new_table_names_its_contracts_and_the_policies(
        client: FlaskClient) -> None:
    for game, schema in _by_game("NewTable").items():
        props = schema["properties"]
        contracts = [c for c in props["contract"]["enum"] if c is not None]
        assert props["opponents"]["anyOf"][0]["enum"] == list(policy_names())
        table = ok(call(client, "POST", "/api/tables", {
            "game": game, "contract": contracts[-1], "opponents": "random", "seed": 2}), 201)
        assert table["game"] == game
    ok(call(client, "POST", "/api/tables", _schemas()["NewTable"]["examples"][0]), 201)


def test_a_hints_policy_is_one_of_the_policies(client: FlaskClient) -> None:
    # schemathesis: `?policy=` (empty) was a 422 the description did not name
    assert _schemas()["Policy"]["enum"] == list(policy_names())
    hint = document()["paths"]["/api/tables/{id}/hint"]["get"]
    assert "422" in hint["responses"] and "429" in hint["responses"]
    table = ok(call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                    "opponents": "random", "seed": 3}), 201)
    assert "name a policy" in error(client.get(f"/api/tables/{table['id']}/hint?policy="), 422)


def test_an_evening_files_version_is_described_as_read(client: FlaskClient) -> None:
    # schemathesis: version 0 was a 422 the description called valid
    version = _schemas()["EveningFile"]["properties"]["version"]
    assert (version["minimum"], version["maximum"]) == (1, VERSION)
    file = {"format": "herzla-evening", "version": 0, "game": "herzla",
            "players": ["A", "B", "C", "D"]}
    assert "version" in error(call(client, "POST", "/api/evenings/import", file), 422)
    ok(call(client, "POST", "/api/evenings/import", {**file, "version": VERSION}), 201)


def test_the_import_path_answers_its_own_methods_alone(client: FlaskClient) -> None:
    # schemathesis: OPTIONS named GET and DELETE too (those of /api/evenings/{id})
    allowed = client.options("/api/evenings/import").headers["Allow"]
    assert {m.strip() for m in allowed.split(",")} == {"OPTIONS", "POST"}
    assert client.get("/api/evenings/import").status_code == 405
    assert client.delete("/api/evenings/import").status_code == 405
    made = ok(call(client, "POST", "/api/evenings", {"game": "herzla",
                                                    "players": ["A", "B", "C", "D"]}), 201)
    allowed = client.options(f"/api/evenings/{made['id']}").headers["Allow"]
    assert {"GET", "DELETE"} <= {m.strip() for m in allowed.split(",")}
