"""What a new user tripped on (issue 14): each case fails without its fix."""

from __future__ import annotations

import json
import pydoc
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import herzla
from herzla.analysis.advise import Estimate, score_range
from herzla.cards import Card, CardError, mask_of, parse_cards
from herzla.cli import main
from herzla.contracts import TrickContract, contract_class, contract_classes, games
from herzla.layout import LayoutHand
from herzla.records import Record, RecordError, replay, score_report
from herzla.rulebook import entries, illegal_rules
from herzla.sheets import score_sheet
from herzla.tally import score_tallies
from herzla.tricks import TrickHand


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


# -- simulate --jobs: the note and the summary agree -------------------------------------------
@pytest.mark.parametrize("hands", ["1000", "300000"])
def test_jobs_note_agrees_with_summary(hands: str) -> None:
    from herzla.machinery.procs import default_jobs

    res = CliRunner().invoke(main, ["simulate", "herzla", "--hands", hands, "--seed", "1",
                                    "--jobs", "1000", "--no-progress"])
    assert res.exit_code == 0, res.output
    note = re.search(r"playing on (\d+)", res.stderr)
    summary = re.search(r"(\d+) process(?:es)?\)", res.stdout)
    assert note is not None and summary is not None
    assert note.group(1) == summary.group(1)
    assert 1 <= int(summary.group(1)) <= default_jobs()


# -- herzla score: what is missing ------------------------------------------------------------
def test_score_without_tallies_names_hearts() -> None:
    res = CliRunner().invoke(main, ["score", "herzla", "normal"])
    assert res.exit_code == 2
    assert "hearts each seat captured" in res.stderr and "--hearts" in res.stderr
    ok = CliRunner().invoke(main, ["score", "herzla", "normal", "--hearts", "0,3,5,0"])
    assert ok.exit_code == 0 and "+40c" in ok.stdout


@pytest.mark.parametrize("key", [c.key() for g in games() for c in contract_classes(g)])
def test_score_without_tallies_names_an_option(key: str) -> None:
    game, _, cid = key.partition("/")
    args = ["score", game, cid]
    if contract_class(game, cid).needs_declarer:
        args += ["--declarer", "0"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    line = res.stderr.strip()
    assert f"{game} {cid} needs" in line and ": give --" in line, line


# -- one card reader for every list -----------------------------------------------------------
@pytest.mark.parametrize("text", ["Herz Sau, Herz König", "Herz Sau Herz König",
                                  "Ace of Hearts, King of Hearts", "HA HK", "ha,hk",
                                  "Ace of Hearts Herz König"])
def test_card_lists_take_names(text: str) -> None:
    assert [str(c) for c in parse_cards(text)] == ["HA", "HK"]


def test_card_lists_name_the_bad_text() -> None:
    with pytest.raises(CardError, match='"Herz Xyz"'):
        parse_cards("HA Herz Xyz")
    with pytest.raises(CardError, match='"XX"'):
        parse_cards("HA XX")


def test_captured_takes_card_names() -> None:
    by_name = CliRunner().invoke(main, [
        "score", "herzeln", "no-hearts", "--captured", "Herz Sau, Herz 7",
        "--captured", "Herz 10", "--captured", "Herz König Herz Ober Herz Unter",
        "--captured", "H9 H8"])
    by_code = CliRunner().invoke(main, [
        "score", "herzeln", "no-hearts", "--captured", "HA H7", "--captured", "HT",
        "--captured", "HK HQ HJ", "--captured", "H9 H8"])
    assert by_name.exit_code == 0, by_name.output
    assert by_name.stdout == by_code.stdout


def test_hand_takes_card_names() -> None:
    from herzla.analysis.advise import parse_hand

    table = contract_class("herzla", "normal")()
    assert isinstance(table, TrickContract)
    names = "Eichel 10, Eichel 7, Gras Unter, Gras 8, Herz 9, Herz 7, Schellen 9, Schellen 7"
    assert parse_hand(names, table) == mask_of(parse_cards("CT C7 SJ S8 H9 H7 D9 D7"))


@given(st.lists(st.sampled_from(Card.ALL), max_size=12),
       st.sampled_from(["german", "french"]), st.sampled_from([" ", ", ", ","]))
def test_named_lists_round_trip(cards: list[Card], faces: str, sep: str) -> None:
    text = sep.join(c.name(faces) for c in cards)
    assert parse_cards(text) == cards
    mixed = sep.join(c.name(faces) if i % 2 else str(c) for i, c in enumerate(cards))
    assert parse_cards(mixed) == cards


# -- every rule id herzla cites resolves with `herzla rules ID` --------------------------------
PACKAGE = Path(herzla.__file__).parent
ROOT = PACKAGE.parent
CITATION = re.compile(r"\brule ([a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9-]*[a-z0-9])?)\b")


def _cited_in_source() -> set[str]:
    """Every ``rule ID`` written in herzla's code and rule texts (hyphenated or GAME/NAME ids;
    plain words such as "rule book" are prose)."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        for rid in CITATION.findall(path.read_text(encoding="utf-8")):
            if "/" in rid or "-" in rid:
                found.add(rid)
    return found


def _cited_by_replay() -> set[str]:
    """Every rule id the answers to the shipped records and the worked cases name."""
    found = set()
    for path in [*sorted((ROOT / "docs" / "examples").glob("*.json")),
                 *sorted((ROOT / "tests" / "cases").glob("*.json"))]:
        res = CliRunner().invoke(main, ["replay", str(path), "--json"])
        if res.exit_code == 2:
            continue  # a malformed example
        for answer in (json.loads(line) for line in [res.stdout]):
            for item in answer if isinstance(answer, list) else [answer]:
                text = json.dumps(item)
                found |= {r for r in CITATION.findall(text) if "/" in r or "-" in r}
                found |= set(re.findall(r'"rule": "([^"]+)"', text))
    return found


def citable_ids() -> list[str]:
    ids: set[str] = set(illegal_rules())
    ids |= {r.id for r in entries()}
    for game in games():
        for cls in contract_classes(game):
            ids.add(cls.key())
            ids |= {o.rule for o in cls.options if o.rule}
            for n in cls.player_counts:
                declared = cls.default(n).declaration
                ids |= {b.rule for b in getattr(declared, "lead_bans", ())}
    for illegal in illegal_rules().values():
        ids |= set(illegal.entries)
    ids |= _cited_in_source()
    ids |= _cited_by_replay()
    return sorted(ids)


def test_the_citations_are_found() -> None:
    ids = citable_ids()
    for rid in ("follow-suit", "not-in-hand", "not-adjacent", "must-open-with-jack",
                "heart-free-first-trick", "heart-lead-ban", "herzla/two-void"):
        assert rid in ids
    assert len(ids) > 60


def test_engines_name_only_registered_illegal_rules() -> None:
    for module in ("tricks.py", "layout.py"):
        source = (PACKAGE / module).read_text(encoding="utf-8")
        assert not re.search(r'Illegal\(\s*"', source), module  # ids come from ILLEGAL_PLAYS


@pytest.mark.parametrize("rid", citable_ids())
def test_every_cited_rule_id_resolves(rid: str) -> None:
    res = CliRunner().invoke(main, ["rules", rid])
    assert res.exit_code == 0, res.output
    assert f"(rule {rid})" in res.stdout or f"(rule {rid}," in res.stdout
    as_json = CliRunner().invoke(main, ["rules", rid, "--json"])
    assert as_json.exit_code == 0
    assert json.loads(as_json.stdout)["entries"][0]["id"] == rid


def test_an_illegal_play_rule_prints_what_it_rests_on() -> None:
    res = CliRunner().invoke(main, ["rules", "follow-suit"])
    assert "Illegal play: Follow suit" in res.stdout
    assert "(rule common/trick-play)" in res.stdout


@pytest.mark.parametrize("word", ["poker", "herzl", "folow-suit"])
def test_an_unknown_word_is_no_game_rule_or_topic(word: str) -> None:
    res = CliRunner().invoke(main, ["rules", word])
    assert res.exit_code == 2
    assert f'no game, rule or topic named "{word}"' in res.stderr
    assert "unknown game" not in res.stderr


# -- short reprs, and the CLI's text from the library ------------------------------------------
EXAMPLES = ROOT / "docs" / "examples"


def _one_line(obj: object, *words: str) -> None:
    text = repr(obj)
    assert "\n" not in text and len(text) < 200, text
    for word in words:
        assert word in text, text


def test_record_and_replay_result() -> None:
    record = Record.from_json(json.loads((EXAMPLES / "herzla-two-void.json").read_text()))
    _one_line(record, "Record", "herzla normal", "32 plays")
    result = replay(record)
    _one_line(result, "ReplayResult", "complete", "+40c -30c -50c +40c")
    _one_line(result.score, "HandScore", "two-void")
    cli = CliRunner().invoke(main, ["replay", str(EXAMPLES / "herzla-two-void.json")])
    assert cli.stdout == result.report() + "\n" == str(result) + "\n"


def test_score_sheet() -> None:
    path = EXAMPLES / "herzeln-partie.json"
    sheet = score_sheet(json.loads(path.read_text()))
    _one_line(sheet, "ScoreSheet", "herzeln partie", "8 hands", "won by seat")
    cli = CliRunner().invoke(main, ["replay", str(path)])
    assert cli.stdout == sheet.report() + "\n" == str(sheet) + "\n"


def test_score_report() -> None:
    contract = contract_class("herzla", "normal")()
    result = score_tallies(contract, hearts=[0, 3, 5, 0], stock=80)
    cli = CliRunner().invoke(main, ["score", "herzla", "normal", "--hearts", "0,3,5,0",
                                    "--stock", "80"])
    assert cli.stdout == score_report(contract, result) + "\n"


def test_sim_result() -> None:
    res = herzla.simulate("herzla", "normal", hands=2000, seed=5, jobs=1)
    _one_line(res, "SimResult", "herzla normal", "2,000 hands", "seed 5")
    assert str(res) == res.report()
    cli = CliRunner().invoke(main, ["simulate", "herzla", "--contract", "normal", "--hands",
                                    "2000", "--seed", "5", "--jobs", "1", "--no-progress"])
    # all but the last line (how long it took) is the same text
    assert cli.stdout.splitlines()[:-1] == res.report().splitlines()[:-1]
    assert "Score per hand and seat" in res.report()


def test_solve_result() -> None:
    path = EXAMPLES / "herzla-two-void-trick6.json"
    res = herzla.solve(json.loads(path.read_text()), seat=2, plays=True)
    _one_line(res, "SolveResult", "seat 2 -30 cents")
    cli = CliRunner().invoke(main, ["solve", str(path), "--seat", "2", "--plays"])
    assert str(res) == res.report()
    # the same text, but for the count of positions searched (the search's caches); given the
    # record solved, the line is written trick by trick as the command line writes it
    record = herzla.records.read_record(json.loads(path.read_text()))
    assert cli.stdout.splitlines()[:-1] == res.report(record).splitlines()[:-1]
    assert "Each play of seat 2: ST -30, HQ -50, DT -30" in res.report()
    assert "  trick 6: seat 2 ST, seat 3 SJ, seat 0 SQ, seat 1 SK; seat 1 wins" in \
        res.report(record).splitlines()


@pytest.mark.slow
def test_advice_result() -> None:
    hand = "CT C7 SJ S8 H9 H7 D9 D7"
    res = herzla.advise(hand, samples=4, seed=3, jobs=1)
    _one_line(res, "AdviceResult", "recommends")
    cli = CliRunner().invoke(main, ["advise", "herzla", "--hand", hand, "--samples", "4",
                                    "--seed", "3", "--jobs", "1", "--no-progress"])
    assert cli.exit_code == 0, cli.output
    assert cli.stdout == res.report() + "\n" == str(res) + "\n"


# -- a position from a record; cards as Cards or codes ----------------------------------------
def _record(name: str) -> Record:
    return Record.from_json(json.loads((EXAMPLES / name).read_text()))


def test_trick_hand_from_record_cards() -> None:
    record = _record("herzla-two-void-trick6.json")
    assert isinstance(record.contract, TrickContract)
    hand = TrickHand(record.contract, record.hands, record.dealer)  # Cards, as the record has
    assert hand.hands == [mask_of(h) for h in record.hands]
    assert hand.play(Card.from_str("C7")) is None and hand.play("CA") is None
    assert hand.check("Herz Sau") is not None and hand.check(Card.from_str("C8")) is None


def test_start_at_the_beginning_and_after_the_plays() -> None:
    record = _record("herzla-two-void-trick6.json")
    start = record.start()
    assert isinstance(start, TrickHand) and not start.tricks and start.turn == 0
    after = record.start(played=True)
    assert isinstance(after, TrickHand) and len(after.tricks) == 5
    assert after.turn == 2 and after.moves == record.plays
    assert [str(c) for c in after.legal_plays()] == ["ST", "HQ", "DT"]
    assert after.record() == record


def test_layout_hand_from_record() -> None:
    record = _record("herzeln-domino-mark.json")
    after = record.start(played=True)
    assert isinstance(record.start(), LayoutHand) and isinstance(after, LayoutHand)
    assert len(after.laid) == sum(1 for p in record.plays if not p.is_pass)
    # the hand gives back its record, every pass written out
    again = after.record()
    assert [p.card for p in again.plays if not p.is_pass] == [p.card for p in record.plays
                                                               if not p.is_pass]
    assert again.hands == record.hands and replay(again).to_dict() == replay(record).to_dict()


def test_start_after_an_illegal_play() -> None:
    with pytest.raises(RecordError, match="heart-lead-ban"):
        _record("herzla-heart-lead-ban.json").start(played=True)


@pytest.mark.parametrize("bad", [5, 1.5, None, ("C", "7")])
def test_a_card_of_the_wrong_type(bad: object) -> None:
    hand = _record("herzla-two-void.json").start()
    with pytest.raises(TypeError):
        hand.play(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        hand.check(bad)  # type: ignore[arg-type]


def test_a_hand_of_the_wrong_type() -> None:
    record = _record("herzla-two-void.json")
    assert isinstance(record.contract, TrickContract)
    with pytest.raises(TypeError):
        TrickHand(record.contract, [1.5, 2.5, 3.5, 4.5], 3)  # type: ignore[list-item]


# -- advise: one choice, and intervals within the possible scores -----------------------------
HOPELESS = "CA CK CQ SA SK HA DA DK"


def test_advise_one_choice_compares_nothing() -> None:
    res = CliRunner().invoke(main, ["advise", "herzla", "--hand", HOPELESS, "--only", "beddl",
                                    "--samples", "8", "--jobs", "1", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "Recommendation" not in res.stdout
    assert ("Only beddl was weighed: -240.0 cents under heuristic play, made in 0.0% of the "
            "deals; there was nothing to compare it with.") in res.stdout
    both = CliRunner().invoke(main, ["advise", "herzla", "--hand", HOPELESS, "--only", "beddl",
                                     "--only", "mord", "--samples", "8", "--jobs", "1",
                                     "--no-progress"])
    assert "Recommendation: " in both.stdout and "nothing to compare" not in both.stdout


def test_score_range_of_the_choices() -> None:
    table = {cid: contract_class("herzla", cid) for cid in ("normal", "beddl", "mord")}
    beddl = table["beddl"](4, None, 2)
    assert isinstance(beddl, TrickContract)
    assert score_range(beddl, 2, 0) == (-240, 240)
    normal = table["normal"](4)
    assert isinstance(normal, TrickContract)
    low, high = score_range(normal, 0, 80)
    assert low < 0 < 80 < high


@given(st.integers(0, 10), st.integers(2, 60))
def test_the_interval_stays_within_the_possible_scores(made: int, lost: int) -> None:
    cents = [240] * made + [-240] * lost
    est = Estimate.of(cents, [True] * made + [False] * lost, (-240, 240))
    assert -240 <= est.ci95[0] <= est.mean <= est.ci95[1] <= 240


def test_the_unclipped_interval_would_pass_the_bound() -> None:
    cents = [240] * 3 + [-240] * 97
    assert Estimate.of(cents, None).ci95[0] < -240  # why the bound is needed
    assert Estimate.of(cents, None, (-240, 240)).ci95[0] == -240


# -- shell completion --------------------------------------------------------------------------
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
    assert _complete(["simulate", "herzla", "--policy"], "") == ["random", "heuristic", "pimc",
                                                                 "ipimc"]
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


# -- the rule book: sources a player can read, cited examples shipped --------------------------
CASES = ROOT / "docs" / "examples" / "cases"
CASE_CITE = re.compile(r"\bCases? (\d+)(?:\s*(?:-|–|\.\.)\s*(\d+))?")


def _rule_texts() -> list[tuple[str, str]]:
    texts = [(f"rule {r.id}", f"{r.title} {r.text} {r.example}") for r in entries()]
    texts += [(p.name, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "docs").glob("*.md"))
              if p.name != "plugins.md"]  # which tells plug-in authors not to cite sections (§)
    texts += [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
              for p in sorted((PACKAGE / "contracts").glob("*.py"))]
    return texts


@pytest.mark.parametrize("marker", ["…", "cut off", "mid-sentence", "German summary", "RULES.md",
                                    "§"])
def test_no_research_notes_in_the_rule_book(marker: str) -> None:
    for where, text in _rule_texts():
        assert marker not in text, f"{where} quotes notes: {marker!r}"


def test_every_cited_case_is_shipped() -> None:
    cited: set[int] = set()
    for _, text in _rule_texts():
        for first, last in CASE_CITE.findall(text):
            cited |= set(range(int(first), int(last or first) + 1))
    assert {1, 29, 57} <= cited
    for number in sorted(cited):
        shipped = sorted(CASES.glob(f"{number:02d}-*.json"))
        assert len(shipped) == 1, f"Case {number} is cited but not in docs/examples/cases"


@pytest.mark.parametrize("case", sorted((ROOT / "tests" / "cases").glob("*.json")),
                         ids=lambda p: p.name[:2])
def test_a_shipped_case_is_the_worked_case(case: Path) -> None:
    worked = json.loads(case.read_text(encoding="utf-8"))
    shipped = CASES / case.name
    if isinstance(worked["record"], str):
        assert shipped.read_text(encoding="utf-8") == worked["record"]
    else:
        assert json.loads(shipped.read_text(encoding="utf-8")) == worked["record"]
    res = CliRunner().invoke(main, ["replay", str(shipped), "--json"])
    expect = worked.get("expect", {})
    if expect.get("malformed"):
        assert res.exit_code == 2
    else:
        assert res.exit_code == (0 if expect.get("illegal") is None else 1), res.output


# -- timing claims stand next to how they were measured ---------------------------------------
TIMING = re.compile(r"\b(?:about|around|roughly|under|in)\s+(?:a|an|half a|\d[\d.,]*)\s+"
                    r"(?:million|seconds?|minutes?|hours?)\b", re.IGNORECASE)


def _paragraphs() -> list[tuple[str, str]]:
    out = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for para in path.read_text(encoding="utf-8").split("\n\n"):
            out.append((path.name, para))
    return out


def test_timing_claims_say_how_they_were_measured() -> None:
    unmeasured = [(name, claim) for name, para in _paragraphs() for claim in TIMING.findall(para)
                  if "measured" not in para and "benchmarks" not in para]
    assert not unmeasured


def test_readme_advise_examples_are_short() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("herzla advise"):
            samples = int(re.search(r"--samples (\d+)", line).group(1))  # type: ignore[union-attr]
            weighs_normal = "--only" not in line or "--only normal" in line
            # pure Python (no numba in the README's install): a made/lost sample costs tens of
            # milliseconds, a normal-game sample hundreds
            assert samples <= (4 if weighs_normal else 100), line


@pytest.mark.parametrize(("game", "rid", "behind"), [
    ("herzla", "follow-suit", "common/trick-play"),
    ("herzeln", "not-adjacent", "herzeln/domino-row"),
    ("herzerln", "heart-free-first-trick", "herzerln/heart-free")])
def test_an_illegal_play_id_is_a_topic_of_its_game(game: str, rid: str, behind: str) -> None:
    res = CliRunner().invoke(main, ["rules", game, rid])
    assert res.exit_code == 0, res.output
    assert f"(rule {rid})" in res.stdout and f"(rule {behind})" in res.stdout
