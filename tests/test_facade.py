"""The public facade (``import herzla``): its lazy names in ``dir()`` and ``help()``, and its
public functions under wrong arguments: each wrong value of each argument of each public function
gets exactly that function's error, in one line naming the argument, or an answer where the
argument takes the value; hypothesis then throws values of any type at one or two arguments at a
time."""

from __future__ import annotations

import pydoc
import re
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import herzla
from tests.helpers import EIGHT, HERZLA, SCALE, two_tricks_to_go
from tests.shares import some_in_default


# -- the package namespace --------------------------------------------------------------------
def test_dir_lists_the_lazy_names() -> None:
    names = dir(herzla)
    for name in ("simulate", "solve", "advise", "SimResult", "SolveResult", "AdviceResult"):
        assert name in names
    assert "Any" not in names and "TYPE_CHECKING" not in names
    assert not hasattr(herzla, "Any") and not hasattr(herzla, "TYPE_CHECKING")


def test_help_shows_the_lazy_functions() -> None:
    text = pydoc.plain(pydoc.render_doc(herzla))
    for name in ("simulate", "solve", "advise"):
        assert f"{name}(" in text


# -- the public functions under wrong arguments -----------------------------------------------
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
     "policy is a name"),
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


#: each public function: the arguments of a quick valid call, and what to throw at each
PUBLIC: dict[str, tuple[tuple[Any, ...], dict[str, Any], dict[str, Any]]] = {
    "advise": ((EIGHT,), {"samples": 1, "jobs": 1, "choices": ["beddl"]},
               {"hand": _ANY, "seat": _ANY, "dealer": _ANY, "stock": _ANY, "samples": _WORK,
                "seed": _ANY, "jobs": _ANY, "progress": _ANY, "options": _ANY,
                "choices": _ANY, "cluster": _NOT_TEXT, "cluster_timeout": _ANY, "game": _ANY,
                "model": _ANY, "exact": _ANY}),
    "contract_class": (("herzla", "normal"), {}, {"game": _ANY, "contract_id": _ANY}),
    "contract_classes": (("herzla",), {}, {"game": _ANY}),
    "deal_record": (("herzla", "normal", 4, 1), {},
                    {"game": _ANY, "contract_id": _ANY, "players": _ANY, "seed": _ANY,
                     "dealer": _ANY, "declarer": _ANY, "stock": _ANY, "options": _ANY}),
    "get_game": (("herzla",), {}, {"game": _ANY}),
    "parse_cards": (("HA HT",), {}, {"text": _ANY}),
    "play": (("herzla",), {"policies": "random", "seed": 1},
             {"deal": _ANY, "policies": _ANY, "seed": _ANY, "contract": _ANY, "players": _ANY,
              "dealer": _ANY, "stock": _ANY, "options": _ANY}),
    "policy_of": (("random",), {}, {"text": _ANY}),
    "register": ((None,), {}, {"obj": _ANY}),
    "replay": ((HERZLA,), {}, {"record": _ANY}),
    "simulate": (("herzla", "normal"), {"hands": 20, "seed": 1, "jobs": 1},
                 {"game": _ANY, "contract": _ANY, "hands": _WORK, "seed": _ANY,
                  "players": _ANY, "policy": _ANY, "options": _ANY, "partie": _ANY,
                  "dealer": _ANY, "declarer": _ANY, "stock": _ANY, "jobs": _ANY,
                  "batch_size": _ANY, "engine": _ANY, "sample": _WORK, "block": _WORK,
                  "on_records": _ANY, "progress": _ANY, "cluster": _NOT_TEXT,
                  "cluster_timeout": _ANY, "session": _WORK, "rows": _ANY}),
    "solve": ((two_tricks_to_go(),), {"seat": 0}, {"record": _ANY, "seat": _ANY, "plays": _ANY}),
    "solve_many": (([two_tricks_to_go()],), {"seat": 0, "jobs": 1},
                   {"records": _ANY, "seat": _ANY, "plays": _ANY, "jobs": _ANY,
                    "cluster": _NOT_TEXT, "cluster_timeout": _ANY}),
    "match": (("herzla", ["random", "heuristic"]), {"contract": "normal", "deals": 4, "seed": 1,
                                                    "jobs": 1},
              {"game": _ANY, "policies": _ANY, "contract": _ANY, "partie": _ANY, "deals": _WORK,
               "seed": _ANY, "players": _ANY, "options": _ANY, "stock": _ANY, "jobs": _ANY,
               "cluster": _NOT_TEXT, "cluster_timeout": _ANY, "engine": _ANY}),
    "language": (("de",), {}, {"code": _ANY}),
    "review": ((two_tricks_to_go(),), {"start": 20},
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
    "play": "RecordError",
    "register": "TypeError", "replay": "RecordError", "simulate": "SimulationError",
    "solve": "SolveError", "solve_many": "SolveError", "match": "MatchError",
    "review": "SolveError", "language": "UnknownLanguage",
}
ERROR_OF: dict[tuple[str, str], tuple[str, ...]] = {
    ("deal_record", "game"): ("UnknownContract",),
    ("deal_record", "contract_id"): ("UnknownContract",),
    ("play", "policies"): ("PolicyError",),
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
    "deal": ("deal", "game", "record"),
    "partie": ("partie",), "rows": ("rows",), "engine": ("engine",), "options": ("option",),
    "code": ("language",),
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
    ("advise", "cluster_timeout"): {_5}, ("advise", "exact"): {_5},
    ("deal_record", "players"): {_N},
    ("deal_record", "seed"): {_N, _5}, ("deal_record", "dealer"): {_N},
    ("deal_record", "declarer"): {_N}, ("deal_record", "stock"): {_5},
    ("deal_record", "options"): {_N, _D},
    ("match", "contract"): {_N}, ("match", "deals"): {_5}, ("match", "seed"): {_5},
    ("match", "players"): {_N}, ("match", "options"): {_N, _D}, ("match", "stock"): {_N, _5},
    ("match", "jobs"): {_N, _5, _B}, ("match", "cluster"): {_N},
    ("match", "cluster_timeout"): {_5},
    ("parse_cards", "text"): {_L},
    ("play", "contract"): {_N}, ("play", "players"): {_N}, ("play", "seed"): {_N, _5},
    ("play", "dealer"): {_N}, ("play", "stock"): {_5}, ("play", "options"): {_N, _D},
    ("review", "seat"): {_N}, ("review", "start"): {_5}, ("review", "jobs"): {_N, _5, _B},
    ("review", "cluster"): {_N}, ("review", "cluster_timeout"): {_5},
    ("simulate", "contract"): {_N}, ("simulate", "hands"): {_5}, ("simulate", "seed"): {_5},
    ("simulate", "players"): {_N}, ("simulate", "options"): {_N, _D},
    ("simulate", "dealer"): {_N}, ("simulate", "declarer"): {_N},
    ("simulate", "stock"): {_N, _5}, ("simulate", "jobs"): {_N, _5, _B},
    ("simulate", "batch_size"): {_N, _5}, ("simulate", "sample"): {_5},
    ("simulate", "block"): {_5}, ("simulate", "on_records"): {_N}, ("simulate", "progress"): {_N},
    ("simulate", "cluster"): {_N}, ("simulate", "cluster_timeout"): {_5},
    ("simulate", "session"): {_N, _5}, ("simulate", "rows"): {_T},
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


@pytest.mark.parametrize(("name", "param", "which"),
                         some_in_default(_cases(), kind=lambda case: case[0]))
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
