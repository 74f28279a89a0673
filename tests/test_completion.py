"""Shell completion (:mod:`herzla.cli.complete`): the games, contracts, policies, choices, options
and rule words complete from the registries, and the lines docs/cli.md gives for bash, zsh and
fish switch it on."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import herzla
from herzla.cli import main
from herzla.contracts import contract_classes, games

ROOT = Path(__file__).resolve().parents[1]


def _complete(args: list[str], incomplete: str) -> list[str]:
    from click.shell_completion import ShellComplete

    shell = ShellComplete(main, {}, "herzla", "_HERZLA_COMPLETE")
    return [item.value for item in shell.get_completions(args, incomplete)]


@pytest.mark.parametrize("command", ["simulate", "deal", "score", "advise", "rules"])
def test_games_complete(command: str) -> None:
    assert set(games()) <= set(_complete([command], ""))
    assert _complete([command], "herzl") == [g for g in games() if g.startswith("herzl")]


@pytest.mark.parametrize("game", games())
def test_contracts_complete(game: str) -> None:
    ids = [c.id for c in contract_classes(game)]
    assert _complete(["score", game], "") == ids
    assert _complete(["simulate", game, "--contract"], "") == ids
    assert _complete(["deal", game, "-c"], "") == ids


def test_policies_choices_and_options_complete() -> None:
    # the players' own, then those registered from above (the searching players)
    assert _complete(["simulate", "herzla", "--policy"], "") == ["random", "heuristic", "net",
                                                                 "pimc", "ipimc", "expert"]
    assert _complete(["advise", "herzla", "--only"], "b") == ["beddl"]
    names = [o.name + "=" for o in herzla.get_game("herzeln").options]
    assert _complete(["simulate", "herzeln", "-o"], "") == names
    assert _complete(["score", "herzla", "normal", "--option"], "stock_payout=n") == [
        "stock_payout=never"]
    assert _complete(["simulate", "herzeln", "-o"], "domino_wrap=") == [
        "domino_wrap=true", "domino_wrap=false"]


def test_rule_words_complete() -> None:
    assert "follow-suit" in _complete(["rules"], "fol")
    assert "herzla/stock-payout" in _complete(["rules"], "herzla/st")
    assert _complete(["rules", "herzeln"], "corn") == ["corner"]


@pytest.mark.parametrize(("shell", "marker"), [("bash", "complete -o"), ("zsh", "#compdef herzla"),
                                               ("fish", "complete --no-files --command herzla")])
def test_the_documented_completion_lines(shell: str, marker: str) -> None:
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert f"_HERZLA_COMPLETE={shell}_source herzla" in doc
    res = CliRunner().invoke(main, [], env={"_HERZLA_COMPLETE": f"{shell}_source"},
                             prog_name="herzla")
    assert res.exit_code == 0 and marker in res.stdout
