"""Who may ask the table app: the token, the Host check, cross-site requests and the headers
(``pytest -m web``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("flask")

from flask import Flask

from herzla.web.app import create_app
from herzla.web.auth import TOKEN_COOKIE
from herzla.web.config import WebConfig, is_loopback
from herzla.web.store import Kind, Store

pytestmark = pytest.mark.web

TOKEN = "s3cret-table-token"
RECORD = (Path(__file__).resolve().parents[1] / "docs" / "examples" /
          "herzla-two-void.json").read_text(encoding="utf-8")
SECRET_NAME = "Anna-Secretname"


@pytest.fixture
def guarded(tmp_path: Path) -> Flask:
    store = Store(tmp_path / "herzla.db")
    store.create(Kind.EVENING, {"game": "herzla", "players": [SECRET_NAME, "B", "C", "D"]})
    return create_app(store, WebConfig(token=TOKEN, loopback=False))


@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/"), ("GET", "/desk"), ("GET", "/desk?mode=record"), ("POST", "/desk"),
    ("POST", "/api/replay"), ("GET", "/api/evenings/x/revision"),
    ("POST", "/api/score"), ("GET", "/api/openapi.json"), ("GET", "/nothing"),
])
def test_without_the_token_nothing_is_shown(guarded: Flask, method: str, path: str) -> None:
    client = guarded.test_client()
    for headers in ({}, {"Authorization": "Bearer wrong-token"},
                    {"Authorization": f"Basic {TOKEN}"}, {"Cookie": f"{TOKEN_COOKIE}=wrong"}):
        answer = client.open(path, method=method, headers=headers, data=RECORD,
                             content_type="application/json")
        assert answer.status_code == 401
        text = answer.get_data(as_text=True)
        assert SECRET_NAME not in text and "seat" not in text and "<form" not in text
        assert "token" in text
        if path.startswith("/api/"):
            assert set(answer.get_json()) == {"error"}
    wrong = client.open(path + ("&" if "?" in path else "?") + "token=nope", method=method)
    assert wrong.status_code == 401


def test_the_page_asking_for_the_token_is_styled_and_says_how_to_join(guarded: Flask) -> None:
    client = guarded.test_client()
    answer = client.get("/")
    assert answer.status_code == 401 and answer.mimetype == "text/html"
    text = answer.get_data(as_text=True)
    assert "Join the table" in text and "QR code" in text and "?token=" in text
    assert 'href="/static/app.css"' in text
    # what styles it is served without the token: the style sheets, the script and the icon,
    # which hold nothing of the evenings
    for path in ("/static/app.css", "/drawing.css", "/static/live.js", "/favicon.ico",
                 "/static/favicon.svg"):
        public = client.get(path)
        assert public.status_code == 200, path
        assert SECRET_NAME not in public.get_data(as_text=True)
    assert client.post("/static/app.css").status_code in (401, 405)
    assert client.get("/api/evenings").status_code == 401


def test_the_bearer_header_opens_the_api(guarded: Flask) -> None:
    client = guarded.test_client()
    answer = client.post("/api/replay", data=RECORD, content_type="application/json",
                         headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200 and answer.get_json()["scores"] == [40, -30, -50, 40]
    assert client.get("/", headers={"Authorization": f"bearer {TOKEN}"}).status_code == 200


def test_the_token_in_the_url_becomes_a_cookie(guarded: Flask) -> None:
    client = guarded.test_client()
    first = client.get(f"/desk?mode=record&token={TOKEN}")
    assert first.status_code == 303
    assert first.headers["Location"] == "/desk?mode=record"  # the token leaves the address
    cookie = client.get_cookie(TOKEN_COOKIE)
    assert cookie is not None and cookie.value == TOKEN
    assert cookie.http_only and cookie.same_site == "Strict"
    page = client.get("/")
    assert page.status_code == 200 and SECRET_NAME in page.get_data(as_text=True)
    # the API takes it once in the URL too, answering at once
    other = guarded.test_client()
    answer = other.get(f"/api/openapi.json?token={TOKEN}")
    assert answer.status_code == 200 and other.get_cookie(TOKEN_COOKIE) is not None


def test_a_loopback_server_answers_only_to_loopback_names(tmp_path: Path) -> None:
    client = create_app(Store(tmp_path / "h.db")).test_client()
    for host in ("localhost", "127.0.0.1:8000", "[::1]:8000", "localhost:1234", "127.1.2.3"):
        assert client.get("/", headers={"Host": host}).status_code == 200, host
    for host in ("evil.example", "evil.example:8000", "192.168.1.20:8000", "[2001:db8::1]"):
        answer = client.get("/", headers={"Host": host})
        assert answer.status_code == 403, host
        assert "loopback" in answer.get_data(as_text=True)


def test_cross_site_requests_are_refused(tmp_path: Path) -> None:
    client = create_app(Store(tmp_path / "h.db")).test_client()
    body = json.dumps({"game": "herzla", "contract": "normal", "hearts": [0, 3, 5, 0]})
    ok = client.post("/api/score", data=body, content_type="application/json",
                     headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"})
    assert ok.status_code == 200
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
                    {"Origin": "http://localhost:9999"}):
        answer = client.post("/api/score", data=body, content_type="application/json",
                             headers=headers)
        assert answer.status_code == 403, headers
        assert "another site" in answer.get_json()["error"]
    # a form from another site's page cannot send JSON: refused as not JSON
    assert client.post("/api/score", data=body, content_type="text/plain").status_code == 415
    assert client.post("/api/score", data={"game": "herzla"}).status_code == 415


def test_every_answer_carries_the_guarding_headers(tmp_path: Path) -> None:
    client = create_app(Store(tmp_path / "h.db")).test_client()
    for answer in (client.get("/"), client.get("/api/nothing"),
                   client.post("/api/replay", data="{", content_type="application/json")):
        csp = answer.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        # no script runs but the app's own file: nothing inline, nothing from elsewhere
        assert "script-src 'self';" in csp and "unsafe" not in csp
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize(("host", "loopback"), [
    ("127.0.0.1", True), ("localhost", True), ("LOCALHOST.", True), ("::1", True),
    ("[::1]", True), ("127.8.8.8", True), ("app.localhost", True), ("0.0.0.0", False),
    ("::", False), ("192.168.0.2", False), ("example.org", False), ("", False),
])
def test_what_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


# -- the score pad and the tables -------------------------------------------------------------

@pytest.fixture
def kept(tmp_path: Path) -> tuple[Store, str, str]:
    """A store with an evening and a table whose players' names are secret markup."""
    from herzla.table import new_table
    from herzla.web import evening_docs

    store = Store(tmp_path / "kept.db")
    names = [SECRET_NAME, "<b>B</b>", "C", "D"]
    doc, _ = evening_docs.create(store, {"game": "herzla", "players": names}, most=10)
    table = store.create(Kind.TABLE, new_table("herzla", "normal", players=names,
                                               seed=1).to_json())
    return store, doc.id, table.id


def _paths(evening: str, table: str) -> list[tuple[str, str]]:
    return [("GET", f"/evenings/{evening}"), ("GET", f"/evenings/{evening}?edit=1"),
            ("POST", "/evenings"), ("POST", "/evenings/import"),
            ("POST", f"/evenings/{evening}/deals"), ("POST", f"/evenings/{evening}/deals/1"),
            ("POST", f"/evenings/{evening}/deals/1/delete"),
            ("POST", f"/evenings/{evening}/undo"), ("POST", f"/evenings/{evening}/delete"),
            ("GET", f"/tables/{table}"), ("GET", f"/tables/{table}?hint=1"),
            ("POST", "/tables"), ("POST", f"/tables/{table}/play"),
            ("POST", f"/tables/{table}/undo"), ("POST", f"/tables/{table}/next"),
            ("POST", f"/tables/{table}/delete"), ("GET", "/api/evenings"),
            ("POST", "/api/evenings"), ("POST", "/api/evenings/import"),
            ("GET", f"/api/evenings/{evening}"), ("DELETE", f"/api/evenings/{evening}"),
            ("POST", f"/api/evenings/{evening}/deals"),
            ("PUT", f"/api/evenings/{evening}/deals/1"),
            ("DELETE", f"/api/evenings/{evening}/deals/1"),
            ("POST", f"/api/evenings/{evening}/undo"), ("GET", f"/api/evenings/{evening}/file"),
            ("GET", f"/api/evenings/{evening}/deals.csv"), ("GET", "/api/tables"),
            ("POST", "/api/tables"), ("GET", f"/api/tables/{table}"),
            ("DELETE", f"/api/tables/{table}"), ("POST", f"/api/tables/{table}/play"),
            ("POST", f"/api/tables/{table}/undo"), ("POST", f"/api/tables/{table}/next"),
            ("GET", f"/api/tables/{table}/hint"), ("GET", "/desk?mode=hand")]


def test_without_the_token_no_evening_and_no_table_is_shown(
        kept: tuple[Store, str, str]) -> None:
    store, evening, table = kept
    client = create_app(store, WebConfig(token=TOKEN, loopback=False)).test_client()
    for method, path in _paths(evening, table):
        answer = client.open(path, method=method, data="{}", content_type="application/json")
        assert answer.status_code == 401, (method, path)
        text = answer.get_data(as_text=True)
        assert SECRET_NAME not in text and "<form" not in text and "data-card" not in text
    assert store.count(Kind.EVENING) == 1 and store.count(Kind.TABLE) == 1
    opened = client.get(f"/api/evenings/{evening}",
                        headers={"Authorization": f"Bearer {TOKEN}"})
    assert opened.status_code == 200 and opened.get_json()["players"][0] == SECRET_NAME


def test_every_form_needs_its_csrf_value(kept: tuple[Store, str, str]) -> None:
    store, evening, table = kept
    client = create_app(store).test_client()
    client.get("/")  # the browser has its csrf cookie
    for method, path in _paths(evening, table):
        if method != "POST" or path.startswith("/api/"):
            continue
        for form in ({}, {"csrf": "forged"}):
            answer = client.post(path, data={**form, "game": "herzla", "player-0": "X"})
            assert answer.status_code == 403, path
    assert store.count(Kind.EVENING) == 1 and store.count(Kind.TABLE) == 1
    assert len(store.get(Kind.EVENING, evening).body["deals"]) == 0


def test_the_new_calls_refuse_other_sites(kept: tuple[Store, str, str]) -> None:
    store, evening, table = kept
    client = create_app(store).test_client()
    for method, path in _paths(evening, table):
        if method == "GET":
            continue
        answer = client.open(path, method=method, data="{}", content_type="application/json",
                             headers={"Origin": "http://evil.example"})
        assert answer.status_code == 403, path
        if path.startswith("/api/"):
            # a form another site's page sends, to a call that reads no body: not JSON
            form = client.open(path, method=method, data={"x": "1"})
            assert form.status_code == 415, path
    assert len(store.get(Kind.EVENING, evening).body["deals"]) == 0


def test_every_page_escapes_the_names(kept: tuple[Store, str, str]) -> None:
    store, evening, table = kept
    client = create_app(store).test_client()
    for path in ("/", f"/evenings/{evening}", f"/evenings/{evening}?contract=beddl",
                 f"/tables/{table}", f"/tables/{table}?hint=1"):
        text = client.get(path).get_data(as_text=True)
        assert "<b>B</b>" not in text and "&lt;b&gt;B&lt;/b&gt;" in text, path
        # one script, the app's own file: a name never makes another
        assert text.count("<script") == 1 and '<script src="/static/live.js" defer>' in text, path
