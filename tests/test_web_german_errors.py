"""The error lines of the pad's deal form and of the desk on a German page (``pytest -m web``):
German sentences, no English word left in them."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

pytest.importorskip("flask")

from flask.testing import FlaskClient

from herzla.web.app import create_app
from herzla.web.store import Store
from tests.test_web import csrf_of
from tests.test_web_german import english_in
from tests.web_calls import call, ok

pytestmark = pytest.mark.web


@pytest.fixture
def de(tmp_path: Path) -> FlaskClient:
    """A client of an app whose browser asks for German."""
    client = create_app(Store(str(tmp_path / "errors.db"))).test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "de"
    return client


def _error_line(page: str) -> str:
    found = re.search(r'<p class="error[^"]*" role="alert"[^>]*>(.*?)</p>', page, re.S)
    assert found is not None, page[:2000]
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(1))).strip()


def _german(line: str, *words: str) -> None:
    assert all(w in line for w in words), line
    # the players' names and the text the person typed are no words of either language
    assert english_in([line.replace("Anna", "").replace("Berni", "")]) == [], line


def test_a_bad_deal_form_on_the_pad_is_refused_in_german(de: FlaskClient) -> None:
    names = ["Anna", "Berni", "Carla", "Dora"]
    evening = ok(call(de, "POST", "/api/evenings", {"game": "herzla", "players": names}), 201)
    url = f"/evenings/{evening['id']}"
    page = de.get(url).get_data(as_text=True)
    key = re.search(r'name="key" value="([^"]+)"', page)
    assert key is not None
    answer = de.post(f"{url}/deals", data={
        "csrf": csrf_of(de, url), "key": key.group(1), "contract": "normal", "shown": "1",
        "hearts-0": "0", "hearts-1": "99", "hearts-2": "0", "hearts-3": "0"})
    assert 400 <= answer.status_code < 500
    line = _error_line(answer.get_data(as_text=True))
    _german(line, "die Herzen von Berni", "ist keine Anzahl von 0 bis 8")
    assert ok(call(de, "GET", f"/api/evenings/{evening['id']}"))["deals"] == []


def test_a_bad_desk_form_is_refused_in_german(de: FlaskClient) -> None:
    csrf = csrf_of(de, "/desk")
    answer = de.post("/desk", data={"csrf": csrf, "mode": "tally",
                                    "contract": "herzla/beddl", "result": "maybe"})
    assert 400 <= answer.status_code < 500
    _german(_error_line(answer.get_data(as_text=True)),
            "das Ergebnis ist gewonnen oder verloren, nicht")
    missing = de.post("/desk", data={"csrf": csrf, "mode": "tally",
                                     "contract": "herzla/normal"})
    assert 400 <= missing.status_code < 500
    line = _error_line(missing.get_data(as_text=True))
    _german(line, " oder ", "gib ")
    english = de.post("/desk?lang=en", data={"csrf": csrf, "mode": "tally",
                                              "contract": "herzla/beddl", "result": "maybe"})
    assert "the result is made or lost, not" in _error_line(english.get_data(as_text=True))
