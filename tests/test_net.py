"""The ``net`` policy: its model, its batch form (the reference-vs-batch comparison of every
batch policy is tests/test_sim_engines.py) and its training script's quick mode."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import attrs
import numpy as np
import pytest
from click.testing import CliRunner

from herzla.cards import cards_of, mask_of, parse_cards
from herzla.cli import main
from herzla.contracts import DealKind, TrickContract, contract_class, contract_classes
from herzla.kinds.tricks import TrickHand
from herzla.players import policy_of
from herzla.players.heuristic import heuristic_card
from herzla.players.net import NetPolicy
from herzla.players.netmodel import WEIGHTS, load_model, read_contract
from herzla.players.views import TrickView
from herzla.sim.batch import batch_form_of
from tests.shares import some_in_default

ROOT = Path(__file__).resolve().parent.parent
HANDS = ("CQ CJ CT C7 SQ S9 DQ D9", "CA CK SA SK HK H7 DK D7",
         "C8 ST S7 HA HQ H9 DA DT", "C9 SJ S8 HJ HT H8 DJ D8")


def _train_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_net", ROOT / "tools" / "train_net.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["train_net"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_the_shipped_weights_are_small_and_name_what_they_learned_from() -> None:
    path = ROOT / "herzla" / "players" / WEIGHTS
    assert path.stat().st_size < 1 << 20
    model = load_model()
    assert "herzla/normal" in model.trained
    assert "tools/train_net.py" in model.about


def test_net_is_a_builtin_with_a_batch_form() -> None:
    net = policy_of("net")
    assert isinstance(net, NetPolicy)
    assert batch_form_of(net) is not None


def test_net_plays_a_legal_card_and_explains_it() -> None:
    normal = contract_class("herzla", "normal")()
    assert isinstance(normal, TrickContract)
    state = TrickHand(normal, [mask_of(parse_cards(h)) for h in HANDS], dealer=3)
    for code in ("C7", "CA"):
        state.play(parse_cards(code)[0])
    view = TrickView.of(state)
    net = NetPolicy()
    card = net.move(view).card
    assert card in cards_of(view.legal)
    hint = net.explain(view)
    assert str(hint.move) == str(card)
    assert set(hint.values) == {str(c) for c in cards_of(view.legal)}
    assert max(hint.values, key=lambda c: hint.values[c]) == str(card)


def test_the_shipped_model_plays_every_deal_its_features_tell_apart() -> None:
    """Every trick deal where a card or a trick is dangerous (the features' ``danger`` and
    ``early``) is played by the model itself; the deals that count only tricks (Herzeln's
    every-trick, no-tricks, last-trick, no-last-trick; Herzerln's tricks) look alike to the
    features, and play as the heuristic."""
    model = load_model()
    alike = set()
    for game in ("herzla", "herzla-kids", "herzeln", "herzerln"):
        for cls in contract_classes(game):
            if cls.kind is DealKind.TRICKS:
                contract = cls(4 if 4 in cls.player_counts else cls.player_counts[0], {},
                               0 if cls.needs_declarer else None)
                read = read_contract(contract)
                assert model.knows(read) == bool(read.danger or read.early), cls.id
                if not model.knows(read):
                    alike.add(read.key)
    assert alike == {"herzeln/every-trick", "herzeln/no-tricks", "herzeln/last-trick",
                     "herzeln/no-last-trick", "herzerln/tricks"}
    assert len(model.trained) == 11


def test_untrained_contracts_play_as_the_heuristic_and_say_so(tmp_path: Path) -> None:
    kids = contract_class("herzla-kids", "normal")()
    assert isinstance(kids, TrickContract)
    # a model that lists only the normal game among the contracts it plays by itself
    narrow = tmp_path / "narrow.npz"
    attrs.evolve(load_model(), trained=frozenset({"herzla/normal"})).save(str(narrow))
    model = load_model(str(narrow))
    assert not model.knows(read_contract(kids))
    assert load_model().knows(read_contract(kids))
    deal = kids.pack().cards
    n = kids.hand_size
    hands = [mask_of(deal[s * n:(s + 1) * n]) for s in range(kids.players)]
    state = TrickHand(kids, hands, dealer=0)
    net = NetPolicy(str(narrow))
    while not state.over:
        view = TrickView.of(state)
        assert net.move(view).card == heuristic_card(view)
        state.play(net.move(view))
    hint = net.explain(TrickView.of(TrickHand(kids, hands, dealer=0)))
    assert hint.reason is not None and "not taught herzla-kids" in hint.reason


@pytest.mark.parametrize("args", some_in_default([
    ["herzla", "--contract", "normal"],
    ["herzla", "--contract", "mord", "--declarer", "2"],
    ["herzla"],
    ["herzla", "--session", "3"],
], every=2))
def test_simulate_json_is_the_same_on_both_engines(args: list[str]) -> None:
    out = []
    for engine in ("batch", "reference"):
        res = CliRunner().invoke(main, ["simulate", *args, "--policy", "net,heuristic,net,random",
                                        "--hands", "60", "--seed", "4", "--json",
                                        "--engine", engine])
        assert res.exit_code == 0, res.output
        d = json.loads(res.stdout)
        d.pop("elapsed_s")
        d.pop("hands_per_s")
        out.append(d)
    assert out[0] == out[1]


def test_a_bad_weights_file_is_one_line() -> None:
    res = CliRunner().invoke(main, ["simulate", "herzla", "--policy", "net[weights=/nope.npz]",
                                    "--hands", "4"])
    assert res.exit_code == 2
    assert "Traceback" not in res.output


@pytest.mark.slow
def test_the_training_script_reruns_from_its_seed_and_beats_random(tmp_path: Path) -> None:
    train = _train_module()
    a, b = tmp_path / "a.npz", tmp_path / "b.npz"
    assert train.main(["--quick", "--seed", "3", "--out", str(a)]) == 0
    assert train.main(["--quick", "--seed", "3", "--out", str(b), "--jobs", "2"]) == 0
    with np.load(a) as x, np.load(b) as y:
        assert x.files == y.files
        for k in x.files:
            assert np.array_equal(x[k], y[k]), k
    res = CliRunner().invoke(main, ["match", "herzla", "--contract", "normal", "--policies",
                                    f"net[weights={a}],random", "--deals", "1500",
                                    "--seed", "77", "--json"])
    assert res.exit_code == 0, res.output
    pair = json.loads(res.stdout)["pairs"][0]
    sign = 1 if pair["a"].startswith("net") else -1
    low = min(sign * pair["ci95"][0], sign * pair["ci95"][1])
    assert low > 0, pair


class _Told:
    """A teacher whose hint values are as the game counts them."""

    def __init__(self, values: dict[str, float]) -> None:
        self.values = values

    def explain(self, view: object) -> object:
        from herzla.hand import Move
        from herzla.players.policy import Hint

        best = min(self.values, key=lambda c: self.values[c])
        return Hint(Move(parse_cards(best)[0]), self.values)


def test_a_teachers_penalty_points_are_turned_the_right_way_up() -> None:
    # in the children's Herzla a hint's values are penalty points: the lower the better, so
    # the card with the fewest must get the highest target
    train = _train_module()
    kids = contract_class("herzla-kids", "normal")()
    assert isinstance(kids, TrickContract)
    deal = kids.pack().cards
    n = kids.hand_size
    hands = [mask_of(deal[s * n:(s + 1) * n]) for s in range(kids.players)]
    view = TrickView.of(TrickHand(kids, hands, dealer=kids.players - 1))
    legal = [str(c) for c in cards_of(view.legal)]
    assert len(legal) > 1
    told = {c: float(i) for i, c in enumerate(legal)}  # the first legal card scores fewest
    targets = train._targets(_Told(told), view)
    assert max(targets, key=lambda c: targets[c]) == legal[0]
    assert abs(sum(targets.values())) < 1e-9
    normal = contract_class("herzla", "normal")()
    assert isinstance(normal, TrickContract)
    nview = TrickView.of(TrickHand(normal, list(HANDS), dealer=3))
    nlegal = [str(c) for c in cards_of(nview.legal)]
    ntold = {c: float(i) for i, c in enumerate(nlegal)}  # cents: the last scores best
    ntargets = train._targets(_Told(ntold), nview)
    assert max(ntargets, key=lambda c: ntargets[c]) == nlegal[-1]


class _Scaled:
    """A teacher whose values are ``k`` times the shipped model's score of each card, as the
    game counts them (penalty points: negated)."""

    def __init__(self, k: float) -> None:
        self.k = k

    def explain(self, view: TrickView) -> object:
        from herzla.contracts import game_of
        from herzla.hand import Move
        from herzla.players.policy import Hint

        scores = NetPolicy().scores(view)
        assert scores is not None
        sign = -1.0 if game_of(view.contract).lowest_wins else 1.0
        best = max(scores, key=lambda c: scores[c])
        return Hint(Move(best), {str(c): sign * self.k * v for c, v in scores.items()})


@pytest.mark.parametrize(("contract", "k"), [("herzla/normal", 3.0), ("herzla-kids/normal", 0.5)])
def test_a_contracts_unit_is_the_slope_of_the_teachers_values(
        monkeypatch: pytest.MonkeyPatch, contract: str, k: float) -> None:
    """The unit the training fits is what one unit of the model's score is worth in the
    game's unit: a teacher worth ``k`` times the score gets ``k``, in cents and in penalty
    points alike; one whose values run against the score gets none."""
    train = _train_module()
    monkeypatch.setattr(train, "teacher_of", lambda spec: _Scaled(float(spec)))
    units = train.fit_units(load_model(), [contract], str(k), 1, 3, 0.5, 1)
    assert [c for c, _ in units] == [contract]
    assert units[0][1] == pytest.approx(k, rel=1e-3)
    assert train.fit_units(load_model(), [contract], str(-k), 1, 3, 0.5, 1) == ()


def test_units_only_names_a_missing_model_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    train = _train_module()
    assert train.main(["--units-only", "--out", str(tmp_path / "nope.npz")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("train_net: cannot read the model ") and "nope.npz" in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_units_are_written_read_and_checked(tmp_path: Path) -> None:
    model = load_model()
    assert model.unit(read_contract(contract_class("herzla", "normal")())) is not None
    path = tmp_path / "m.npz"
    attrs.evolve(model, units=(("herzla/normal", 2.5),)).save(str(path))
    again = load_model(str(path))
    assert again.units == (("herzla/normal", 2.5),)
    kids = contract_class("herzla-kids", "normal")()
    assert again.unit(read_contract(kids)) is None
    # a file written before the units: none, and the prior is not asked
    old = tmp_path / "old.npz"
    with np.load(path) as data:
        np.savez(old, **{k: data[k] for k in data.files if not k.startswith("unit_")})
    assert load_model(str(old)).units == ()
    for bad in (-1.0, 0.0, math.nan, 1e300):
        with pytest.raises(ValueError, match="the net's unit for herzla/normal must be"):
            attrs.evolve(model, units=(("herzla/normal", bad),))
    # a file with a unit that is no number: one line naming it, as for any bad model
    hostile = tmp_path / "nan.npz"
    with np.load(path) as data:
        np.savez(hostile, **{k: data[k] for k in data.files if k != "unit_values"},
                 unit_values=np.array([math.nan]))
    with pytest.raises(ValueError,
                       match=r"^cannot read the model .*unit_values.*not finite") as err:
        NetPolicy(str(hostile))
    assert "\n" not in str(err.value)
