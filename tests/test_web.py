"""The table app through Flask's test client: the JSON API against the command line, the pages,
and the errors (``pytest -m web``; needs the web extra)."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")
pytest.importorskip("waitress")

from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from herzla.cli import main
from herzla.web.app import create_app
from herzla.web.auth import CSRF_COOKIE
from herzla.web.config import WebConfig
from herzla.web.openapi import document
from herzla.web.store import Kind, Store
from tests.conftest import load_cases
from tests.web_calls import error

pytestmark = pytest.mark.web

CASES = load_cases()
EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def post_json(client: FlaskClient, path: str, body: Any) -> Any:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(path, data=data, content_type="application/json")


def cli_json(*args: str, stdin: str | None = None) -> tuple[int, Any]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return result.exit_code, json.loads(result.stdout) if result.stdout else None


# -- POST /api/replay: what `herzla replay --json` answers ------------------------------------

@pytest.mark.parametrize(("name", "case"), CASES, ids=[n for n, _ in CASES])
def test_replay_answers_what_the_command_line_answers(client: FlaskClient, name: str,
                                                      case: dict[str, Any]) -> None:
    record = case["record"]
    text = record if isinstance(record, str) else json.dumps(record)
    code, expected = cli_json("replay", "-", "--json", stdin=text)
    response = post_json(client, "/api/replay", text)
    if case["expect"].get("malformed"):
        assert code == 2
        error(response, 422)
        return
    assert response.status_code == 200  # an illegal play too: exit 1 there, `illegal` here
    assert response.get_json() == expected
    assert (expected["illegal"] is not None) == (code == 1)


def test_replay_of_a_list_is_the_score_sheet(client: FlaskClient) -> None:
    text = (EXAMPLES / "herzla-session.json").read_text(encoding="utf-8")
    code, expected = cli_json("replay", "-", "--json", stdin=text)
    assert code == 0
    response = post_json(client, "/api/replay", text)
    assert response.status_code == 200 and response.get_json() == expected
    assert "totals" in expected


def test_replay_refuses_what_it_cannot_read(client: FlaskClient, app: Flask) -> None:
    assert "not valid JSON" in error(post_json(client, "/api/replay", "{"), 422)
    assert "appears twice" in error(
        post_json(client, "/api/replay", '{"game": "herzla", "game": "herzla"}'), 422)
    assert "nested too deeply" in error(
        post_json(client, "/api/replay", "[" * 100_000 + "]" * 100_000), 422)
    assert "too many digits" in error(
        post_json(client, "/api/replay", '{"stock": ' + "9" * 5000 + "}"), 422)
    assert "not UTF-8" in error(post_json(client, "/api/replay", b'{"game": "\xff"}'), 422)
    assert "empty" in error(post_json(client, "/api/replay", b""), 422)
    assert "Content-Type: application/json" in error(
        client.post("/api/replay", data="{}", content_type="text/plain"), 415)
    assert "not valid JSON" not in error(post_json(client, "/api/replay", "[]"), 422)
    many = [json.loads((EXAMPLES / "herzla-two-void.json").read_text())] * 201
    assert "at most 200" in error(post_json(client, "/api/replay", many), 413)


def test_a_body_over_the_limit_is_413(client: FlaskClient) -> None:
    big = '{"pad": "' + "x" * (2 * 2**20) + '"}'
    assert "larger than 2048 KiB" in error(post_json(client, "/api/replay", big), 413)
    page = client.post("/desk", data={"mode": "record", "record": "x" * (2 * 2**20 + 10)})
    assert page.status_code == 413 and "larger than" in page.get_data(as_text=True)


# -- POST /api/score: what `herzla score --json` answers --------------------------------------

@pytest.mark.parametrize(("body", "args"), [
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0], "stock": 80},
     ["herzla", "normal", "--hearts", "0,3,5,0", "--stock", "80"]),
    ({"game": "herzla", "contract": "mord", "declarer": 1, "made": False},
     ["herzla", "mord", "--declarer", "1", "--lost"]),
    ({"game": "herzeln", "contract": "no-hearts", "captured": ["HA H7", ["HT"], "HK HQ HJ",
                                                               ["H9", "H8"]]},
     ["herzeln", "no-hearts", "--captured", "HA H7", "--captured", "HT", "--captured",
      "HK HQ HJ", "--captured", "H9 H8"]),
    ({"game": "herzerln", "contract": "auflegen", "players": 3, "order": [1, 0, 2]},
     ["herzerln", "auflegen", "-p", "3", "--order", "1,0,2"]),
    ({"game": "herzeln", "contract": "last-trick", "tricks": [2, 2, 3, 1], "last_trick": 3},
     ["herzeln", "last-trick", "--tricks", "2,2,3,1", "--last-trick", "3"]),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0], "stock": 50,
      "options": {"stock_payout": "never", "heart_unit": 20}},
     ["herzla", "normal", "--hearts", "0,3,5,0", "--stock", "50", "-o", "stock_payout=never",
      "-o", "heart_unit=20"]),
])
def test_score_answers_what_the_command_line_answers(client: FlaskClient, body: dict[str, Any],
                                                     args: list[str]) -> None:
    code, expected = cli_json("score", *args, "--json")
    assert code == 0
    response = post_json(client, "/api/score", body)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json() == expected


@pytest.mark.parametrize(("body", "message"), [
    ({"game": "herzla", "contract": "normal"}, 'give "hearts" or "captured"'),
    ({"game": "herzeln", "contract": "last-trick", "tricks": [2, 2, 3, 1]}, '"last_trick"'),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 1]}, "add up to 9"),
    ({"game": "herzla", "contract": "normal", "hearts": "0,3,5,0"}, "give a list of whole"),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, True, 5]}, "whole number"),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5.0, 0]}, "whole number"),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0], "stock": -1},
     "stock"),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0], "made": "yes"},
     "true or false"),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0], "declarer": 1},
     "has no declarer"),
    ({"game": "herzla", "contract": "beddl", "made": True}, "needs a declarer"),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0], "options": ["x"]},
     "option"),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0],
      "options": {"colour": 1}}, "colour"),
    ({"game": "herzla", "contract": "normal", "captured": ["HX", "-", "-", "-"]},
     '"HX" is not a card code'),
    ({"game": "herzla", "contract": "normal", "captured": [[1], "-", "-", "-"]},
     "is not a card code"),
    ({"game": "herzla", "contract": "normal", "players": 40, "hearts": [0]}, "40"),
    ({"game": "herzl", "contract": "normal"}, 'unknown game "herzl"'),
    ({"game": "herzla", "contract": "nromal"}, "normal"),
    ({"game": "herzla"}, "give the contract"),
    ({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0], "colour": "red"},
     'unknown field "colour"'),
    ([1, 2], "is a JSON object of the tallies"),
])
def test_score_refuses_tallies_that_do_not_add_up(client: FlaskClient, body: Any,
                                                  message: str) -> None:
    assert message in error(post_json(client, "/api/score", body), 422)


# -- the OpenAPI description and the errors ---------------------------------------------------

def test_openapi_describes_exactly_the_apps_calls(client: FlaskClient, app: Flask) -> None:
    described = client.get("/api/openapi.json").get_json()
    assert described == document() and described["openapi"].startswith("3.")

    def templated(rule: str) -> str:  # Flask's /api/evenings/<doc_id>/deals/<int:k>, as
        # OpenAPI writes it: /api/evenings/{id}/deals/{k}
        return re.sub(r"<(?:\w+:)?(\w+)>",
                      lambda m: "{" + {"doc_id": "id"}.get(m.group(1), m.group(1)) + "}", rule)

    calls = {(templated(rule.rule), method.lower()) for rule in app.url_map.iter_rules()
             if rule.rule.startswith("/api/")
             for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}}
    paths = {(path, method) for path, ops in described["paths"].items() for method in ops
             if method != "parameters"}
    assert calls == paths
    for path, ops in described["paths"].items():  # every {name} of a path is a parameter
        for method, op in ops.items():
            named = {p["name"] for p in op.get("parameters", []) if p["in"] == "path"}
            assert named == set(re.findall(r"{(\w+)}", path)), (path, method)
    # the calls that make an evening or a table link to every call taking its id
    for maker, prefix in (("/api/evenings", "/api/evenings/{id}"),
                          ("/api/tables", "/api/tables/{id}")):
        links = described["paths"][maker]["post"]["responses"]["201"]["links"]
        taking = {(p, m) for p, m in paths if p == prefix or p.startswith(prefix + "/")}
        pointed = set()
        for link in links.values():
            assert link["parameters"] == {"id": "$response.body#/id"}
            pointer, _, method = link["operationRef"].removeprefix("#/paths/").rpartition("/")
            pointed.add((pointer.replace("~1", "/").replace("~0", "~"), method))
        assert pointed == taking and len(taking) >= 5


def test_unknown_addresses_and_methods(client: FlaskClient) -> None:
    assert "/api/nothing" in error(client.get("/api/nothing"), 404)
    assert "does not take GET" in error(client.get("/api/replay"), 405)
    page = client.get("/nothing/<b>")
    assert page.status_code == 404
    assert "<b>" not in page.get_data(as_text=True)
    assert "&lt;b&gt;" in page.get_data(as_text=True)


def test_a_500_shows_an_id_and_logs_the_traceback(store: Store,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    app = create_app(store)

    def broken() -> str:
        raise RuntimeError("secret internals: /home/anna/herzla.db")

    app.add_url_rule("/api/broken", "broken", broken)
    app.add_url_rule("/broken", "broken_page", broken)
    client = app.test_client()
    with caplog.at_level(logging.ERROR, logger="herzla.web"):
        message = error(client.get("/api/broken"), 500)
        page = client.get("/broken")
    ident = re.search(r"error ([0-9a-f]{8})", message)
    assert ident is not None
    assert "secret" not in message and "Traceback" not in message
    text = page.get_data(as_text=True)
    assert page.status_code == 500 and "secret" not in text and "Traceback" not in text
    logged = [r for r in caplog.records if ident.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info is not None


def test_a_stale_write_is_409(store: Store) -> None:
    """What a route that writes a document answers for a stale revision (the evening and table
    calls write through the store)."""
    from flask import request

    app = create_app(store)
    doc = store.create(Kind.EVENING, {"deals": []})

    def write() -> dict[str, Any]:
        rev = int(request.args["revision"])
        return store.update(Kind.EVENING, doc.id, {"deals": [rev]}, rev).to_dict()

    def missing() -> dict[str, Any]:
        return store.get(Kind.EVENING, "nosuchid").to_dict()

    app.add_url_rule("/api/write", "write", write, methods=["POST"])
    app.add_url_rule("/api/missing", "missing", missing)
    client = app.test_client()
    first = client.post("/api/write?revision=1", json={})
    assert first.status_code == 200 and first.get_json()["revision"] == 2
    assert "changed meanwhile" in error(client.post("/api/write?revision=1", json={}), 409)
    assert store.get(Kind.EVENING, doc.id).body == {"deals": [1]}
    assert "no evening has the id" in error(client.get("/api/missing"), 404)


# -- the pages ---------------------------------------------------------------------------------

def csrf_of(client: FlaskClient, path: str = "/desk") -> str:
    page = client.get(path)
    assert page.status_code == 200
    found = re.search(r'name="csrf" value="([^"]+)"', page.get_data(as_text=True))
    assert found is not None
    return found.group(1)


def test_the_start_page_lists_evenings_with_their_names_escaped(client: FlaskClient,
                                                                store: Store) -> None:
    empty = client.get("/").get_data(as_text=True)
    assert "No evening is kept here yet" in empty and 'href="/desk"' in empty
    store.create(Kind.EVENING, {"game": "herzla",
                                "players": ["<script>alert(1)</script>", "Berni & Co",
                                            '"><img src=x onerror=alert(1)>', "Done"],
                                "deals": [{}, {}]})
    page = client.get("/").get_data(as_text=True)
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "Berni &amp; Co" in page
    assert ", 2 deals)" in page  # (the date, 2 deals)


def test_every_page_and_its_styles(client: FlaskClient) -> None:
    for path in ("/", "/desk", "/desk?mode=record"):
        page = client.get(path)
        assert page.status_code == 200 and page.mimetype == "text/html"
        text = page.get_data(as_text=True)
        assert 'name="viewport"' in text and "http://" not in text and "https://" not in text
        assert text.count("<script") == 1  # the app's own live.js alone
    for path in ("/static/app.css", "/drawing.css"):
        style = client.get(path)
        assert style.status_code == 200 and style.mimetype == "text/css"
        assert "http" not in style.get_data(as_text=True)


def test_the_desk_rules_on_a_tally(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    page = client.post("/desk", data={"csrf": csrf, "mode": "tally",
                                      "contract": "herzla/normal", "hearts-0": "0",
                                      "hearts-1": "3", "hearts-2": "5", "hearts-3": "0",
                                      "stock": "80"})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'id="ruling"' in text and "+80" in text and "\u221230" in text
    assert "Stock after the hand: <strong>0c</strong>" in text
    assert "<code>herzla/two-void</code>" in text and "<code>herzla/stock-payout</code>" in text
    assert "The rules cited" in text
    # the form comes back filled in, the hearts tapped as they were
    assert 'name="hearts-2" value="5" checked' in text


@pytest.mark.parametrize(("contract", "asked", "not_asked"), [
    ("herzla/normal", ['name="hearts-3"', 'name="stock"'], ['name="declarer"',
                                                            'name="order-0"', 'name="result"']),
    ("herzla/beddl", ['name="declarer"', 'name="result"', "Made or lost"], ['name="order-0"',
                                                                            'name="hearts-0"']),
    ("herzeln/domino", ['name="order-0"', 'name="players"'], ['name="stock"',
                                                               'name="hearts-0"',
                                                               'name="declarer"',
                                                               'name="captured-0"']),
    ("herzeln/last-trick", ['name="last_trick"'], ['name="stock"', 'name="declarer"',
                                                   'name="order"']),
])
def test_the_tally_form_asks_for_the_chosen_contracts_fields(
        client: FlaskClient, contract: str, asked: list[str], not_asked: list[str]) -> None:
    text = client.get(f"/desk?contract={contract}").get_data(as_text=True)
    form = text[text.index('id="tally-form"'):text.index("</form>", text.index(
        'id="tally-form"'))]
    assert f'name="contract" value="{contract}"' in form
    assert f'<option value="{contract}" selected>' in text  # the choice, shown as made
    assert "data-autosubmit" in text  # changed, the choice shows its tally at once
    for part in asked:
        assert part in form, part
    for part in not_asked:
        assert part not in form, part


def test_the_desk_names_what_a_tally_lacks(client: FlaskClient) -> None:
    csrf = csrf_of(client)
    page = client.post("/desk", data={"csrf": csrf, "mode": "tally",
                                      "contract": "herzla/beddl", "declarer": "3",
                                      "options": "<b>=1"})
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    assert 'id="error"' in text and "<b>" not in text
    page = client.post("/desk", data={"csrf": csrf, "mode": "tally",
                                      "contract": "herzla/beddl", "declarer": "3"})
    assert "made or lost" in page.get_data(as_text=True) and page.status_code == 422


def test_the_desk_rules_on_a_record_with_its_drawing_and_review(client: FlaskClient) -> None:
    csrf = csrf_of(client, "/desk?mode=record")
    record = (EXAMPLES / "herzla-two-void.json").read_text(encoding="utf-8")
    page = client.post("/desk", data={"csrf": csrf, "mode": "record", "record": record,
                                      "review": "on"})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'id="ruling"' in text and "+40" in text and "-50" in text
    assert "<svg" in text and "Trick by trick" in text
    assert "Review: what each mistake cost" in text
    assert "<code>herzla/two-void</code>" in text
    plain = client.post("/desk", data={"csrf": csrf, "mode": "record", "record": record})
    assert "Review: what each mistake cost" not in plain.get_data(as_text=True)


def test_the_desk_shows_an_illegal_play_and_a_malformed_record(client: FlaskClient) -> None:
    csrf = csrf_of(client, "/desk?mode=record")
    record = (EXAMPLES / "herzla-heart-lead-ban.json").read_text(encoding="utf-8")
    page = client.post("/desk", data={"csrf": csrf, "mode": "record", "record": record,
                                      "review": "on"})
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and "is illegal" in text and "rule herzla/" in text
    bad = client.post("/desk", data={"csrf": csrf, "mode": "record",
                                     "record": '{"game": "<i>x</i>", "contract": "normal"}'})
    text = bad.get_data(as_text=True)
    assert bad.status_code == 422 and 'id="error"' in text and "<i>x</i>" not in text
    empty = client.post("/desk", data={"csrf": csrf, "mode": "record", "record": " "})
    assert empty.status_code == 422 and "paste a hand record" in empty.get_data(as_text=True)


def test_a_form_without_its_csrf_value_is_refused(client: FlaskClient) -> None:
    data = {"mode": "tally", "contract": "herzla/normal", "hearts": "0,3,5,0"}
    assert client.post("/desk", data=data).status_code == 403
    csrf_of(client)
    assert client.post("/desk", data={**data, "csrf": "forged"}).status_code == 403
    cookie = client.get_cookie(CSRF_COOKIE)
    assert cookie is not None and cookie.http_only and cookie.same_site == "Strict"
    assert client.post("/desk", data={**data, "csrf": cookie.value}).status_code == 200


def test_the_web_config_defaults() -> None:
    config = WebConfig()
    assert (config.token, config.loopback) == (None, True)


def test_a_plugin_game_that_cannot_list_its_contracts_leaves_the_pages_up(
        client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A plug-in's game whose contracts cannot be listed is left out of the start page's table
    form and of the desk's, and neither page fails."""
    from herzla import contracts as registry
    from herzla.contracts import Game, contract_classes

    def refuses() -> tuple[type[Any], ...]:
        raise ValueError("no contracts today")

    broken = Game.of("broken", contract_classes("herzla-kids"))
    monkeypatch.setattr(broken, "contract_classes", refuses)
    monkeypatch.setattr(registry, "_registry", {**registry._load(), "broken": broken})
    for path in ("/", "/desk"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert "broken/" not in answer.get_data(as_text=True) and "broken:" not in \
            answer.get_data(as_text=True)
