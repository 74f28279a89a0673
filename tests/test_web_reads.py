"""What a table's requests cost (``pytest -m web``): a play replays the hand once, and the pages
and answers of one revision read the table and replay its hand once a process, however many
phones ask; a page that asks whether the person may take back their card leaves the table's
position as it was (the position is shared by the requests of its revision)."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.table import Table
from herzla.table.position import Position
from tests.web_calls import call, ok

pytestmark = pytest.mark.web


def test_a_play_replays_once_and_the_pages_of_its_revision_once(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = ok(call(client, "POST", "/api/tables", {
        "game": "herzla", "contract": "normal", "people": [0, 1, 2, 3], "seed": 7}), 201)
    tid = made["id"]
    keys = {s["seat"]: s["key"] for s in made["seats"]}
    built: list[Table] = []
    read: list[object] = []
    real_init = Position.__init__
    real_read = Table.from_json

    def counted_init(self: Any, table: Table) -> None:
        built.append(table)
        real_init(self, table)

    def counted_read(body: Any) -> Table:
        read.append(body)
        return real_read(body)

    monkeypatch.setattr(Position, "__init__", counted_init)
    monkeypatch.setattr(Table, "from_json", staticmethod(counted_read))
    for _ in range(6):  # six cards, each by the seat to move, each seen by all four
        table = ok(client.get(f"/api/tables/{tid}?key={keys[0]}"))
        seat = table["to_move"]
        legal = ok(client.get(f"/api/tables/{tid}?key={keys[seat]}"))["legal"]
        built.clear()
        read.clear()
        played = ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[seat]}",
                         {"card": legal[0]}))
        assert len(built) <= 1 and len(read) <= 1  # the play: one read, one replay
        for s in range(4):
            page = client.get(f"/tables/{tid}?key={keys[s]}")
            assert page.status_code == 200
            assert ok(client.get(f"/api/tables/{tid}?key={keys[s]}"))["moves"] == played["moves"]
            assert ok(client.get(f"/api/tables/{tid}/revision?key={keys[s]}"))[
                "revision"] == played["revision"]
        assert len(built) <= 1 and len(read) <= 1  # and its twelve reads: nothing again


def test_a_page_asking_whether_its_card_may_be_taken_back_leaves_the_position(
        client: FlaskClient) -> None:
    made = ok(call(client, "POST", "/api/tables", {
        "game": "herzla", "contract": "normal", "people": [0, 1, 2, 3], "seed": 7}), 201)
    tid = made["id"]
    keys = {s["seat"]: s["key"] for s in made["seats"]}
    seat = ok(client.get(f"/api/tables/{tid}?key={keys[0]}"))["to_move"]
    legal = ok(client.get(f"/api/tables/{tid}?key={keys[seat]}"))["legal"]
    played = ok(call(client, "POST", f"/api/tables/{tid}/play?key={keys[seat]}",
                     {"card": legal[0]}))
    for _ in range(3):  # the player's page offers the take-back (it undoes a copy)
        assert "undo" in client.get(f"/tables/{tid}?key={keys[seat]}").get_data(as_text=True)
        again = ok(client.get(f"/api/tables/{tid}?key={keys[seat]}"))
        assert again["moves"] == played["moves"] and again["legal"] == played["legal"]
