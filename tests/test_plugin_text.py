"""A plug-in's texts with control characters in them (issue 23): the SVG stays well-formed XML,
the page and the terminal get no control character raw."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import ClassVar

import pytest
from click.testing import CliRunner, Result

from herzla import contracts as registry
from herzla.cards import Card, Rank, Suit
from herzla.cli import main
from herzla.contracts import CardValue, TrickContract
from herzla.options import Option

JACKS = sum(Card(suit, Rank.JACK).bit for suit in Suit)
NASTY = "\x1b[31mRed\x07 jacks\x9b2J\u2028"

#: what must not reach a terminal, a picture or a page: C0 and C1 controls (but the line feed)
#: and the line and paragraph separators
CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


class Loud(TrickContract):
    """A plug-in whose every text carries control characters."""

    game: ClassVar[str] = "loud"
    id: ClassVar[str] = "red-jacks"
    title: ClassVar[str] = NASTY
    summary: ClassVar[str] = f"-5 per {NASTY}"
    source: ClassVar[str] = f"the \x1b]0;title\x07 README {NASTY}"
    options: ClassVar[tuple[Option, ...]] = (
        Option("jack_penalty", 5, doc=f"points lost {NASTY}", minimum=0),)
    values: ClassVar[tuple[CardValue, ...]] = (CardValue(JACKS, -5, f"Jack{NASTY}"),)


@pytest.fixture
def loud(builtin_registry: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "_registry", dict(registry._load()))
    registry.register(Loud)


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, prog_name="herzla")


def clean(res: Result) -> None:
    for stream in (res.stdout, res.stderr):
        assert CONTROLS.search(stream) is None, repr(CONTROLS.search(stream))


def played() -> str:
    """A whole hand of the plug-in, played by the simulator's first deal."""
    dealt = run("deal", "loud", "--seed", "3")
    assert dealt.exit_code == 0, dealt.output
    rec = json.loads(dealt.stdout)
    from herzla.records import read_record
    from herzla.testing import random_hand

    contract = read_record(rec).contract
    import random

    hands, _, plays = random_hand(contract, random.Random(3))
    rec["hands"] = [[c.code for c in Card.ALL if m >> c.index & 1] for m in hands]
    rec["plays"] = plays
    return json.dumps(rec)


@pytest.mark.usefixtures("loud")
def test_the_svg_parses_and_the_text_is_clean() -> None:
    record = played()
    svg = run("show", "-", "--svg", "-", stdin=record)
    assert svg.exit_code == 0, svg.output
    root = ET.fromstring(svg.stdout)  # well-formed XML, though the title holds ESC and BEL
    text = " ".join(root.itertext())
    assert "\\u001b[31mRed\\u0007 jacks" in text
    clean(svg)
    page = run("show", "-", "--html", "-", stdin=record)
    assert page.exit_code == 0 and page.stdout.startswith("<!DOCTYPE html>")
    clean(page)
    for args in (["show", "-"], ["show", "-", "--color", "never"], ["replay", "-"],
                 ["replay", "-", "--json"]):
        res = run(*args, stdin=record)
        assert res.exit_code == 0, res.output
        clean(res)


@pytest.mark.usefixtures("loud")
@pytest.mark.parametrize("args", [
    ["rules"], ["rules", "loud"], ["rules", "loud", "red-jacks"], ["rules", "loud", "--json"],
    ["rules", "red-jacks"], ["--help"], ["simulate", "--help"],
    ["score", "loud", "red-jacks", "--captured", "CJ SJ", "--captured", "-", "--captured", "-",
     "--captured", "HJ DJ"],
    ["simulate", "loud", "-n", "20", "--seed", "1", "--jobs", "1"],
    ["deal", "loud", "--seed", "1"],
])
def test_commands_print_no_control_character(args: list[str]) -> None:
    res = run(*args)
    assert res.exit_code == 0, res.output
    clean(res)
    if "--json" in args:
        json.loads(res.stdout)


@pytest.mark.usefixtures("loud")
def test_the_color_of_show_is_still_its_own() -> None:
    """The escapes herzla writes on purpose (``--color always``) are kept."""
    res = run("show", "-", "--color", "always", stdin=played())
    assert res.exit_code == 0
    assert "\x1b[" in res.stdout and "\x07" not in res.stdout
    assert "\\u001b[31mRed" in res.stdout
