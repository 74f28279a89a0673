"""The output formats by registry (herzla.cli.formats): every registered format is an option of
``herzla show``, ``herzla replay`` and ``herzla pad show``, with nothing else to change; a format
registered by a test appears in all three and writes its own drawings."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from herzla.cli import formats, main
from herzla.cli import pad as pad_cli
from herzla.cli import replay as replay_cli
from herzla.cli import show as show_cli
from herzla.cli.formats import FORMATS, OutputFormat

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"

#: a format of the test's own: a line naming what it drew
PLAIN = OutputFormat(
    name="plain", noun="the plain text", records_help="Write the plain text of the hand.",
    replay_help="Also write the plain text of the hand, as 'herzla show --plain' draws it.",
    evening_metavar="TEXT",
    evening_help="Write the plain text of the evening.",
    hand=lambda c, faces, review: f"a {c.record.contract.id} hand, faces {faces}\n",
    sheet=lambda sheet, faces, reviews: f"a sheet of {len(sheet.rows)} hands\n",
    evening=lambda e: f"an evening of {len(e.deals)} deals\n")

_DRAWING = (show_cli, replay_cli, pad_cli)


def _options(command: click.Command) -> dict[str, click.Parameter]:
    return {opt: p for p in command.params for opt in p.opts}


def _commands() -> list[click.Command]:
    show_group = pad_cli.pad.commands["show"]
    return [show_cli.show_command, replay_cli.replay_command, show_group]


@pytest.fixture
def plain_registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """PLAIN listed in the registry, the drawing commands built again from it (and after the
    test, from the registry as it was)."""
    monkeypatch.setattr(formats, "FORMATS", (*FORMATS, PLAIN))
    for module in _DRAWING:
        importlib.reload(module)
    try:
        yield
    finally:
        monkeypatch.undo()
        for module in _DRAWING:
            importlib.reload(module)


def test_every_registered_format_is_an_option_of_the_three_commands() -> None:
    assert [f.name for f in FORMATS] == ["svg", "html"]
    for command in _commands():
        opts = _options(command)
        for fmt in FORMATS:
            assert fmt.flag in opts, (command.name, fmt.flag)
    assert _options(_commands()[2])["--svg"].metavar == "PICTURE"
    assert _options(_commands()[0])["--svg"].metavar == "FILE"


@pytest.mark.usefixtures("plain_registered")
def test_a_registered_format_appears_in_show_replay_and_pad_show(tmp_path: Path) -> None:
    runner = CliRunner()
    for args in (["show", "--help"], ["replay", "--help"], ["pad", "show", "--help"]):
        out = runner.invoke(main, args)
        assert out.exit_code == 0 and "--plain" in out.output, (args, out.output)
    words = " ".join(runner.invoke(main, ["replay", "--help"]).output.split())
    assert "Also write the plain text of the hand, as 'herzla show --plain' draws it" in words
    hand = str(EXAMPLES / "herzla-two-void.json")
    sheet = str(EXAMPLES / "herzeln-partie.json")

    got = tmp_path / "show.txt"
    out = runner.invoke(main, ["show", hand, "--plain", str(got), "--faces", "german"])
    assert out.exit_code == 0, out.output
    assert got.read_text() == "a normal hand, faces german\n"
    assert out.output == f"Wrote the plain text to {got}.\n"

    out = runner.invoke(main, ["show", sheet, "--plain", str(got), "--svg", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    assert got.read_text().startswith("a sheet of ") and (tmp_path / "s").read_text()
    assert out.output.splitlines() == [f"Wrote the picture to {tmp_path / 's'}.",
                                       f"Wrote the plain text to {got}."]

    replayed = tmp_path / "replay.txt"
    out = runner.invoke(main, ["replay", hand, "--plain", str(replayed)])
    assert out.exit_code == 0, out.output
    assert replayed.read_text() == "a normal hand, faces auto\n"
    assert out.output.startswith("herzla normal")  # the answer, as without the file

    ev = str(tmp_path / "evening.json")
    assert runner.invoke(main, ["pad", "new", ev, "--game", "herzla", "--players",
                                "Anna,Berni,Carla,Done"]).exit_code == 0
    assert runner.invoke(main, ["pad", "add", ev, "--hearts", "2,2,2,2"]).exit_code == 0
    text = tmp_path / "evening.txt"
    out = runner.invoke(main, ["pad", "show", ev, "--plain", str(text)])
    assert out.exit_code == 0, out.output
    assert text.read_text() == "an evening of 1 deals\n"
    assert out.output == f"Wrote the plain text to {text}.\n"

    out = runner.invoke(main, ["pad", "show", ev, "--plain", "-", "--html", "-"])
    assert out.exit_code == 2
    assert "--html and --plain cannot both write to standard output" in out.output


def test_without_the_test_format_the_commands_do_not_know_it() -> None:
    out = CliRunner().invoke(main, ["show", str(EXAMPLES / "herzla-two-void.json"),
                                    "--plain", "x"])
    assert out.exit_code == 2 and "--plain" in out.output
