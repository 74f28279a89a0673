"""A broken plug-in contract is a warning and the rest works: the registry checks each plug-in's
classes and games as it takes them in (tests/plugins/broken_contracts.py), and every contract
checks its declaration against the limits when it is made."""

from __future__ import annotations

import importlib
import json
import re
import warnings
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path
from typing import Any

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from herzla import contracts as registry
from herzla.cards import HEARTS_MASK
from herzla.cli import main
from herzla.contracts import (
    CardValue,
    Game,
    PluginError,
    PluginWarning,
    TrickContract,
    contract_class,
    contract_classes,
    games,
)
from herzla.contracts import checks as checks_module
from herzla.contracts.checks import DeclarationError, check_contract_class, check_game
from herzla.limits import MAX_HAND_AMOUNT
from herzla.options import Option, OptionError
from tests.helpers import invoke, one_error

PLUGINS = Path(__file__).parent / "plugins"

#: entry point name -> (the class, what the warning says after "is skipped: ")
BROKEN = {
    "Raises": ("broken/raises", "with 4 players and the default options: RuntimeError: no "
                                "declaration today"),
    "HerzlaRaises": ("herzla/raises", "with 4 players and the default options: RuntimeError: "
                                      "no declaration today"),
    "NoSeats": ("broken/no-seats", "player_counts holds 0: a table has 2 to 8 seats"),
    "FortySeats": ("broken/forty-seats", "player_counts holds 40: a table has 2 to 8 seats"),
    "TinyPack": ("broken/tiny-pack", "with 6 players its pack of 4 cards deals nobody a card"),
    "Huge": ("broken/huge", "with 4 players and the default options: the value of a heart, "
                            "-4,611,686,018,427,387,904, is beyond ±1,000,000,000,000"),
    "Scaled": ("broken/scaled", "with 4 players and penalty=1,000,000,000,000: a hand can move "
                                "36,000,000,000,000 at most, beyond the limit of "
                                "35,184,372,088,832"),
    "FewPlaces": ("broken/few-places", "with 4 players and the default options: places must "
                                       "give the points of each of the 4 places"),
    "Nameless": ("Nameless", "the class attribute id must be set (text)"),
    "BadDefault": ("broken/bad-default", "its default is refused: option penalty: "
                                         "1000000000000000 is more than 1,000,000,000,000"),
}
SOUND = ["Capped", "Gold"]


def _entry_points() -> list[EntryPoint]:
    from importlib.metadata import entry_points

    ours = [EntryPoint(n, f"broken_contracts:{n}", registry.GROUP) for n in [*BROKEN, *SOUND]]
    ours.append(EntryPoint("gilded", "broken_contracts:GILDED", registry.GROUP))
    ours.append(EntryPoint("missing", "no_such_plugin_module", registry.GROUP))
    return [*entry_points(group=registry.GROUP), *ours]


@pytest.fixture
def broken(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The registry loaded afresh with the broken plug-ins (and two sound ones) installed;
    yields the warning lines it gave.  Restored afterwards."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setattr(registry, "_entry_points", _entry_points)
    monkeypatch.setattr(registry, "_registry", None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        registry.games()
    assert all(issubclass(w.category, PluginWarning) for w in caught), caught
    yield [str(w.message) for w in caught]


def test_each_broken_plugin_is_one_warning_naming_it_and_why(broken: list[str]) -> None:
    for name, (key, why) in BROKEN.items():
        said = [w for w in broken if f"(broken_contracts.{name})" in w]
        assert said == [f"the contract {key} (broken_contracts.{name}) is skipped: {why}"], name
    assert "the game gilded (broken_contracts) is skipped: its partie of 3 deals is not 0 to " \
           "its 1 contracts" in broken
    assert any(w.startswith("the contract entry point 'missing' is skipped: it failed to load: "
                            "ModuleNotFoundError: ") for w in broken)
    assert len(broken) == len(BROKEN) + 2


def test_the_rest_works_beside_broken_plugins(broken: list[str]) -> None:
    assert games()[:4] == ["herzla", "herzla-kids", "herzeln", "herzerln"]
    assert {"sound", "gold"} <= set(games()) and "broken" not in games()
    assert "gilded" not in games()
    assert contract_class("sound", "capped").id == "capped"
    assert [c.id for c in contract_classes("herzla")] == ["normal", "beddl", "mord"]
    for args in (["rules"], ["rules", "herzla"], ["rules", "sound"],
                 ["deal", "herzla", "--seed", "1"], ["deal", "sound", "--seed", "1"],
                 ["simulate", "gold", "--hands", "20", "--seed", "1", "--jobs", "1",
                  "--no-progress"], ["--help"]):
        result = invoke(*args)
        assert result.exit_code == 0, (args, result.output)
        assert result.exception is None or isinstance(result.exception, SystemExit), args
    entry = invoke("rules", "sound", "capped")
    assert "Option penalty=N (a whole number 0 to 1000, default 5): points lost per card " \
           "captured." in " ".join(entry.stdout.split())
    option = json.loads(invoke("rules", "sound", "capped", "--json").stdout)["entries"][0][
        "options"][0]
    assert (option["minimum"], option["maximum"]) == (0, 1000)
    assert one_error(invoke("deal", "sound", "--seed", "1", "-o", "penalty=1001")) == (
        "herzla: error: option penalty: 1001 is more than 1000")
    shell = ShellComplete(main, {}, "herzla", "_HERZLA_COMPLETE")
    assert "sound" in [i.value for i in shell.get_completions(["deal"], "")]
    assert [i.value for i in shell.get_completions(["deal", "sound", "-c"], "")] == ["capped"]


def test_the_command_line_shows_a_skipped_plugin_as_one_warning_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setattr(registry, "_entry_points", lambda: [
        *_entry_points()[:-len(BROKEN) - len(SOUND) - 2],
        EntryPoint("Raises", "broken_contracts:Raises", registry.GROUP)])
    monkeypatch.setattr(registry, "_registry", None)
    result = invoke("deal", "herzla", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["game"] == "herzla"
    assert result.stderr.splitlines() == [
        "herzla: warning: the contract broken/raises (broken_contracts.Raises) is skipped: with "
        "4 players and the default options: RuntimeError: no declaration today"]


@pytest.mark.usefixtures("builtin_registry")
def test_register_refuses_a_broken_class_with_the_same_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PLUGINS))
    broken_contracts = importlib.import_module("broken_contracts")

    for name, (key, why) in BROKEN.items():
        with pytest.raises(PluginError) as caught:
            registry.register(getattr(broken_contracts, name))
        assert str(caught.value) == f"the contract {key} (broken_contracts.{name}): {why}"
    assert "broken" not in games()
    registry.register(broken_contracts.Capped)
    assert contract_class("sound", "capped") is broken_contracts.Capped


def test_herzlas_own_contracts_pass_the_checks_at_the_limits_of_their_options() -> None:
    for game in games()[:4]:
        for cls in contract_classes(game):
            check_contract_class(cls)
            for n in cls.player_counts:
                top = {o.name: o.highest for o in cls.options
                       if type(o.default) is int}
                worst = cls(n, top, 0 if cls.needs_declarer else None).amount_bound()
                assert 0 <= worst <= MAX_HAND_AMOUNT // 2, (cls, worst)  # a margin of 2
        check_game(registry.get_game(game))
    normal = contract_class("herzla", "normal")
    assert normal(4, {"heart_unit": 10**12}).amount_bound() == 16 * 10**12


class _Scaled(TrickContract):
    game = "test-scaled"
    id = "scaled"
    options = (Option("penalty", 5, minimum=0, maximum=10**6),)

    def declare(self) -> Any:
        import attrs

        value = CardValue(HEARTS_MASK, -int(self.opts["penalty"]) * 10**6, "heart")
        return attrs.evolve(super().declare(), values=(value,))


def test_a_contract_checks_its_declaration_when_made() -> None:
    check_contract_class(_Scaled)  # at most 8 * 10**12 a hand
    assert _Scaled(4, {"penalty": 10**6}).amount_bound() == 8 * 10**12
    with pytest.raises(OptionError, match=re.escape("option penalty: 1000001 is more than "
                                                    "1000000")):
        _Scaled(4, {"penalty": 10**6 + 1})

    class Wider(_Scaled):
        options = (Option("penalty", 5, minimum=0, maximum=10**7),)

    with pytest.raises(DeclarationError, match=re.escape(
            "test-scaled scaled with penalty=10000000: the value of a heart, "
            "-10,000,000,000,000, is beyond ±1,000,000,000,000")):
        Wider(4, {"penalty": 10**7})
    with pytest.raises(PluginError, match=re.escape("with 4 players and penalty=10,000,000: "
                                                    "the value of a heart")):
        check_contract_class(Wider)


def test_a_declare_that_raises_later_is_an_option_error_not_a_traceback() -> None:
    class Moody(_Scaled):
        def declare(self) -> Any:
            if self.opts["penalty"] == 7:
                raise ZeroDivisionError("seven")
            return super().declare()

    check_contract_class(Moody)
    with pytest.raises(OptionError, match=r"^test-scaled scaled: ZeroDivisionError: seven$"):
        Moody(4, {"penalty": 7})


def test_an_option_without_a_minimum_stays_within_the_limit() -> None:
    free = Option("bonus", 0)
    assert (free.lowest, free.highest) == (-10**12, 10**12)
    with pytest.raises(OptionError, match=re.escape("option bonus: -1000000000001 is less than "
                                                    "-1,000,000,000,000")):
        free.parse(-10**12 - 1)
    assert free.parse("-1000000000000") == -10**12


def test_a_partie_beyond_the_limit_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    class Big(TrickContract):
        game = "test-big"
        id = "big"
        values = (CardValue(HEARTS_MASK, -10**12, "heart"),)

    class Bigger(Big):
        id = "bigger"

    class BigGame(Game):
        id = "test-big"
        partie = 2

    check_game(BigGame([Big, Bigger]))  # 1.6 * 10**13 a partie
    monkeypatch.setattr(checks_module, "MAX_PARTIE_AMOUNT", 10**13)
    with pytest.raises(PluginError, match=re.escape(
            "the game test-big (tests.test_plugin_checks): a partie of 4 players can move "
            "16,000,000,000,000 at most, beyond the limit of 10,000,000,000,000")):
        check_game(BigGame([Big, Bigger]))


def test_a_plugin_error_pickles_for_worker_processes() -> None:
    import pickle

    err = PluginError("the contract x/y (m.C)", "why")
    back = pickle.loads(pickle.dumps(err))
    assert (back.what, back.why, str(back)) == (err.what, err.why, str(err))
    decl = DeclarationError("x y: why", "why")
    assert pickle.loads(pickle.dumps(decl)).problem == "why"
    assert issubclass(PluginError, ValueError) and issubclass(DeclarationError, OptionError)


@pytest.mark.usefixtures("builtin_registry")
def test_a_wrapping_amount_is_refused_not_summed(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the issue saw: a -2**62 heart simulated to a mean of 0, a seat maximum of +2**62
    and "Scores: seat 0 0" beside a -2**64 capture.  Now neither registry nor contract takes
    it."""

    class HugeHearts(TrickContract):
        game = "test-huge"
        id = "huge"
        values = (CardValue(HEARTS_MASK, -(2**62), "heart"),)

    monkeypatch.setattr(registry, "_registry", dict(registry._load()))
    with pytest.raises(PluginError, match=re.escape(
            "the contract test-huge/huge (tests.test_plugin_checks."
            "test_a_wrapping_amount_is_refused_not_summed.<locals>.HugeHearts): with 4 players "
            "and the default options: the value of a heart, -4,611,686,018,427,387,904, is "
            "beyond ±1,000,000,000,000")):
        registry.register(HugeHearts)
    with pytest.raises(OptionError, match=r"^test-huge huge: the value of a heart, "):
        HugeHearts(4)


def test_tab_completion_beside_a_broken_plugin_prints_no_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The shell shows what standard error gets while it completes: nothing but the words."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.setattr(registry, "_entry_points", _entry_points)
    monkeypatch.setattr(registry, "_registry", None)
    result = CliRunner().invoke(main, [], env={"_HERZLA_COMPLETE": "bash_complete",
                                               "COMP_WORDS": "herzla deal so", "COMP_CWORD": "2"},
                             prog_name="herzla")
    assert result.exit_code == 0, result.output
    assert result.stdout.split() == ["plain,sound"]
    assert result.stderr == ""


def test_a_game_with_a_broken_contract_is_skipped_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PLUGINS))
    broken_contracts = importlib.import_module("broken_contracts")

    class Ruined(Game):
        id = "ruined"
        partie = 1

    class RuinedDeal(broken_contracts.Raises):  # type: ignore[name-defined,misc]
        game = "ruined"
        id = "deal"

    monkeypatch.setattr(registry, "_registry", dict(registry._load()))
    with pytest.raises(PluginError, match=re.escape(
            "the game ruined (tests.test_plugin_checks): the contract ruined/deal (tests."
            "test_plugin_checks.test_a_game_with_a_broken_contract_is_skipped_whole.<locals>."
            "RuinedDeal): with 4 players and the default options: RuntimeError: no declaration "
            "today")):
        registry.register(Ruined([RuinedDeal]))
    assert "ruined" not in games()
