"""The score pad through Flask's test client (``pytest -m web``): the JSON API of the evenings
against the rule book with the stock carried and recomputed after a correction, a stale change
refused, export and import, and the pad's pages: a deal entered, corrected and deleted by its
forms, undo, a renege, every name escaped."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.evening import Evening
from herzla.web.app import create_app
from herzla.web.config import WebConfig
from herzla.web.store import Kind, Store
from tests.test_evening import BOOK, PLAYERS, record
from tests.web_calls import call, error, ok

pytestmark = pytest.mark.web

MARKUP = ["<script>alert(1)</script>", "Berni & Co", '"><img src=x onerror=alert(1)>', "Done"]


def new_evening(client: FlaskClient, players: list[str] = PLAYERS, **more: Any) -> Any:
    return ok(call(client, "POST", "/api/evenings", {"game": "herzla", "players": players,
                                                     **more}), 201)


# -- the API ----------------------------------------------------------------------------------

def test_the_evening_matches_the_rule_book_with_the_stock_carried(client: FlaskClient) -> None:
    made = new_evening(client)
    assert made["deals"] == [] and made["stock"] == 0 and made["revision"] == 1
    doc = made["id"]
    for i, (entry, scores, stock) in enumerate(BOOK, 1):
        got = ok(call(client, "POST", f"/api/evenings/{doc}/deals", entry))
        assert got["deals"][-1]["scores"] == scores and got["deals"][-1]["stock"] == stock
        assert got["revision"] == i + 1 and len(got["deals"]) == i
    assert got["totals"] == [530, 240, -630, -140] and got["stock"] == 0
    # the answer is `herzla pad show --json` of the same evening, with the id and revision
    e = Evening.new("herzla", PLAYERS)
    for entry, _, _ in BOOK:
        e = e.add(entry)
    assert {k: v for k, v in got.items() if k not in ("id", "revision")} == \
        {k: v for k, v in e.to_dict().items() if k != "revision"}
    assert ok(client.get(f"/api/evenings/{doc}")) == got


def test_a_correction_recomputes_every_deal_after_it(client: FlaskClient) -> None:
    doc = new_evening(client)["id"]
    for entry, _, _ in BOOK:
        got = ok(call(client, "POST", f"/api/evenings/{doc}/deals", entry))
    rev = got["revision"]
    # deal 1 was two void, not nobody void: the stock it carried no longer exists
    fixed = ok(call(client, "PUT", f"/api/evenings/{doc}/deals/1", {"hearts": [0, 3, 5, 0]},
                    **{"If-Match": f'"{rev}"'}))
    e = Evening.new("herzla", PLAYERS)
    for entry in [{"hearts": [0, 3, 5, 0]}, *(b[0] for b in BOOK[1:])]:
        e = e.add(entry)
    assert [d["scores"] for d in fixed["deals"]] == [list(d.scores or ()) for d in e.deals]
    assert [d["stock"] for d in fixed["deals"]] == [d.stock for d in e.deals]
    assert fixed["deals"][1]["scores"] != BOOK[1][1]  # deal 2 no longer splits a stock
    assert fixed["totals"] == list(e.totals) and fixed["revision"] == rev + 1
    dropped = ok(call(client, "DELETE", f"/api/evenings/{doc}/deals/1"))
    assert dropped["deals"][0]["entry"] == BOOK[1][0] | {"contract": "normal"}
    assert dropped["deals"][0]["stock"] == 0 and len(dropped["deals"]) == len(BOOK) - 1
    undone = ok(call(client, "POST", f"/api/evenings/{doc}/undo"))
    assert undone["deals"] == fixed["deals"]
    again = ok(call(client, "POST", f"/api/evenings/{doc}/undo"))
    assert [d["scores"] for d in again["deals"]] == [s for _, s, _ in BOOK]


def test_a_stale_change_is_refused_and_changes_nothing(client: FlaskClient) -> None:
    doc = new_evening(client)["id"]
    first = ok(call(client, "POST", f"/api/evenings/{doc}/deals", {"hearts": [2, 2, 2, 2]},
                    **{"If-Match": '"1"'}))
    assert first["revision"] == 2
    # a second browser, still at revision 1, enters its deal: refused, not lost silently
    assert "changed meanwhile" in error(call(client, "POST", f"/api/evenings/{doc}/deals",
                                             {"hearts": [0, 3, 5, 0]}, **{"If-Match": '"1"'}),
                                        409)
    assert "changed meanwhile" in error(call(client, "PUT",
                                             f"/api/evenings/{doc}/deals/1?revision=1",
                                             {"hearts": [0, 3, 5, 0]}), 409)
    assert ok(client.get(f"/api/evenings/{doc}")) == first
    assert "a revision is a whole number" in error(
        call(client, "POST", f"/api/evenings/{doc}/undo", **{"If-Match": "yesterday"}), 422)
    assert call(client, "POST", f"/api/evenings/{doc}/undo").headers["ETag"] == '"3"'


def test_what_the_api_refuses(client: FlaskClient) -> None:
    assert "unknown game" in error(call(client, "POST", "/api/evenings",
                                        {"game": "herzl", "players": PLAYERS}), 422)
    assert "needs its players" in error(call(client, "POST", "/api/evenings",
                                             {"game": "herzla"}), 422)
    assert "unknown field" in error(call(client, "POST", "/api/evenings",
                                         {"game": "herzla", "players": PLAYERS, "x": 1}), 422)
    assert "give 4 players" in error(call(client, "POST", "/api/evenings",
                                          {"game": "herzla", "players": ["A", "B"]}), 422)
    assert "at most 16 seats" in error(call(client, "POST", "/api/evenings",
                                            {"game": "herzla-kids",
                                             "players": [f"P{i}" for i in range(17)]}), 422)
    doc = new_evening(client)["id"]
    assert "add up" in error(call(client, "POST", f"/api/evenings/{doc}/deals",
                                  {"hearts": [1, 1, 1, 1]}), 422)
    assert "unknown key" in error(call(client, "POST", f"/api/evenings/{doc}/deals",
                                       {"game": "herzla", "hearts": [0, 3, 5, 0]}), 422)
    assert "no deal 3" in error(call(client, "PUT", f"/api/evenings/{doc}/deals/3",
                                     {"hearts": [0, 3, 5, 0]}), 404)
    assert "no deal 1" in error(call(client, "DELETE", f"/api/evenings/{doc}/deals/1"), 404)
    # nothing to take back: the call does not fit the evening now (as at a table)
    assert "no change to take back" in error(call(client, "POST",
                                                  f"/api/evenings/{doc}/undo"), 409)
    assert "no evening has the id" in error(client.get("/api/evenings/nosuchid"), 404)
    assert "Content-Type" in error(client.post(f"/api/evenings/{doc}/deals", data="{}"), 415)


def test_the_limits(store: Store) -> None:
    client = create_app(store, WebConfig(max_evenings=2, max_deals=3)).test_client()
    doc = new_evening(client)["id"]
    for _ in range(3):
        ok(call(client, "POST", f"/api/evenings/{doc}/deals", {"hearts": [2, 2, 2, 2]}))
    assert "at most 3 deals" in error(call(client, "POST", f"/api/evenings/{doc}/deals",
                                           {"hearts": [2, 2, 2, 2]}), 409)
    ok(call(client, "PUT", f"/api/evenings/{doc}/deals/1", {"hearts": [0, 3, 5, 0]}))
    new_evening(client)
    assert "at most 2 evenings" in error(call(client, "POST", "/api/evenings",
                                              {"game": "herzla", "players": PLAYERS}), 409)
    ok(call(client, "DELETE", f"/api/evenings/{doc}"))
    new_evening(client)
    assert store.count(Kind.EVENING) == 2


def test_export_and_import(client: FlaskClient) -> None:
    doc = new_evening(client, MARKUP)["id"]
    rec = record("01-herzla-two-void")
    for entry in ({"record": rec}, {"hearts": [2, 2, 2, 2]}, {"contract": "beddl",
                                                             "declarer": "Done",
                                                             "made": True}):
        got = ok(call(client, "POST", f"/api/evenings/{doc}/deals", entry))
    exported = client.get(f"/api/evenings/{doc}/file")
    assert exported.status_code == 200 and "attachment" in exported.headers[
        "Content-Disposition"]
    text = exported.get_data(as_text=True)
    assert Evening.from_json(json.loads(text)).to_dict() == {
        k: v for k, v in got.items() if k not in ("id", "revision")} | {
        "revision": json.loads(text)["revision"]}
    imported = ok(client.post("/api/evenings/import", data=text,
                              content_type="application/json"), 201)
    assert imported["id"] != doc and imported["deals"] == got["deals"]
    assert imported["totals"] == got["totals"]
    table = list(csv.reader(io.StringIO(client.get(f"/api/evenings/{doc}/deals.csv")
                                        .get_data(as_text=True))))
    assert table[0][:5] == ["deal", "partie", "dealer", "contract", "declarer"]
    assert table[0][5:] == [*MARKUP, "stock"]
    assert [row[5:9] for row in table[1:4]] == [[str(v) for v in d["scores"]]
                                                for d in got["deals"]]
    assert table[-1][0] == "total" and table[-1][5:9] == [str(t) for t in got["totals"]]
    formula = new_evening(client, ["=SUM(A1)", "+x", "@y", "Done"])["id"]
    head = next(csv.reader(io.StringIO(client.get(f"/api/evenings/{formula}/deals.csv")
                                       .get_data(as_text=True))))
    assert head[5:9] == ["'=SUM(A1)", "'+x", "'@y", "Done"]  # no formula for a spreadsheet
    assert "not a herzla evening" in error(call(client, "POST", "/api/evenings/import",
                                                {"game": "herzla"}), 422)
    later = {**json.loads(text), "version": 99}
    assert "later herzla" in error(call(client, "POST", "/api/evenings/import", later), 422)


def test_a_restart_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "kept.db"
    first = create_app(Store(path)).test_client()
    doc = new_evening(first)["id"]
    for entry, _, _ in BOOK[:4]:
        got = ok(call(first, "POST", f"/api/evenings/{doc}/deals", entry))
    second = create_app(Store(path)).test_client()
    assert ok(second.get(f"/api/evenings/{doc}")) == got


# -- the pages --------------------------------------------------------------------------------

def csrf_of(client: FlaskClient, path: str) -> tuple[str, str]:
    page = client.get(path)
    assert page.status_code == 200, page.get_data(as_text=True)
    text = page.get_data(as_text=True)
    found = re.search(r'name="csrf" value="([^"]+)"', text)
    assert found is not None
    return found.group(1), text


def revision_in(text: str) -> str:
    found = re.search(r'name="revision" value="(\d+)"', text)
    assert found is not None
    return found.group(1)


def test_an_evening_started_on_the_start_page(client: FlaskClient, store: Store) -> None:
    csrf, _ = csrf_of(client, "/")
    form = {"csrf": csrf, "game": "herzla", **{f"player-{i}": n for i, n in enumerate(MARKUP)},
            "stock": "80", "options": "heart_unit=5"}
    page = client.post("/evenings", data=form)
    assert page.status_code == 303
    where = page.headers["Location"]
    (doc,) = store.list(Kind.EVENING)
    assert where == f"/evenings/{doc.id}" and doc.body["players"] == MARKUP
    assert doc.body["stock"] == 80 and doc.body["options"] == {"heart_unit": 5}
    text = client.get(where).get_data(as_text=True)
    assert MARKUP[0] not in text and MARKUP[2] not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "Berni &amp; Co" in text
    assert text.count("<script") == 1 and "<img src=x" not in text
    bad = client.post("/evenings", data={**form, "player-3": "Anna", "player-0": "anna"})
    assert bad.status_code == 422 and "both called" in bad.get_data(as_text=True)
    start = client.get("/").get_data(as_text=True)
    assert f'href="/evenings/{doc.id}"' in start and "&lt;script&gt;" in start


def _deal_form(client: FlaskClient, pad: str) -> dict[str, str]:
    """The hidden fields of the pad's deal form as the page shows them now."""
    text = client.get(pad).get_data(as_text=True)
    form = text[text.index('id="deal-form"'):]
    return dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form[:form.index(
        "</form>")]))


def test_a_deal_form_sent_twice_adds_its_deal_once(client: FlaskClient, store: Store) -> None:
    doc = new_evening(client)["id"]
    pad = f"/evenings/{doc}"
    hidden = _deal_form(client, pad)
    assert set(hidden) == {"csrf", "revision", "key", "shown", "contract"}
    assert len(hidden["key"]) >= 16 and hidden["shown"] == "0"
    sent = {**hidden, "hearts-0": "2", "hearts-1": "2", "hearts-2": "2", "hearts-3": "2"}
    assert client.post(f"{pad}/deals", data=sent).status_code == 303
    again = client.post(f"{pad}/deals", data=sent)  # a double tap, a resend
    text = again.get_data(as_text=True)
    assert again.status_code == 200 and "entered already, as deal 1" in text
    assert len(store.get(Kind.EVENING, doc).body["deals"]) == 1
    fresh = _deal_form(client, pad)
    assert fresh["key"] != hidden["key"] and fresh["shown"] == "1"  # a new key for deal 2
    # the key is the app's own: the API, the file and the export know nothing of it
    got = ok(client.get(f"/api/evenings/{doc}"))
    assert hidden["key"] not in json.dumps(got)
    assert hidden["key"] not in client.get(f"/api/evenings/{doc}/file").get_data(as_text=True)


def test_the_api_takes_an_idempotency_key(client: FlaskClient, store: Store) -> None:
    doc = new_evening(client)["id"]
    deal = json.dumps({"contract": "normal", "hearts": [0, 3, 5, 0]})

    def send(key: str, **headers: str) -> Any:
        return client.post(f"/api/evenings/{doc}/deals", data=deal,
                           content_type="application/json",
                           headers={"Idempotency-Key": key, **headers})

    first = send("deal-one-key")
    again = send("deal-one-key", **{"If-Match": '"1"'})  # a retry, from the revision it changed
    assert first.status_code == again.status_code == 200
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json() and len(first.get_json()["deals"]) == 1
    assert len(send("deal-two-key").get_json()["deals"]) == 2
    assert "changed meanwhile" in error(send("deal-three-key", **{"If-Match": '"1"'}), 409)
    assert "Idempotency-Key" in error(send("short"), 422)
    assert len(store.get(Kind.EVENING, doc).body["deals"]) == 2


def test_a_stale_pages_deal_is_shown_and_kept_not_filed(client: FlaskClient,
                                                        store: Store) -> None:
    doc = new_evening(client)["id"]
    pad = f"/evenings/{doc}"
    first, second = _deal_form(client, pad), _deal_form(client, pad)  # two phones
    assert first["key"] != second["key"]
    hearts = {"hearts-0": "2", "hearts-1": "2", "hearts-2": "2", "hearts-3": "2"}
    assert client.post(f"{pad}/deals", data={**first, **hearts}).status_code == 303
    # the second phone sends the same deal from its page, out of date
    stale = client.post(f"{pad}/deals", data={**second, **hearts})
    text = stale.get_data(as_text=True)
    assert stale.status_code == 409 and len(store.get(Kind.EVENING, doc).body["deals"]) == 1
    assert "entered from another phone meanwhile: deal 1, Normal game (−20 −20 −20 −20)" in text
    assert 'id="drop-entry"' in text and "Enter it as deal 2" in text and "data-kept" in text
    assert re.search(r'name="hearts-1" value="2" checked', text)  # the input kept
    kept = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', text))
    assert kept["key"] == second["key"] and kept["shown"] == "1"
    assert kept["revision"] == str(store.get(Kind.EVENING, doc).revision)
    # confirmed: entered as deal 2, once
    assert client.post(f"{pad}/deals", data={**kept, **hearts}).status_code == 303
    assert client.post(f"{pad}/deals", data={**kept, **hearts}).status_code == 200
    assert len(store.get(Kind.EVENING, doc).body["deals"]) == 2


def test_an_evening_named_dated_for_money_closed_and_archived(client: FlaskClient,
                                                              store: Store) -> None:
    csrf, _ = csrf_of(client, "/")
    made = client.post("/evenings", data={
        "csrf": csrf, "game": "herzla", "name": "  Friday   at <Anna>'s ", "money": "on",
        **{f"player-{i}": n for i, n in enumerate(["Anna", "Berni", "Carla", "Done"])}})
    pad = made.headers["Location"]
    doc = pad.rsplit("/", 1)[1]
    call(client, "POST", f"/api/evenings/{doc}/deals", {"contract": "normal",
                                                        "hearts": [0, 3, 5, 0]})
    text = client.get(pad).get_data(as_text=True)
    assert "<h1>Friday at &lt;Anna&gt;&#39;s</h1>" in text
    day = datetime.datetime.fromtimestamp(store.get(Kind.EVENING, doc).created)
    assert f'id="date">{day.day} {day:%b %Y}<' in text
    # for money: the euros beside the cents, in the totals, the settlement and the text to share
    assert ">+0.40 €<" in text and "Carla pays Anna 40c (0.40 €)." in text
    share = re.search(r'<textarea id="share-text"[^>]*>([^<]*)</textarea>', text)
    assert share is not None and share.group(1).splitlines() == [
        f"Friday at &lt;Anna&gt;&#39;s, {day.day} {day:%b %Y}: 1 deal",
        "Anna +40c (+0.40 €)", "Berni −30c (−0.30 €)", "Carla −50c (−0.50 €)",
        "Done +40c (+0.40 €)", "stock 0c (0.00 €)", "Carla pays Anna 40c (0.40 €).",
        "Berni pays Done 30c (0.30 €).", "Carla pays Done 10c (0.10 €)."]

    def about(**form: str) -> int:
        rev = revision_in(client.get(pad).get_data(as_text=True))
        return int(client.post(f"{pad}/about", data={"csrf": csrf, "revision": rev,
                                                     **form}).status_code)

    assert about(action="save", name="Saturday") == 303  # renamed, and no longer for money
    text = client.get(pad).get_data(as_text=True)
    assert "<h1>Saturday</h1>" in text and "€" not in text
    assert about(action="save", name="x" * 61) == 422
    assert about(action="close") == 303
    assert "This evening is closed" in client.get(pad).get_data(as_text=True)
    assert "closed: reopen it" in error(call(client, "POST", f"/api/evenings/{doc}/deals", {
        "contract": "normal", "hearts": [0, 3, 5, 0]}), 409)
    assert "closed: reopen it" in error(call(client, "POST", f"/api/evenings/{doc}/undo"), 409)
    assert about(action="reopen") == 303
    assert about(action="archive") == 303  # archived, and so closed
    start = client.get("/").get_data(as_text=True)
    archived = start[start.index('id="archived"'):]
    assert f'data-evening="{doc}"' in archived and "Saturday" in archived
    assert about(action="unarchive") == 303 and 'id="archived"' not in client.get(
        "/").get_data(as_text=True)
    assert about(action="nothing") == 422
    # an imported evening says so, on its pad and on the start page
    exported = client.get(f"/api/evenings/{doc}/file").get_data(as_text=True)
    assert "Saturday" not in exported  # the file is the evening's, as herzla pad writes it
    imported = ok(client.post("/api/evenings/import", data=exported,
                              content_type="application/json"), 201)["id"]
    assert 'id="imported">imported from a file<' in client.get(
        f"/evenings/{imported}").get_data(as_text=True)
    assert "imported)" in client.get("/").get_data(as_text=True)


def test_the_revision_is_cheap_to_poll(client: FlaskClient) -> None:
    doc = new_evening(client)["id"]
    answer = client.get(f"/api/evenings/{doc}/revision")
    assert answer.get_json() == {"id": doc, "revision": 1, "tag": "1"}
    assert answer.headers["ETag"] == '"1"'
    assert client.get(f"/api/evenings/{doc}/revision",
                      headers={"If-None-Match": '"1"'}).status_code == 304
    call(client, "POST", f"/api/evenings/{doc}/deals", {"contract": "normal",
                                                        "hearts": [2, 2, 2, 2]})
    assert client.get(f"/api/evenings/{doc}/revision").get_json()["revision"] == 2
    assert "no evening" in error(client.get("/api/evenings/nope/revision"), 404)
    text = client.get(f"/evenings/{doc}").get_data(as_text=True)
    assert f'data-live="/api/evenings/{doc}/revision" data-revision="2"' in text
    assert client.get("/favicon.ico").mimetype == "image/svg+xml"
    table = call(client, "POST", "/api/tables", {"game": "herzla", "contract": "normal",
                                                 "seat": 0, "opponents": "heuristic",
                                                 "seed": 1}).get_json()
    assert client.get(f"/api/tables/{table['id']}/revision").get_json() == {
        "id": table["id"], "revision": table["revision"], "tag": str(table["revision"])}
    assert f'data-live="/api/tables/{table["id"]}/revision"' in client.get(
        f"/tables/{table['id']}").get_data(as_text=True)


def test_the_start_page_shows_the_phones_address_as_a_qr_code(tmp_path: Path) -> None:
    url = "http://192.0.2.7:8000/?token=table-seven"
    joined = create_app(Store(tmp_path / "q.db"), WebConfig(url=url)).test_client()
    text = joined.get("/").get_data(as_text=True)
    assert f'<code id="join-url">{url}</code>' in text
    assert re.search(r'id="join-qr" src="data:image/svg\+xml[^"]+"', text)
    alone = create_app(Store(tmp_path / "r.db")).test_client()  # loopback: no phone joins
    assert 'id="join-qr"' not in alone.get("/").get_data(as_text=True)


def test_deals_entered_corrected_and_deleted_by_the_pads_forms(client: FlaskClient,
                                                               store: Store) -> None:
    doc = new_evening(client)["id"]
    pad = f"/evenings/{doc}"
    csrf, text = csrf_of(client, pad)
    assert 'id="deal-form"' in text and 'name="hearts-3"' in text and "data-deal" not in text
    sent = {"csrf": csrf, "revision": revision_in(text), "contract": "normal",
            "hearts-0": "2", "hearts-1": "2", "hearts-2": "2", "hearts-3": "2"}
    answer = client.post(f"{pad}/deals", data=sent)
    assert answer.status_code == 303 and answer.headers["Location"] == f"{pad}#deals"
    text = client.get(pad).get_data(as_text=True)
    assert 'data-deal="1"' in text and 'id="stock">80c<' in text
    # a stale page's deal: refused, the pad as it is now, the entry as sent
    stale = client.post(f"{pad}/deals", data=sent)
    assert stale.status_code == 409 and "changed after your page was shown" in stale.get_data(
        as_text=True)
    assert len(store.get(Kind.EVENING, doc).body["deals"]) == 1
    # Beddl in two taps: the declarer and "lost"
    _, text = csrf_of(client, f"{pad}?contract=beddl")
    assert 'name="declarer"' in text and 'value="lost"' in text and 'name="hearts-0"' not in text
    answer = client.post(f"{pad}/deals", data={"csrf": csrf, "revision": revision_in(text),
                                               "contract": "beddl", "declarer": "2",
                                               "made": "lost"})
    assert answer.status_code == 303
    body = store.get(Kind.EVENING, doc).body
    assert body["deals"][1] == {"contract": "beddl", "declarer": 2, "made": False}
    # deal 1 corrected: the form comes filled in, and everything after is recomputed
    _, text = csrf_of(client, f"{pad}?edit=1")
    assert "Correct deal 1" in text and re.search(
        r'name="hearts-1" value="2" checked', text)
    answer = client.post(f"{pad}/deals/1", data={
        "csrf": csrf, "revision": revision_in(text), "contract": "normal",
        "hearts-0": "0", "hearts-1": "3", "hearts-2": "5", "hearts-3": "0"})
    assert answer.status_code == 303 and answer.headers["Location"] == f"{pad}#deal-1"
    got = ok(client.get(f"/api/evenings/{doc}"))
    assert [d["scores"] for d in got["deals"]] == [[40, -30, -50, 40], [80, 80, -240, 80]]
    assert got["stock"] == 0
    # a correction that does not add up: the pad again, with the problem, nothing written
    _, text = csrf_of(client, f"{pad}?edit=2")
    bad = client.post(f"{pad}/deals/2", data={"csrf": csrf, "revision": revision_in(text),
                                              "contract": "normal", "hearts-0": "1"})
    assert bad.status_code == 422 and 'id="error"' in bad.get_data(as_text=True)
    assert ok(client.get(f"/api/evenings/{doc}"))["deals"] == got["deals"]
    # deleted, then the deletion undone
    answer = client.post(f"{pad}/deals/1/delete", data={"csrf": csrf,
                                                        "revision": revision_in(text)})
    assert answer.status_code == 303
    assert len(ok(client.get(f"/api/evenings/{doc}"))["deals"]) == 1
    _, text = csrf_of(client, pad)
    assert "Undo: <span class=\"lib\">deal 1 dropped</span>" in text
    client.post(f"{pad}/undo", data={"csrf": csrf, "revision": revision_in(text)})
    assert ok(client.get(f"/api/evenings/{doc}"))["deals"] == got["deals"]
    # the forms need their csrf value
    assert client.post(f"{pad}/undo", data={"revision": revision_in(text)}).status_code == 403


def test_a_renege_and_the_other_games_deals(client: FlaskClient) -> None:
    doc = new_evening(client)["id"]
    pad = f"/evenings/{doc}"
    csrf, text = csrf_of(client, pad)
    answer = client.post(f"{pad}/deals", data={"csrf": csrf, "revision": revision_in(text),
                                               "contract": "normal", "action": "renege",
                                               "renege": "1", "hearts-1": "4"})
    assert answer.status_code == 303
    got = ok(client.get(f"/api/evenings/{doc}"))
    assert got["deals"][0]["entry"] == {"contract": "normal", "renege": 1}
    assert "renege" in got["deals"][0]["events"]
    # a Herzerln partie: the contract is the partie's, the form asks what it needs
    herzerln = ok(call(client, "POST", "/api/evenings",
                       {"game": "herzerln", "players": ["A", "B", "C"]}), 201)["id"]
    pad = f"/evenings/{herzerln}"
    _, text = csrf_of(client, pad)
    assert 'name="tricks-2"' in text and "nav class=\"tabs\"" not in text
    client.post(f"{pad}/deals", data={"csrf": csrf, "revision": revision_in(text),
                                      "contract": "tricks", "tricks-0": "5", "tricks-1": "3",
                                      "tricks-2": "2"})
    _, text = csrf_of(client, pad)
    assert 'name="hearts-0"' in text  # deal 2 is the hearts
    client.post(f"{pad}/deals", data={"csrf": csrf, "revision": revision_in(text),
                                      "contract": "hearts", "hearts-0": "4", "hearts-1": "4"})
    _, text = csrf_of(client, pad)
    assert 'name="owner-CJ"' in text  # deal 3, the jacks: who captured each
    owners = {"owner-CJ": "0", "owner-SJ": "0", "owner-HJ": "1", "owner-DJ": "2"}
    client.post(f"{pad}/deals", data={"csrf": csrf, "revision": revision_in(text),
                                      "contract": "jacks", **owners})
    got = ok(client.get(f"/api/evenings/{herzerln}"))
    assert [d["contract"] for d in got["deals"]] == ["tricks", "hearts", "jacks"]
    assert got["deals"][2]["entry"]["captured"] == ["CJ SJ", "HJ", "DJ"]


def test_the_pads_sections(client: FlaskClient) -> None:
    doc = new_evening(client, MARKUP)["id"]
    for entry, _, _ in BOOK:
        seat = entry.get("declarer")
        named = {"declarer": PLAYERS.index(seat)} if isinstance(seat, str) else {}
        ok(call(client, "POST", f"/api/evenings/{doc}/deals", entry | named))
    text = client.get(f"/evenings/{doc}").get_data(as_text=True)
    assert [int(k) for k in re.findall(r'data-deal="(\d+)"', text)] == list(range(1, 10))
    for part in ('id="outcome"', 'id="statistics"', 'id="picture"', "<svg", 'id="explained"',
                 f'href="/api/evenings/{doc}/file"', f'href="/api/evenings/{doc}/deals.csv"'):
        assert part in text
    assert "http://" not in text and text.count("<script") == 1 and "<img src=x" not in text


def test_import_by_the_start_page(client: FlaskClient) -> None:
    e = Evening.new("herzla", PLAYERS)
    for entry, _, _ in BOOK[:3]:
        e = e.add(entry)
    csrf, _ = csrf_of(client, "/")
    text = json.dumps(e.to_json())
    answer = client.post("/evenings/import", data={
        "csrf": csrf, "file": (io.BytesIO(text.encode()), "evening.json")},
        content_type="multipart/form-data")
    assert answer.status_code == 303
    doc = answer.headers["Location"].rsplit("/", 1)[1]
    assert ok(client.get(f"/api/evenings/{doc}"))["totals"] == list(e.totals)
    pasted = client.post("/evenings/import", data={"csrf": csrf, "text": text})
    assert pasted.status_code == 303
    bad = client.post("/evenings/import", data={"csrf": csrf, "text": "{\"x\": 1}"})
    assert bad.status_code == 422 and "not an evening" in bad.get_data(as_text=True)
    empty = client.post("/evenings/import", data={"csrf": csrf})
    assert empty.status_code == 422


def test_deleting_an_evening_by_its_page(client: FlaskClient, store: Store) -> None:
    doc = new_evening(client)["id"]
    csrf, text = csrf_of(client, f"/evenings/{doc}")
    kept = client.post(f"/evenings/{doc}/delete", data={"csrf": csrf,
                                                        "revision": revision_in(text)})
    assert kept.status_code == 422 and store.count(Kind.EVENING) == 1
    gone = client.post(f"/evenings/{doc}/delete", data={"csrf": csrf, "sure": "yes",
                                                        "revision": revision_in(text)})
    assert gone.status_code == 303 and store.count(Kind.EVENING) == 0
    assert client.get(f"/evenings/{doc}").status_code == 404


def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    """Two apps on one file (two processes, or two browsers), each entering deals at the same
    time without naming a revision: every deal is kept, none written over another."""
    import threading

    path = tmp_path / "shared.db"
    first = create_app(Store(path)).test_client()
    doc = new_evening(first)["id"]
    answers: list[int] = []

    def enter(n: int) -> None:
        client = create_app(Store(path)).test_client()
        for _ in range(n):
            answers.append(call(client, "POST", f"/api/evenings/{doc}/deals",
                                {"hearts": [2, 2, 2, 2]}).status_code)

    writers = [threading.Thread(target=enter, args=(8,)) for _ in range(2)]
    for w in writers:
        w.start()
    for w in writers:
        w.join(120)
    got = ok(first.get(f"/api/evenings/{doc}"))
    assert answers == [200] * 16 and len(got["deals"]) == 16 and got["revision"] == 17
    assert got["stock"] == 16 * 80


@pytest.mark.parametrize(("game", "players", "tricks"), [("herzla", 4, 8),
                                                         ("herzla-kids", 3, 12)])
def test_the_more_tallies_note_names_the_hand_size(client: FlaskClient, game: str,
                                                   players: int, tricks: int) -> None:
    """The note of *More tallies* names the contract's tricks a hand, not always eight."""
    doc = ok(call(client, "POST", "/api/evenings", {"game": game,
                                                    "players": PLAYERS[:players]}), 201)["id"]
    text = client.get(f"/evenings/{doc}").get_data(as_text=True)
    assert f"(e.g. all {tricks} to one player)" in text
    assert 'name="tricks-0"><option value="">—</option>' in text
    assert f'<option value="{tricks}">{tricks}</option></select>' in text
