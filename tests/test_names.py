"""Forgiving names (issue 23): games, contracts, policies, options, their values and commands
are read in any case, and a typo is answered with "did you mean ...?" (herzla.names), by every
command and every library entry point that takes a name."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from herzla.cli import main
from herzla.contracts import UnknownContract, contract_class, games, get_game
from herzla.names import UnknownName, close_names, did_you_mean, find_name, fold, read_name
from herzla.options import Option, OptionError, given_options, resolve_options
from herzla.players.registry import policy_of, spelled
from herzla.records import read_record

EXAMPLES = Path(__file__).parents[1] / "docs" / "examples"
TWO_VOID = json.loads((EXAMPLES / "herzla-two-void.json").read_text(encoding="utf-8"))


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin, prog_name="herzla")


def untimed(text: str) -> str:
    """An answer without its timing (which differs from run to run)."""
    return re.sub(r"[\d.,]+ (s\b|hands/s)", "", text)


def error_line(res: Result) -> str:
    assert res.exit_code == 2, res.output
    lines = res.stderr.splitlines()
    assert len(lines) == 1, lines
    assert res.stdout == ""
    return lines[0]


# -- the helper -------------------------------------------------------------------------------
def test_the_helper_reads_any_case_and_suggests() -> None:
    known = ["herzla", "herzla-kids", "herzeln", "herzerln"]
    assert find_name("HERZLA", known) == "herzla"
    assert find_name(" Herzeln ", known) == "herzeln"
    assert find_name("herzl", known) is None
    assert find_name(3, known) is None
    assert close_names("herzl", known) == ["herzla", "herzla-kids"]
    assert close_names("herzlen", known)[0] == "herzeln"
    assert did_you_mean("xyzzy", known) == ""
    with pytest.raises(UnknownName, match=r'unknown game "herzl" \(did you mean herzla or '
                                          r'herzla-kids\? known: '):
        read_name("herzl", known, "game")


def test_only_ascii_letters_fold() -> None:
    """The Kelvin sign folds to k in Unicode; it is no letter of a name here."""
    assert fold("\u212a") != "k"
    assert find_name("herzla-\u212aids", ["herzla-kids"]) is None


@given(st.sampled_from(["herzla", "herzla-kids", "herzeln", "herzerln"]),
       st.lists(st.booleans(), min_size=12, max_size=12))
def test_every_casing_of_a_game_is_the_game(game: str, upper: list[bool]) -> None:
    typed = "".join(c.upper() if u else c for c, u in zip(game, upper, strict=False))
    assert get_game(typed).id == game


# -- the library's entry points ---------------------------------------------------------------
def test_library_names_in_any_case() -> None:
    assert get_game("Herzla").id == "herzla"
    assert contract_class("HERZLA", "Beddl").id == "beddl"
    assert contract_class("herzeln", "No-Hearts").id == "no-hearts"
    assert policy_of("Heuristic").spec() == "heuristic"
    assert policy_of("PIMC[Samples=4]").spec() == "pimc[samples=4]"
    assert spelled("Random,HEURISTIC") == "random,heuristic"
    opts = resolve_options(get_game("herzla").options, {"Heart_Unit": "5",
                                                        "stock_payout": "NEVER"})
    assert opts["heart_unit"] == 5 and opts["stock_payout"] == "never"


def test_library_typos_get_suggestions() -> None:
    with pytest.raises(UnknownContract, match="did you mean herzla or herzla-kids"):
        get_game("herzl")
    with pytest.raises(UnknownContract, match='"bedl" is not a herzla contract '
                                              r'\(did you mean beddl\?'):
        contract_class("herzla", "bedl")
    with pytest.raises(ValueError, match=r"did you mean heuristic\?"):
        policy_of("heuristc")
    with pytest.raises(ValueError, match=r"did you mean samples\?"):
        policy_of("pimc[sampels=4]")
    options = get_game("herzla").options
    with pytest.raises(OptionError, match=r"did you mean stock_payout\?"):
        resolve_options(options, {"stok_payout": "never"})
    with pytest.raises(OptionError, match=r"did you mean never\?"):
        resolve_options(options, {"stock_payout": "nevr"})
    with pytest.raises(OptionError, match="given twice"):
        given_options(options, {"heart_unit": 5, "Heart_Unit": 6})
    assert Option("x", "a", choices=("alpha", "beta")).parse("BETA") == "beta"


def test_a_record_names_its_game_in_any_case() -> None:
    rec = read_record({**TWO_VOID, "game": "Herzla", "contract": "NORMAL",
                       "options": {"Heart_Unit": 10}})
    assert (rec.game, rec.contract_id, dict(rec.options)) == ("herzla", "normal",
                                                               {"heart_unit": 10})
    assert rec.to_json()["game"] == "herzla"


# -- every command ----------------------------------------------------------------------------
def test_commands_in_any_case_and_typos() -> None:
    assert run("Replay", "--help").exit_code == 0
    assert run("SIMULATE", "herzla", "-n", "10", "--seed", "1", "--jobs", "1").exit_code == 0
    line = error_line(run("sim", "herzla"))
    assert 'no command "sim" (did you mean simulate?' in line
    line = error_line(run("replya", "x.json"))
    assert "did you mean replay?" in line


@pytest.mark.parametrize("args", [
    ["simulate", "{game}", "-n", "10", "--seed", "1", "--jobs", "1"],
    ["deal", "{game}", "--seed", "1"],
    ["score", "{game}", "normal", "--hearts", "0,3,5,0"],
    ["rules", "{game}", "beddl"],
    ["match", "{game}", "--policies", "random,heuristic", "--contract", "normal", "--deals",
     "2", "--seed", "1", "--jobs", "1"],
    ["advise", "{game}", "--hand", "CJ CT C9 S9 S8 HT D9 D8", "--samples", "2", "--only",
     "beddl"],
])
def test_every_command_takes_a_game_in_any_case(args: list[str]) -> None:
    good = run(*(a.format(game="herzla") for a in args))
    assert good.exit_code == 0, good.output
    shouted = run(*(a.format(game="Herzla") for a in args))
    assert shouted.exit_code == 0, shouted.output
    assert untimed(shouted.stdout) == untimed(good.stdout)
    assert "did you mean herzla" in error_line(run(*(a.format(game="herzl") for a in args)))


@pytest.mark.parametrize("args,hint", [
    (["simulate", "herzla", "--contract", "bedl"], "did you mean beddl?"),
    (["simulate", "herzla", "--policy", "heuristc"], "did you mean heuristic?"),
    (["simulate", "herzla", "-o", "stok_payout=never"], "did you mean stock_payout?"),
    (["simulate", "herzla", "-o", "stock_payout=nevr"], "did you mean never?"),
    (["simulate", "herzla", "--engine", "bach"], "did you mean batch?"),
    (["deal", "herzla", "--contract", "Mordd", "--seed", "1"], "did you mean mord?"),
    (["score", "herzla", "bedl", "--lost", "--declarer", "0"], "did you mean beddl?"),
    (["match", "herzla", "--policies", "random,heuristc"], "did you mean heuristic?"),
    (["advise", "herzla", "--hand", "CJ CT C9 S9 S8 HT D9 D8", "--only", "bedl"],
     "did you mean beddl?"),
    (["show", "-", "--faces", "germn"], "did you mean german?"),
    (["rules", "herzl"], "did you mean herzla"),
])
def test_typos_get_suggestions(args: list[str], hint: str) -> None:
    line = error_line(run(*args, stdin=json.dumps(TWO_VOID)))
    assert line.startswith("herzla: error: ") and hint in line


@pytest.mark.parametrize("command", ["replay", "show", "solve",
                                     pytest.param("review", marks=pytest.mark.slow)])
def test_record_commands_read_names_in_any_case(command: str) -> None:
    extra = ["--seat", "1"] if command == "solve" else []
    trick6 = json.loads((EXAMPLES / "herzla-two-void-trick6.json").read_text(encoding="utf-8"))
    good = run(command, "-", *extra, stdin=json.dumps(trick6))
    assert good.exit_code == 0, good.output
    shouted = {**trick6, "game": "HERZLA", "contract": "Normal"}
    res = run(command, "-", *extra, stdin=json.dumps(shouted))
    assert res.exit_code == 0, res.output
    assert res.stdout == good.stdout
    typo = {**trick6, "contract": "normall"}
    assert "did you mean normal?" in error_line(run(command, "-", *extra,
                                                    stdin=json.dumps(typo)))


def test_options_are_written_as_the_game_spells_them() -> None:
    res = run("deal", "herzla", "--seed", "1", "-o", "Heart_Unit=5", "-o", "STOCK_PAYOUT=Never")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["options"] == {"heart_unit": 5, "stock_payout": "never"}


def test_games_registry_names_are_known() -> None:
    """The suggestions come from the registry: every game is suggested for its own typo."""
    for game in games():
        assert game in did_you_mean(game[:-1] + "x", games()), game


def test_rule_ids_in_any_case_and_typos() -> None:
    from herzla.rulebook import UnknownTopic, get_rule

    assert get_rule("Herzla/Beddl").id == "herzla/beddl"
    assert get_rule("FOLLOW-SUIT").id == "follow-suit"
    with pytest.raises(UnknownTopic, match=r"did you mean herzla/stock-payout\?"):
        get_rule("herzla/stok-payout")
    assert run("rules", "Herzla/Stock-Payout").exit_code == 0
    assert "did you mean herzla/beddl?" in error_line(run("rules", "herzla/bedl"))
