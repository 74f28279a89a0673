"""Hostile input, round 2 (issue 14): one record reader for every command and function, lost
output, tracebacks and wrong exit codes, and the library's errors under wrong arguments."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from herzla.records import RecordError, read_record, replay
from tests.conftest import load_cases
from tests.helpers import invoke, one_error

CASES = [c["record"] for _, c in load_cases() if isinstance(c["record"], dict)]
HERZLA = next(c for c in CASES if c["game"] == "herzla" and c["contract"] == "normal")
ROOT = Path(__file__).parent.parent
SCALE = int(os.environ.get("HERZLA_SLOW_SCALE", "1"))


# -- 1. one record reader ---------------------------------------------------------------------
def _pairs(rec: dict[str, Any], **extra: Any) -> list[list[Any]]:
    """A record as a list of [key, value] pairs, with ``extra`` keys given a second time."""
    return [[k, v] for k, v in rec.items()] + [[k, v] for k, v in extra.items()]


@pytest.mark.parametrize("command", ["solve", "replay"])
def test_a_list_of_key_value_pairs_is_not_a_record(command: str) -> None:
    pairs = json.dumps(_pairs(HERZLA, stock=170))
    lines = json.dumps(HERZLA) + "\n" + pairs + "\n"
    line = one_error(invoke(command, "-", "--seat", "0", stdin=lines) if command == "solve"
                     else invoke(command, "-", stdin=lines))
    assert line == "herzla: error: line 2: a hand record must be a JSON object, not a list"
    whole = invoke(command, "-", *(["--seat", "0"] if command == "solve" else []), stdin=pairs)
    assert "a hand record must be a JSON object, not a list" in one_error(whole)


def test_the_library_reads_records_in_one_place() -> None:
    from herzla import solve

    pairs = _pairs(HERZLA, stock=170)
    for call in (lambda: solve(pairs, seat=0),  # type: ignore[arg-type]
                 lambda: replay(pairs),  # type: ignore[arg-type]
                 lambda: read_record(pairs)):
        with pytest.raises(RecordError, match="must be a JSON object, not a list"):
            call()
    rec = read_record(HERZLA)
    assert read_record(rec) is rec
    assert replay(HERZLA) == replay(rec)
    assert solve(HERZLA, seat=0).value == solve(rec, seat=0).value


def test_no_module_reads_a_record_but_the_reader() -> None:
    """``Record.from_json`` is called by ``read_record`` alone; everything else goes through
    ``read_record`` (so a new reader cannot skip its checks).  The evening's own readers
    (``Entry.from_json``, ``Evening.from_json``) read no record themselves."""
    calls = []
    for path in sorted((ROOT / "herzla").rglob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r"(?<!Entry\.)(?<!Evening\.)\bfrom_json\(", line) and \
                    "def from_json" not in line:
                calls.append(f"{path.relative_to(ROOT)}:{n}")
    assert len(calls) == 1 and calls[0].startswith("herzla/records.py:"), calls


@pytest.mark.parametrize("line", ["null", "[1, 2]", '"abc"', "42", "true"])
@pytest.mark.parametrize("command", ["solve", "replay"])
def test_json_lines_that_are_not_objects(command: str, line: str) -> None:
    stdin = json.dumps(HERZLA) + "\n" + line + "\n"
    seat = ["--seat", "0"] if command == "solve" else []
    result = invoke(command, "-", *seat, stdin=stdin)
    assert "line 2: a hand record must be a JSON object, not" in one_error(result)


@pytest.mark.parametrize("doc", ["null", "42", '"abc"', "true"])
def test_a_document_that_is_not_a_record(doc: str) -> None:
    for args in (["solve", "-", "--seat", "0"], ["replay", "-"]):
        assert "a hand record must be a JSON object, not" in one_error(invoke(*args, stdin=doc))


def test_solve_a_list_names_the_record() -> None:
    line = one_error(invoke("solve", "-", "--seat", "0", stdin=json.dumps([HERZLA, None])))
    assert line == "herzla: error: record 2: a hand record must be a JSON object, not null"


def test_echo_null_into_solve_in_a_real_process() -> None:
    out = subprocess.run([sys.executable, "-m", "herzla", "solve", "-", "--seat", "0"],
                         input=b"null\n", capture_output=True, timeout=60, check=False)
    assert out.returncode == 2
    assert out.stderr.decode().strip() == \
        "herzla: error: a hand record must be a JSON object, not null"



# -- 2. advise reads every item of a hand -----------------------------------------------------
EIGHT = ["CJ", "CT", "C9", "S9", "S8", "HT", "D9", "D8"]


@pytest.mark.parametrize(("extra", "says"), [
    (1, "1 is not a card"),
    (None, "null is not a card"),
    ("XX", '"XX" is not a card code'),
    ([1], "a list is not a card"),
])
def test_advise_refuses_a_hand_with_an_item_that_is_not_a_card(extra: Any, says: str) -> None:
    from herzla import AdviceError, Card, advise

    for hand in ([Card.from_str(c) for c in EIGHT] + [extra], [*EIGHT[:7], extra]):
        with pytest.raises(AdviceError, match=re.escape(says)):
            advise(hand, samples=1, jobs=1)


def test_advise_takes_codes_and_cards_mixed() -> None:
    from herzla import Card, advise

    mixed: list[Any] = [Card.from_str(c) for c in EIGHT[:4]] + EIGHT[4:]
    res = advise(mixed, samples=1, jobs=1, choices=["beddl"])
    assert [str(c) for c in res.hand()] == EIGHT


# -- 3. output that was lost ------------------------------------------------------------------
SAMPLE = f"{sys.executable} -m herzla simulate herzla --hands 300 --seed 2 --jobs 1 --sample 3"


def _shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True,
                          timeout=120, check=False)


def _records_in(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


@pytest.mark.parametrize("name", ["/dev/stdout", pytest.param("/dev/fd/1", marks=pytest.mark.slow),
                                  "/proc/self/fd/1", pytest.param("link", marks=pytest.mark.slow)])
def test_sample_out_to_standard_output_appended_by_the_shell(tmp_path: Path, name: str) -> None:
    (tmp_path / "link").symlink_to("/dev/stdout")
    out = tmp_path / "out.txt"
    out.write_text("kept\n")
    done = _shell(f"{SAMPLE} --sample-out {name} >> out.txt", tmp_path)
    assert done.returncode == 0, done.stderr
    text = out.read_text()
    assert text.startswith("kept\n")
    assert len(_records_in(text)) == 3
    assert "Wrote 3 hand records" in done.stderr  # the answer keeps out of the records
    assert (tmp_path / "link").is_symlink()


def test_sample_out_to_standard_error_appended_by_the_shell(tmp_path: Path) -> None:
    log = tmp_path / "log.txt"
    log.write_text("kept\n")
    done = _shell(f"{SAMPLE} --sample-out /dev/stderr 2>> log.txt", tmp_path)
    assert done.returncode == 0
    text = log.read_text()
    assert text.startswith("kept\n") and len(_records_in(text)) == 3
    assert "Wrote 3 hand records to /dev/stderr" in done.stdout


def test_sample_out_into_a_pipe_the_shell_opened(tmp_path: Path) -> None:
    done = _shell(f"{SAMPLE} --sample-out >(cat > piped.txt) > answer.txt; wait", tmp_path)
    assert done.returncode == 0, done.stderr
    for _ in range(100):  # the process substitution may finish after the command
        if len(_records_in((tmp_path / "piped.txt").read_text())) == 3:
            break
        time.sleep(0.1)
    assert len(_records_in((tmp_path / "piped.txt").read_text())) == 3
    assert "Wrote 3 hand records" in (tmp_path / "answer.txt").read_text()


def test_sample_out_dash_is_standard_output(tmp_path: Path) -> None:
    done = _shell(f"{SAMPLE} --sample-out - | {sys.executable} -m herzla replay - --json",
                  tmp_path)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == 3 and all(a["game"] == "herzla" for a in answers)
    assert "Wrote 3 hand records to standard output" in done.stderr
    assert list(tmp_path.iterdir()) == []  # no file named "-"


def test_sample_out_to_a_closed_descriptor(tmp_path: Path) -> None:
    done = _shell(f"{SAMPLE} --sample-out /dev/fd/7", tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == \
        "herzla: error: --sample-out /dev/fd/7: file descriptor 7 is not open"


# -- 4. tracebacks and wrong exit codes -------------------------------------------------------
def _into_a_closed_pipe(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    """Run herzla with standard output a pipe nobody reads any more (as ``| head -1`` leaves
    it once head is done): its every write fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "herzla", *args], stdout=write,
                              stderr=subprocess.PIPE, input=stdin, timeout=300, check=False)
    finally:
        os.close(write)


EXAMPLE = str(ROOT / "docs" / "examples" / "herzla-two-void.json")
SESSION = str(ROOT / "docs" / "examples" / "herzla-session.json")


def _slow(*args: str) -> Any:
    return pytest.param(list(args), marks=pytest.mark.slow)


@pytest.mark.parametrize("args", [
    ["replay", EXAMPLE], _slow("replay", EXAMPLE, "--json"), _slow("replay", SESSION),
    ["replay", "-"], _slow("solve", EXAMPLE, "--seat", "0"),
    ["solve", "-", "--seat", "0", "--json"],
    ["rules", "herzla"], _slow("rules", "herzla", "--json"), _slow("deal", "herzla", "--seed", "1"),
    _slow("score", "herzla", "normal", "--hearts", "0,3,5,0"),
    _slow("simulate", "herzla", "--hands", "100", "--seed", "1", "--jobs", "1"),
    ["simulate", "herzla", "--hands", "100", "--seed", "1", "--jobs", "1", "--sample", "5",
     "--sample-out", "-"],
    _slow("advise", "herzla", "--hand", " ".join(EIGHT), "--samples", "1", "--jobs", "1",
          "--only", "beddl"),
    ["--help"], _slow("--version"), _slow("replay", "--help"),
])
def test_a_closed_pipe_ends_quietly_with_success(args: list[str]) -> None:
    lines = "\n".join([json.dumps(HERZLA)] * 50).encode()
    out = _into_a_closed_pipe(*args, stdin=lines)
    assert out.returncode == 0, out.stderr
    assert out.stderr == b""


@pytest.mark.parametrize("value", ["inf", "1e308", "nan", "86401"])
@pytest.mark.parametrize("command", [
    ["simulate", "herzla", "--hands", "10"],
    ["simulate", "herzla", "--hands", "10", "--cluster", "tcp://127.0.0.1:1"],
    ["advise", "herzla", "--hand", " ".join(EIGHT), "--samples", "1"],
    ["advise", "herzla", "--hand", " ".join(EIGHT), "--samples", "1", "--cluster",
     "tcp://127.0.0.1:1"],
])
def test_cluster_timeouts_beyond_the_limit(command: list[str], value: str) -> None:
    line = one_error(invoke(*command, "--cluster-timeout", value))
    assert line.startswith("herzla: error: --cluster-timeout must be more than 0 and at most "
                           "86,400 seconds")


def test_cluster_timeouts_in_the_library() -> None:
    from herzla import AdviceError, SimulationError, advise, simulate

    for wait in (float("inf"), float("nan"), 1e308, 0.0, -1.0):
        with pytest.raises(SimulationError, match="cluster timeout"):
            simulate("herzla", hands=10, seed=1, jobs=1, cluster_timeout=wait)
        with pytest.raises(AdviceError, match="cluster timeout"):
            advise(EIGHT, samples=1, jobs=1, cluster_timeout=wait)


def test_advise_plays_on_no_more_processes_than_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    import herzla.machinery.procs

    started: list[int] = []

    def local_map(fn: Any, items: Any, workers: int) -> Any:
        started.append(workers)
        return map(fn, items)

    monkeypatch.setattr(herzla.machinery.procs, "default_jobs", lambda: 2)
    monkeypatch.setattr(herzla.machinery.procs, "local_map", local_map)
    result = invoke("advise", "herzla", "--hand", " ".join(EIGHT), "--samples", "40", "--jobs",
                    "40", "--only", "beddl", "--json")
    assert result.exit_code == 0, result.output
    assert started == [1]  # two processes: this one and one worker
    assert result.stderr.strip() == ("herzla: note: --jobs 40 is more than the 2 cores this "
                                     "process may use; playing on 2")
    again = invoke("simulate", "herzla", "--hands", "100000", "--seed", "1", "--jobs", "40")
    assert again.stderr.strip() == result.stderr.strip()  # the same note, the same code


@pytest.mark.openspiel
@pytest.mark.parametrize(("params", "says"), [
    ({"stock": 2**31}, "parameter stock: 2147483648 is beyond what an OpenSpiel parameter holds"),
    ({"heart_unit": -(2**40)}, "parameter heart_unit: -1099511627776 is beyond"),
    ({"players": -1}, "herzla normal is played by 4 players, not -1"),
    ({"players": 0, "contract": "beddl"}, "herzla beddl is played by 4 players, not 0"),
])
def test_openspiel_parameters_say_what_is_wrong(params: dict[str, Any], says: str) -> None:
    pytest.importorskip("pyspiel")
    from herzla.openspiel import HerzlaGame
    from herzla.options import OptionError

    class Game(HerzlaGame):
        game = "herzla"

    with pytest.raises(OptionError, match=re.escape(says)):
        Game(params)


@pytest.mark.openspiel
def test_openspiel_players_are_checked_before_the_dealer() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import herzla.openspiel  # noqa: F401  (registers the games)
    from herzla.options import OptionError

    with pytest.raises(OptionError, match="herzla-kids normal is played by 3, 4, 5, 6, 7 or 8 "
                                          "players, not -1"):
        pyspiel.load_game("python_herzla_kids(players=-1)")


@pytest.mark.parametrize("text", [
    "\u017fA",  # long s: upper() makes it S
    "C\u212a",  # Kelvin sign: lower() makes it k
    "\u212aing of Hearts",
    "\ufb06",  # the ligature st: upper() makes it ST, Spades Ten
    "\ufb05",  # the ligature long s t
    "Ace of \u017fpades",
    "H\u212a",
])
def test_characters_that_only_fold_to_card_letters_are_not_cards(text: str) -> None:
    from herzla.cards import CardError, parse_card

    with pytest.raises(CardError, match="is not a card code"):
        parse_card(text)
    rec = dict(HERZLA, plays=[text])
    assert "is not a card code" in one_error(invoke("replay", "-", stdin=json.dumps(rec)))


@pytest.mark.parametrize(("text", "code"), [
    ("ha", "HA"), ("h10", "HT"), ("HERZ SAU", "HA"), ("ace OF hearts", "HA"),
    ("KÖNIG of Herz", "HK"), ("GRÜN unter", "SJ"), ("♥ a", "HA"),
])
def test_ascii_case_and_the_german_umlauts_still_fold(text: str, code: str) -> None:
    from herzla.cards import parse_card

    assert str(parse_card(text)) == code


# -- 5. the library's errors ------------------------------------------------------------------
@pytest.mark.parametrize(("call", "error", "says"), [
    (lambda h: h.replay(dict), "RecordError", "must be a JSON object, not type"),
    (lambda h: h.replay({"game": "herzla"}), "RecordError", 'has no "contract"'),
    (lambda h: h.replay(None), "RecordError", "must be a JSON object, not null"),
    (lambda h: h.simulate("herzla", hands=10, seed=1, options=["heart_unit=5"]),
     "SimulationError", "options are a mapping of option names to values, not a list"),
    (lambda h: h.simulate("herzla", hands=True, seed=1), "SimulationError",
     "hands must be a whole number, not true"),
    (lambda h: h.simulate("herzla", hands="10", seed=1), "SimulationError",
     'hands must be a whole number, not "10"'),
    (lambda h: h.simulate("herzla", hands=10, seed=1, jobs="2"), "SimulationError",
     'jobs must be a whole number, not "2"'),
    (lambda h: h.advise({"CJ": 1}), "AdviceError", "not an object"),
    (lambda h: h.advise(None), "AdviceError", "not null"),
    (lambda h: h.advise(list(range(1, 9))), "AdviceError", "1 is not a card"),
    (lambda h: h.advise(EIGHT, choices="beddl"), "AdviceError",
     'choices are a list of contract ids (e.g. ["beddl"]), not "beddl"'),
    (lambda h: h.advise(EIGHT, options=[1]), "AdviceError", "options are a mapping"),
    (lambda h: h.advise(EIGHT, seat="0"), "AdviceError", 'seat must be a whole number, not "0"'),
    (lambda h: h.solve(None), "RecordError", "must be a JSON object, not null"),
    (lambda h: h.solve(HERZLA, seat=0.0), "SolveError", "seat must be a whole number, not 0.0"),
    (lambda h: h.solve(HERZLA, seat=True), "SolveError", "seat must be a whole number, not true"),
    (lambda h: h.solve(HERZLA, seat="1"), "SolveError", 'seat must be a whole number, not "1"'),
    (lambda h: h.deal_record("herzla", "normal", "4", seed=1), "RecordError",
     'players must be a whole number, not "4"'),
    (lambda h: h.deal_record(None, "normal", 4, seed=1), "UnknownContract", "unknown game null"),
    (lambda h: h.get_game(["herzla"]), "UnknownContract", "unknown game a list"),
    (lambda h: h.parse_cards(None), "CardError", "null is not cards"),
    (lambda h: h.register(None), "TypeError", "register takes a contract class or a game"),
    (lambda h: h.policy_of(5), "PolicyError", "a policy is named by text"),
    (lambda h: h.policy_of(None), "PolicyError", "a policy is named by text"),
    (lambda h: h.simulate("herzla", hands=10, seed=1, cluster=""), "SimulationError",
     "the scheduler address '' is empty"),
    (lambda h: h.simulate("herzla", hands=10, seed=1, policy=None), "SimulationError",
     "policy is named by text"),
    (lambda h: h.solve_many([HERZLA], seat=0, cluster="tcp://host:99999"), "SolveError",
     "the scheduler address 'tcp://host:99999': '99999' is not a port (1 to 65535)"),
    (lambda h: h.match("herzla", ["random", "heuristic"], deals=4, seed=1,
                       cluster="tcp://:8786"), "MatchError",
     "the scheduler address 'tcp://:8786' has no host"),
    (lambda h: h.review(HERZLA, cluster="tcp://a b:8786"), "SolveError",
     "'a b' is not a host name or IP address"),
    (lambda h: h.advise(EIGHT, cluster="tcp://host:0"), "AdviceError", "'0' is not a port"),
    (lambda h: h.match("herzla", ["random", "heuristic"], deals=True, seed=1), "MatchError",
     "deals must be a whole number, not true"),
    (lambda h: h.match("herzla", ["random", "heuristic"], deals=0, seed=1), "MatchError",
     "deals must be 1 to 1e+12, not 0"),
    (lambda h: h.deal_record("herzla", "normal", 4, seed=1, declarer=2), "RecordError",
     "herzla normal has no declarer"),
    (lambda h: h.advise(EIGHT, seat=5, choices=["beddl"]), "AdviceError",
     "seat 5 is not a seat of 4 players (seats 0 to 3)"),
    (lambda h: h.review(HERZLA, start=10**6), "SolveError",
     "start must be 0 to 32 (the plays of the record), not 1000000"),
])
def test_wrong_arguments_are_named(call: Any, error: str, says: str) -> None:
    import herzla

    with pytest.raises((ValueError, TypeError), match=re.escape(says)) as caught:
        call(herzla)
    assert type(caught.value).__name__ == error


#: any value of any type, as a careless caller passes it
_ANY = st.one_of(
    st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(), st.text(max_size=10),
    st.binary(max_size=4), st.just(object()), st.just(print),
    st.lists(st.one_of(st.integers(-3, 40), st.text(max_size=3), st.none()), max_size=4),
    st.dictionaries(st.text(max_size=6), st.one_of(st.integers(-3, 40), st.text(max_size=4)),
                    max_size=2),
    st.sampled_from(["herzla", "normal", "beddl", "HA", "CJ CT", "random", "batch", "bidding"]),
)
#: a count of work (hands, samples): small, or beyond every limit, never a long run
_WORK = st.one_of(_ANY.filter(lambda v: not isinstance(v, int) or isinstance(v, bool)),
                  st.integers(-10**30, 30), st.integers(10**12 + 1, 10**30))
_NOT_TEXT = _ANY.filter(lambda v: not isinstance(v, str))  # an address would be dialled


def _end_position() -> dict[str, Any]:
    rec = dict(HERZLA)
    rec["plays"] = list(HERZLA["plays"])[:24]  # two tricks to go: solved at once
    return rec


#: each public function: the arguments of a quick valid call, and what to throw at each
PUBLIC: dict[str, tuple[tuple[Any, ...], dict[str, Any], dict[str, Any]]] = {
    "advise": ((EIGHT,), {"samples": 1, "jobs": 1, "choices": ["beddl"]},
               {"hand": _ANY, "seat": _ANY, "dealer": _ANY, "stock": _ANY, "samples": _WORK,
                "seed": _ANY, "jobs": _ANY, "progress": _ANY, "options": _ANY,
                "choices": _ANY, "cluster": _NOT_TEXT, "cluster_timeout": _ANY, "game": _ANY}),
    "contract_class": (("herzla", "normal"), {}, {"game": _ANY, "contract_id": _ANY}),
    "contract_classes": (("herzla",), {}, {"game": _ANY}),
    "deal_record": (("herzla", "normal", 4, 1), {},
                    {"game": _ANY, "contract_id": _ANY, "players": _ANY, "seed": _ANY,
                     "dealer": _ANY, "declarer": _ANY, "stock": _ANY, "options": _ANY}),
    "get_game": (("herzla",), {}, {"game": _ANY}),
    "parse_cards": (("HA HT",), {}, {"text": _ANY}),
    "policy_of": (("random",), {}, {"text": _ANY}),
    "register": ((None,), {}, {"obj": _ANY}),
    "replay": ((HERZLA,), {}, {"record": _ANY}),
    "simulate": (("herzla", "normal"), {"hands": 20, "seed": 1, "jobs": 1},
                 {"game": _ANY, "contract": _ANY, "hands": _WORK, "seed": _ANY,
                  "players": _ANY, "policy": _ANY, "options": _ANY, "partie": _ANY,
                  "dealer": _ANY, "declarer": _ANY, "stock": _ANY, "jobs": _ANY,
                  "batch_size": _ANY, "engine": _ANY, "sample": _WORK, "block": _WORK,
                  "on_records": _ANY, "progress": _ANY, "cluster": _NOT_TEXT,
                  "cluster_timeout": _ANY, "session": _WORK}),
    "solve": ((_end_position(),), {"seat": 0}, {"record": _ANY, "seat": _ANY, "plays": _ANY}),
    "solve_many": (([_end_position()],), {"seat": 0, "jobs": 1},
                   {"records": _ANY, "seat": _ANY, "plays": _ANY, "jobs": _ANY,
                    "cluster": _NOT_TEXT, "cluster_timeout": _ANY}),
    "match": (("herzla", ["random", "heuristic"]), {"contract": "normal", "deals": 4, "seed": 1,
                                                    "jobs": 1},
              {"game": _ANY, "policies": _ANY, "contract": _ANY, "partie": _ANY, "deals": _WORK,
               "seed": _ANY, "players": _ANY, "options": _ANY, "stock": _ANY, "jobs": _ANY,
               "cluster": _NOT_TEXT, "cluster_timeout": _ANY, "engine": _ANY}),
    "review": ((_end_position(),), {"start": 20},
               {"record": _ANY, "seat": _ANY, "start": _ANY, "jobs": _ANY,
                "cluster": _NOT_TEXT, "cluster_timeout": _ANY}),
}


def test_every_public_function_is_fuzzed() -> None:
    import inspect

    import herzla

    taking = {name for name in herzla.__all__
              if inspect.isfunction(getattr(herzla, name))
              and inspect.signature(getattr(herzla, name)).parameters}
    assert taking == set(PUBLIC)
    for name, (_, _, hostile) in PUBLIC.items():
        assert set(hostile) == set(inspect.signature(getattr(herzla, name)).parameters), name


#: the error each function raises for a wrong argument (by its class's name: herzla's own
#: ValueErrors, and a TypeError where an argument is not even the kind of thing taken), by
#: function, with exceptions by argument
ERRORS: dict[str, str] = {
    "advise": "AdviceError", "contract_class": "UnknownContract",
    "contract_classes": "UnknownContract", "deal_record": "RecordError",
    "get_game": "UnknownContract", "parse_cards": "CardError", "policy_of": "PolicyError",
    "register": "TypeError", "replay": "RecordError", "simulate": "SimulationError",
    "solve": "SolveError", "solve_many": "SolveError", "match": "MatchError",
    "review": "SolveError",
}
ERROR_OF: dict[tuple[str, str], tuple[str, ...]] = {
    ("deal_record", "game"): ("UnknownContract",),
    ("deal_record", "contract_id"): ("UnknownContract",),
    ("solve", "record"): ("RecordError",), ("review", "record"): ("RecordError",),
    # a list that is no list of records, or a record in it that is none
    ("solve_many", "records"): ("SolveError", "RecordError"),
}
#: the words by which a message names an argument (its name, and what it is called in prose)
NAMED: dict[str, tuple[str, ...]] = {
    "contract_id": ("contract",), "text": ("cards", "card", "policy"),
    "obj": ("register takes",), "hand": ("hand", "card"), "record": ("record",),
    "records": ("record",), "cluster": ("cluster", "scheduler address"),
    "cluster_timeout": ("cluster timeout",), "policies": ("polic",),
    "choices": ("choices",), "seat": ("seat",), "game": ("game",),
    "partie": ("partie",), "engine": ("engine",), "options": ("option",),
}
#: what a careless caller passes: each one in turn, for every argument of every public function
WRONG: tuple[Any, ...] = (None, 5, "x", True, 1e300, 2**80, [], {})
#: the wrong values an argument takes all the same (an answer, no error), by their index in
#: WRONG: None where the argument may be left out, 5 where it is a count or a seat of a table
#: of four, 2**80 for jobs (cut to the cores there are, with a note) and for nothing else
_N, _5, _X, _T, _F, _B, _L, _D = range(8)
TAKEN: dict[tuple[str, str], set[int]] = {
    ("advise", "dealer"): {_N}, ("advise", "stock"): {_5}, ("advise", "samples"): {_5},
    ("advise", "seed"): {_5}, ("advise", "jobs"): {_N, _5, _B}, ("advise", "progress"): {_N},
    ("advise", "options"): {_N, _D}, ("advise", "choices"): {_N}, ("advise", "cluster"): {_N},
    ("advise", "cluster_timeout"): {_5},
    ("deal_record", "seed"): {_N, _5}, ("deal_record", "dealer"): {_N},
    ("deal_record", "declarer"): {_N}, ("deal_record", "stock"): {_5},
    ("deal_record", "options"): {_N, _D},
    ("match", "contract"): {_N}, ("match", "deals"): {_5}, ("match", "seed"): {_5},
    ("match", "players"): {_N}, ("match", "options"): {_N, _D}, ("match", "stock"): {_N, _5},
    ("match", "jobs"): {_N, _5, _B}, ("match", "cluster"): {_N},
    ("match", "cluster_timeout"): {_5},
    ("parse_cards", "text"): {_L},
    ("review", "seat"): {_N}, ("review", "start"): {_5}, ("review", "jobs"): {_N, _5, _B},
    ("review", "cluster"): {_N}, ("review", "cluster_timeout"): {_5},
    ("simulate", "contract"): {_N}, ("simulate", "hands"): {_5}, ("simulate", "seed"): {_5},
    ("simulate", "players"): {_N}, ("simulate", "options"): {_N, _D},
    ("simulate", "dealer"): {_N}, ("simulate", "declarer"): {_N},
    ("simulate", "stock"): {_N, _5}, ("simulate", "jobs"): {_N, _5, _B},
    ("simulate", "batch_size"): {_N, _5}, ("simulate", "sample"): {_5},
    ("simulate", "block"): {_5}, ("simulate", "on_records"): {_N}, ("simulate", "progress"): {_N},
    ("simulate", "cluster"): {_N}, ("simulate", "cluster_timeout"): {_5},
    ("simulate", "session"): {_N, _5},
    ("solve", "plays"): {_T},
    ("solve_many", "records"): {_L}, ("solve_many", "plays"): {_T},
    ("solve_many", "jobs"): {_N, _5, _B}, ("solve_many", "cluster"): {_N},
    ("solve_many", "cluster_timeout"): {_5},
}


def _check_refusal(name: str, params: Sequence[str], exc: BaseException) -> None:
    """``exc`` is the error ``name`` raises for a wrong ``params``, and its message names one of
    them, in one line."""
    wanted = {e for p in params for e in ERROR_OF.get((name, p), (ERRORS[name],))}
    assert type(exc).__name__ in wanted, (name, params, type(exc).__name__, str(exc))
    text = str(exc)
    assert text and "\n" not in text, (name, params, text)
    words = [w for p in params for w in (p, p.replace("_", " "), *NAMED.get(p, ()))]
    assert any(w in text for w in words), (name, params, text)


def _cases() -> list[tuple[str, str, int]]:
    import inspect

    import herzla

    return [(name, param, i) for name in sorted(PUBLIC)
            for param in inspect.signature(getattr(herzla, name)).parameters
            for i in range(len(WRONG))]


@pytest.mark.parametrize(("name", "param", "which"), _cases())
def test_each_wrong_argument_gets_its_error(name: str, param: str, which: int) -> None:
    """Every argument of every public function, given each of None, 5, "x", True, 1e300, 2**80,
    [] and {}: an answer where the value is one it takes (TAKEN), else exactly the function's
    error (ValueError or TypeError, ERRORS) with a message naming the argument."""
    import inspect

    import herzla

    fn = getattr(herzla, name)
    args, kwargs, _ = PUBLIC[name]
    bound = inspect.signature(fn).bind_partial(*args, **kwargs).arguments
    bound[param] = WRONG[which]
    if which in TAKEN.get((name, param), set()):
        fn(**bound)
        return
    with pytest.raises((ValueError, TypeError)) as caught:
        fn(**bound)
    _check_refusal(name, [param], caught.value)


@pytest.mark.parametrize("name", sorted(PUBLIC))
@settings(max_examples=40 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_the_public_api(name: str, data: st.DataObject) -> None:
    """Wrong types and values in one or two arguments of each public function: an answer, or the
    function's own error (ERRORS) for one of them, naming it; nothing else."""
    import inspect

    import herzla

    fn = getattr(herzla, name)
    args, kwargs, hostile = PUBLIC[name]
    bound = inspect.signature(fn).bind_partial(*args, **kwargs).arguments
    params = data.draw(st.lists(st.sampled_from(sorted(hostile)), min_size=1, max_size=2,
                                unique=True))
    for param in params:
        bound[param] = data.draw(hostile[param], label=param)
    try:
        fn(**bound)
    except (ValueError, TypeError) as exc:
        _check_refusal(name, params, exc)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=6),
                     lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c,
                                                                         max_size=3),
                     max_leaves=6)


@settings(max_examples=40 * SCALE, deadline=None)
@given(value=_JSON, command=st.sampled_from(["solve", "replay"]))
def test_fuzz_a_json_lines_line_in_solve_and_replay(value: Any, command: str) -> None:
    """Whatever JSON a second line holds, both commands read it by the same reader: a record
    answered, or one line naming the problem (exit 2)."""
    stdin = json.dumps(_end_position()) + "\n" + json.dumps(value) + "\n"
    seat = ["--seat", "0"] if command == "solve" else []
    result = invoke(command, "-", *seat, stdin=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (0, 1, 2), result.output
    if result.exit_code == 2:
        assert one_error(result).startswith("herzla: error: line 2: ")


@pytest.mark.parametrize("args", [
    ["replay", "no\nsuch\u2028file"], ["solve", "a\rb", "--seat", "0"], ["replay", "--bo\ngus"],
    ["simulate", "herzla", "--hands", "10", "--sample", "1", "--sample-out", "/no\n/x"],
])
def test_an_error_naming_what_a_user_wrote_stays_one_line(args: list[str]) -> None:
    line = one_error(invoke(*args))
    assert "\\n" in line or "\\r" in line or "\\u2028" in line


def test_a_notebook_picture_over_the_limit_is_none_not_an_error() -> None:
    """IPython takes None from a ``_repr_*_`` method to mean "show the repr instead"; an
    exception would print a traceback under every such value."""
    from herzla.limits import MAX_DRAWN_HANDS
    from herzla.sheets import score_sheet

    two_void = json.loads((ROOT / "docs/examples/herzla-two-void.json").read_text())
    sheet = score_sheet([two_void] * (MAX_DRAWN_HANDS + 1))
    assert sheet._repr_svg_() is None
    small = score_sheet([two_void] * 2)._repr_svg_()
    assert small is not None and small.startswith("<svg")


@pytest.mark.parametrize(("args", "says"), [
    (["simulate", "herzla", "--hands", "10", "--seed", "1", "--cluster", ""],
     "the scheduler address '' is empty"),
    (["match", "herzla", "--policies", "random,heuristic", "--deals", "2", "--seed", "1",
      "--cluster", "tcp://host:99999"], "'99999' is not a port (1 to 65535)"),
    (["solve", str(ROOT / "docs/examples/herzla-two-void-trick6.json"), "--seat", "0",
      "--cluster", "tcp://no host:8786"], "'no host' is not a host name or IP address"),
])
def test_a_cluster_address_is_checked_before_any_work(args: list[str], says: str) -> None:
    assert says in one_error(invoke(*args))
