"""A plug-in policy that answers what is not a move, or raises, is refused in one line naming it
and what it answered, wherever a policy is asked (the reference engine, the batch engine's
fallback to it, a match, the bidding); its parameters are read by their declared types."""

from __future__ import annotations

import re

import pytest

import herzla
from herzla.cards import Card, cards_of
from herzla.contracts import LayoutContract, contract_class
from herzla.hand import PASS, Move
from herzla.kinds.layout import LayoutHand
from herzla.kinds.tricks import TrickHand
from herzla.players import PolicyError, TrickView, policy_of
from herzla.players.policy import Policy, decide_move
from herzla.players.views import LayoutView
from tests.helpers import invoke, one_error

pytestmark = pytest.mark.usefixtures("plugin_path")

BROKEN = [
    ("Three", "normal", "the policy broken_policies:Three answered 3 for a move"),
    ("Nothing", "normal", "the policy broken_policies:Nothing answered None for a move"),
    ("Raises", "normal",
     "the policy broken_policies:Raises raised KeyError choosing a move: 'no move today'"),
]


@pytest.mark.parametrize("engine", ["auto", "batch", "reference"])
@pytest.mark.parametrize(("name", "contract", "says"), BROKEN)
def test_a_policy_that_answers_no_card_is_one_line(engine: str, name: str, contract: str,
                                                    says: str) -> None:
    result = invoke("simulate", "herzla", "--contract", contract, "--hands", "3", "--seed", "1",
                    "--jobs", "1", "--no-progress", "--engine", engine,
                    "--policy", f"broken_policies:{name}")
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    if engine == "batch":  # the note that the reference engine plays, then the error
        assert lines[0].startswith("herzla: note: the policy broken_policies:")
        lines = lines[1:]
    assert len(lines) == 1 and lines[0].startswith(f"herzla: error: {says}"), lines


@pytest.mark.parametrize(("name", "says"), [
    ("LaysACard", "the policy broken_policies:LaysACard answered the Card "),
    ("LaysAnywhere", "the policy broken_policies:LaysAnywhere chose an illegal move "),
])
def test_a_policy_that_answers_no_lay_is_one_line(name: str, says: str) -> None:
    line = one_error(invoke("simulate", "herzeln", "--contract", "domino", "--hands", "3",
                            "--seed", "1", "--jobs", "1", "--no-progress",
                            "--policy", f"broken_policies:{name}"))
    assert line.startswith(f"herzla: error: {says}"), line
    if name == "LaysACard":
        assert line.endswith("for a move (move() returns a herzla Move, one of "
                             "view.legal_moves())")


def test_a_policy_that_announces_a_word_the_bidding_lacks_is_one_line() -> None:
    line = one_error(invoke("simulate", "herzla", "--hands", "3", "--seed", "1", "--jobs", "1",
                            "--no-progress", "--policy", "broken_policies:Shouts"))
    assert line == ('herzla: error: the policy broken_policies:Shouts announced "slam" (the '
                    'bidding knows pass, beddl, mord)')


def test_a_match_refuses_a_broken_policy_in_one_line() -> None:
    line = one_error(invoke("match", "herzla", "--policies", "broken_policies:Three,random",
                            "--contract", "normal", "--deals", "2", "--seed", "1", "--jobs", "1"))
    assert "the policy broken_policies:Three answered 3 for a move" in line


def test_the_library_raises_the_policy_error_as_the_simulator_error() -> None:
    with pytest.raises(herzla.SimulationError, match=re.escape(
            "the policy broken_policies:Nothing answered None for a move")):
        herzla.simulate("herzla", "normal", hands=2, seed=1, jobs=1,
                        policy="broken_policies:Nothing")
    with pytest.raises(herzla.MatchError, match="raised KeyError choosing a move"):
        herzla.match("herzla", ["random", "broken_policies:Raises"], contract="normal", deals=2,
                     seed=1, jobs=1)


def _first_view() -> tuple[TrickHand, TrickView]:
    rec = herzla.deal_record("herzla", "normal", 4, seed=3)
    state = TrickHand(rec.contract, [sum(c.bit for c in h) for h in rec.hands],  # type: ignore
                      rec.dealer)
    return state, TrickView.of(state)


def test_decide_move_passes_a_legal_card_and_names_an_illegal_one() -> None:
    state, view = _first_view()
    assert decide_move(policy_of("heuristic"), view).card in cards_of(view.legal)

    class Lost(Policy):
        name = "lost"

        def move(self, view: TrickView | LayoutView) -> Move:
            return next(iter([]))

    class Held(Policy):
        name = "held"

        def move(self, view: TrickView | LayoutView) -> Move:
            assert isinstance(view, TrickView)
            return Move(next(c for c in (Card.from_str(x) for x in ("CA", "DA", "SA", "HA", "C7"))
                             if not view.legal >> c.index & 1))

    with pytest.raises(PolicyError, match=r"^the policy held chose an illegal move ..: "):
        decide_move(Held(), view, state.check)
    with pytest.raises(PolicyError, match=r"^the policy held chose an illegal move ..: seat 0 may "
                                          r"play "):
        decide_move(Held(), view)  # without the engine's check: the legal cards named
    with pytest.raises(PolicyError, match=r"^the policy lost raised StopIteration choosing a "
                                          r"move$"):
        decide_move(Lost(), view)


def test_decide_move_refuses_a_pass_while_able_to_lay() -> None:
    rec = herzla.deal_record("herzeln", "domino", 4, seed=3)
    contract = contract_class("herzeln", "domino")(4)
    assert isinstance(contract, LayoutContract)
    state = LayoutHand(contract, [sum(c.bit for c in h) for h in rec.hands], rec.dealer)
    view = LayoutView.of(state)
    assert view.legal_moves(), "forehand of the domino holds a Jack in this deal"

    class Passes(Policy):
        name = "passes"

        def move(self, view: TrickView | LayoutView) -> Move:
            return PASS

    with pytest.raises(PolicyError, match=r"^the policy passes chose an illegal move pass: "
                                          r"seat \d passed but can lay "):
        decide_move(Passes(), view)
    assert decide_move(policy_of("heuristic"), view) in view.legal_moves()


def test_a_parameter_is_read_by_its_declared_type() -> None:
    deep = policy_of("broken_policies:Deep[depth=3]")
    assert deep.depth == 3 and isinstance(deep.depth, int)  # type: ignore[attr-defined]
    assert policy_of("broken_policies:Deep[depth=none,ratio=0.25]").ratio == 0.25  # type: ignore
    with pytest.raises(PolicyError, match=re.escape(
            'parameter depth of the policy Deep: "x" is not a whole number or none')):
        policy_of("broken_policies:Deep[depth=x]")
    with pytest.raises(PolicyError, match=re.escape(
            'parameter ratio of the policy Deep: "inf" is not a number')):
        policy_of("broken_policies:Deep[ratio=inf]")
    with pytest.raises(PolicyError, match=r"^parameter depth of the policy Untyped: its default "
                                          r"is None and it has no type to read \"3\" as"):
        policy_of("broken_policies:Untyped[depth=3]")


def test_the_cli_reads_a_parameter_whose_default_is_none() -> None:
    result = invoke("simulate", "herzla", "--contract", "normal", "--hands", "3", "--seed", "1",
                    "--jobs", "1", "--no-progress", "--policy", "broken_policies:Deep[depth=3]")
    assert result.exit_code == 0, result.output
    line = one_error(invoke("simulate", "herzla", "--hands", "3", "--seed", "1",
                            "--policy", "broken_policies:Untyped[depth=3]"))
    assert "no type to read" in line


def test_a_parameter_given_twice_is_refused() -> None:
    with pytest.raises(PolicyError, match=re.escape(
            'policy "pimc[samples=2,samples=3]": the parameter "samples" appears twice')):
        policy_of("pimc[samples=2,samples=3]")
    line = one_error(invoke("simulate", "herzla", "--hands", "3", "--seed", "1",
                            "--policy", "pimc[samples=2, samples=3]"))
    assert line.endswith('the parameter "samples" appears twice')


@pytest.mark.parametrize("value", [5, None, True, 1e300, [], {}, b"random"])
def test_a_policy_is_named_by_text(value: object) -> None:
    with pytest.raises(PolicyError, match=r"^a policy is named by text \(\"random\", "):
        policy_of(value)  # type: ignore[arg-type]
