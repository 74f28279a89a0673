"""A hand record's tags (docs/hand-records.md): kept unchanged through reading, replay, show, the
pad and the app's drawing; checked on reading (hostile tags are one clear error)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from herzla import RecordError, deal_record, play, replay
from herzla.draw.course import course
from herzla.draw.html import hand_html
from herzla.evening import Evening
from herzla.tags import MAX_TAG_LENGTH, MAX_TAGS
from tests.helpers import invoke, one_error

TAGS = {"event": "Stammtisch Oberau", "date": "2026-12-07",
        "names": "Sepp, Resi, Schorsch, Vroni", "comment": "Resi <b>swore</b> it was\na heart"}


def _tagged(tags: Any = TAGS) -> dict[str, Any]:
    rec = deal_record("herzla", "normal", seed=7).to_json()
    rec["tags"] = tags
    return rec


def test_tags_are_kept_through_reading_replay_and_play() -> None:
    res = replay(_tagged())
    assert res.record.tags == TAGS
    assert res.record.to_json()["tags"] == TAGS
    assert res.to_dict()["tags"] == TAGS
    played = play(res.record, "heuristic", seed=1)
    assert played.tags == TAGS and replay(played).complete
    plain = deal_record("herzla", "normal", seed=7)
    assert "tags" not in plain.to_json() and "tags" not in replay(plain).to_dict()


def test_replay_json_and_show_carry_the_tags() -> None:
    text = json.dumps(_tagged())
    out = invoke("replay", "-", "--json", stdin=text)
    assert out.exit_code == 0 and json.loads(out.stdout)["tags"] == TAGS
    shown = invoke("show", "-", stdin=text)
    assert shown.exit_code == 0, shown.output
    assert "  event: Stammtisch Oberau" in shown.stdout
    assert "  comment: Resi <b>swore</b> it was\n    a heart" in shown.stdout


def test_the_pad_and_the_apps_drawing_keep_the_tags() -> None:
    evening = Evening.new("herzla", ["Sepp", "Resi", "Schorsch", "Vroni"])
    rec = play(_tagged(), "heuristic", seed=2)
    kept = Evening.from_json(evening.add({"record": rec.to_json()}).to_json())
    assert kept.records()[0].tags == TAGS
    page = hand_html(course(rec))
    assert "<dt>event</dt><dd>Stammtisch Oberau</dd>" in page
    assert "&lt;b&gt;swore&lt;/b&gt;" in page and "<b>swore" not in page


@pytest.mark.parametrize(("tags", "message"), [
    (["event"], "tags must be a JSON object"),
    ("Stammtisch", "tags must be a JSON object"),
    ({"Event": "x"}, "a lowercase word"),
    ({"two words": "x"}, "a lowercase word"),
    ({"": "x"}, "a lowercase word"),
    ({"x" * 5000: "y"}, "a lowercase word"),
    ({"event": 7}, "its value must be text"),
    ({"event": None}, "its value must be text"),
    ({"event": {"nested": "x"}}, "its value must be text"),
    ({"comment": "x" * (MAX_TAG_LENGTH + 1)}, "more than 1,000"),
    ({f"k{i}": "x" for i in range(MAX_TAGS + 1)}, "at most 32 tags"),
])
def test_hostile_tags_are_one_clear_error(tags: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay(_tagged(tags))
    line = one_error(invoke("replay", "-", stdin=json.dumps(_tagged(tags))))
    assert message in line and len(line) < 300


def test_the_most_tags_of_the_longest_values_are_kept() -> None:
    tags = {f"k{i}": "ä" * MAX_TAG_LENGTH for i in range(MAX_TAGS)}
    assert replay(_tagged(tags)).record.tags == tags
