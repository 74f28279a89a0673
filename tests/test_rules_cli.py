"""``herzla rules``: the rule book as data, through the command line (CliRunner); every rule
id herzla cites resolves, and the rule texts cite only what a player can read and herzla ships."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner, Result

import herzla
from herzla import contracts as registry
from herzla.cards import Rank, Suit
from herzla.cli import main
from herzla.contracts import (
    BUILTIN_MODULES,
    CardValue,
    TrickContract,
    contract_classes,
    games,
    get_game,
)
from herzla.options import Option
from herzla.rulebook import (
    COMMON,
    entries,
    find,
    get_rule,
    illegal_rules,
    resolve_option,
    rule_json,
)

BUILTIN_GAMES = ("herzla", "herzla-kids", "herzeln", "herzerln")
RULES_MD = [Path(__file__).resolve().parents[2] / "shared" / "RULES.md",
            Path(__file__).resolve().parents[1].parent / "shared" / "RULES.md"]


pytestmark = pytest.mark.usefixtures("builtin_registry")

BOOK = entries()


def run(*args: str) -> Result:
    from herzla.cli import main

    return CliRunner().invoke(main, ["rules", *args])


def ids(result: Result) -> list[str]:
    return [e["id"] for e in json.loads(result.stdout)["entries"]]


def flat(text: str) -> str:
    """Output with its line breaks and indentation folded, for phrase checks."""
    return " ".join(text.split())


def builtin(game: str) -> list[type[Any]]:
    return [c for c in contract_classes(game) if c.__module__ in BUILTIN_MODULES]


# -- listing and games ------------------------------------------------------------------------
def test_listing_names_games_and_topics() -> None:
    result = run()
    assert result.exit_code == 0, result.output
    for game in (*BUILTIN_GAMES, COMMON):
        assert f"\n  {game} " in result.stdout
    for topic in ("domino", "beddl", "no-hearts", "auflegen", "stock", "schleichermord",
                  "bidding", "partie", "corner", "escape", "farbzwang", "settlement"):
        assert re.search(rf"\b{re.escape(topic)}\b", result.stdout), topic


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_each_game_prints_all_its_rules(game: str) -> None:
    result = run(game)
    assert result.exit_code == 0, result.output
    out = result.stdout
    title = get_game(game).title
    assert out.startswith(f"{title} (game {game})")
    for rule in BOOK:
        if rule.game in (game, COMMON):
            assert f"\n{rule.title}  [" in out, rule.id
            assert f"(rule {rule.id})" in out, rule.id
    assert "Common ground, for every game:" in out
    for cls in builtin(game):
        assert cls.id in out
    # the game's own rules come before the common ground
    assert out.index("Common ground, for every game") > out.index(
        next(r.title for r in BOOK if r.game == game))


def test_common_ground() -> None:
    result = run("common")
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    for phrase in ("Acorns/Eichel = Clubs/Kreuz (C)", "natural is A K Q J T 9 8 7 (6)",
                   "ace-ten is A T K Q J 9 8 7", "Seats are numbered 0 .. n-1 clockwise",
                   "(Farbzwang)", "(no Stichzwang)", "the player must play a heart",
                   "every card of the pack is in exactly one place"):
        assert phrase in text, phrase


def test_kids_game() -> None:
    text = flat(run("herzla-kids").stdout)
    for phrase in ("3 to 8 players with a 36-card pack (6 to A)", "(with 5, 7 and 8 players: 1, 1 "
                   "and 4 cards)", "1 penalty point per heart captured", "(target, default 50)",
                   "Hearts captured = 9 − hearts among the leftovers",
                   "Option target=N (a whole number >= 1, default 50)"):
        assert phrase in text, phrase


# -- topics -----------------------------------------------------------------------------------
def test_herzeln_domino_explains_the_corner_rule() -> None:
    result = run("herzeln", "domino")
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "Aces \"turn the corner\": the order is a cycle, so above an Ace comes the lowest " \
           "rank (7, or 9 with 3 players) and below the lowest rank comes an Ace." in text
    assert "+ for the upper end or - for the lower end" in text
    assert "with no mark the card goes to the upper end" in text
    assert "Option domino_suits=any-suit|same-suit (default any-suit)" in text
    assert "Option domino_wrap=true|false (default true)" in text
    assert "refused as malformed" in text
    assert "Places score 0, −10, −20, −30 (3 players: 0, −10, −20, a ruling)" in text
    assert "regardless of suit" in text and "[Herzeln]" in text and "[ruling]" in text
    assert ids(run("herzeln", "domino", "--json")) == [
        "herzeln/domino-row", "herzeln/domino-corner", "herzeln/domino-ends",
        "herzeln/domino-must-lay", "herzeln/domino-places", "herzeln/domino-options",
        "herzeln/domino"]


def test_herzla_stock() -> None:
    result = run("herzla", "stock")
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "an odd cent stays in the stock" in text
    assert "Option stock_payout=void|never (default void)" in text
    assert "Option no_void=pay-stock|no-payment (default pay-stock)" in text
    assert "that player pays 80c to the stock" in text
    found = ids(run("herzla", "stock", "--json"))
    for rule_id in ("herzla/settlement", "herzla/all-hearts", "herzla/no-void",
                    "herzla/stock-payout", "herzla/schleichermord",
                    "herzla/contract-settlement"):
        assert rule_id in found


def test_herzla_beddl() -> None:
    result = run("herzla", "beddl")
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "beddl (the declarer wins no trick)" in text
    assert "Beddl ends the moment the declarer wins a trick (lost)" in text
    assert "Beddl or Mord made: each defender pays the declarer 80c" in text
    assert "the declarer scores ±240, each defender ∓80" in text
    assert "Option contract_priority=position|mord-over-beddl (default position)" in text
    assert "Option heart_lead_ban_in_contracts=true|false (default true)" in text


def test_herzerln_hearts_has_heart_free_first_trick_and_escape() -> None:
    result = run("herzerln", "hearts")
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "-1 per heart; no heart led to or discarded on trick 1." in text
    assert "In rounds 2 and 5 (hearts, king-of-hearts) no heart may be led to or discarded " \
           "on trick 1" in text
    assert "Hearts may be led from trick 2 on." in text
    assert "the player holds nothing but hearts, the player must play a heart" in text
    assert ids(run("herzerln", "hearts", "--json")) == [
        "herzerln/heart-free", "herzerln/hearts", "herzerln/king-of-hearts", "common/escape"]


@pytest.mark.parametrize(("game", "topic", "rule_id", "phrase"), [
    ("herzla", "schleichermord", "herzla/schleichermord", "collects 80c from each opponent"),
    ("herzla", "two-void", "herzla/two-void", "split equally: 40c each"),
    ("herzla", "bidding", "herzla/bidding", "The first announcement wins outright"),
    ("herzla", "lead", "herzla/lead", "Forehand leads to the first trick in every contract"),
    ("herzla", "follow", "common/trick-play", "must follow the led suit if they can"),
    ("herzla", "pack", "herzla/table", "32-card German-suited pack (7 to A)"),
    ("herzla-kids", "match", "herzla-kids/match", "The fewest points win"),
    ("herzeln", "no-hearts", "herzeln/no-hearts", "A -11, T -10, K -4, Q -3, J -2, 9/8/7 -1"),
    ("herzeln", "partie", "herzeln/partie", "The deal passes clockwise after each deal"),
    ("herzeln", "invariants", "herzeln/invariants", "(partie −213)"),
    ("herzeln", "corner", "herzeln/domino-corner", "below the lowest rank comes an Ace"),
    ("herzerln", "auflegen", "herzerln/auflegen-rows", "The holder of HJ opens by laying it"),
    ("herzerln", "auflegen", "herzerln/auflegen", "HJ opens; per-suit rows grow"),
    ("herzerln", "auflegen", "herzerln/auflegen-places", "20, 14, 6, 0 (3 players: 21, 14, 7)"),
    ("herzerln", "partie", "herzerln/partie",
     "passes clockwise only after the partie's last round"),
    ("herzerln", "zero-sum", "herzerln/winner",
     "what the trick rounds take, the last round pays back"),
    ("herzerln", "pack", "herzerln/table", "the black sevens C7 and S7 removed"),
    ("common", "escape", "common/escape", "A ban never leaves a player without a legal card"),
])
def test_topics(game: str, topic: str, rule_id: str, phrase: str) -> None:
    result = run(game, topic)
    assert result.exit_code == 0, result.output
    assert phrase in flat(result.stdout)
    assert rule_id in ids(run(game, topic, "--json"))


@pytest.mark.parametrize(("game", "topic", "same_as"), [
    ("HERZELN", "Domino", "domino"),
    ("herzla", "Stock_Payout", "stock_payout"),  # an option name
    ("herzla", "heart", "hearts"),  # singular
    ("herzla", "schleich", "schleichermord"),  # a word's beginning
    ("herzerln", "jack", "jacks"),
])
def test_topic_spellings(game: str, topic: str, same_as: str) -> None:
    assert ids(run(game, topic, "--json")) == ids(run(game.lower(), same_as, "--json"))


def test_a_word_matching_several_entries_prints_them_all() -> None:
    result = run("herzla", "void", "--json")
    assert [i for i in ids(result) if i.endswith("-void")] == [
        "herzla/one-void", "herzla/two-void", "herzla/no-void"]
    text = run("herzla", "void").stdout
    assert text.splitlines()[0] == 'Herzla (game herzla): 7 rules about "void"'


def test_a_topic_without_a_game_searches_every_game() -> None:
    result = run("corner")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith('The rules about "corner" in every game:')
    assert "Aces \"turn the corner\"" in flat(result.stdout)
    found = ids(run("hearts", "--json"))
    assert {"herzla/heart-lead-ban", "herzeln/no-hearts", "herzerln/hearts",
            "common/escape"} <= set(found)
    assert len(found) == len(set(found))


def test_every_contract_has_a_rule() -> None:
    for game in BUILTIN_GAMES:
        for cls in builtin(game):
            if game == "herzla-kids":
                assert find(game, "normal")
                continue
            assert any(r.id == cls.key() for r in BOOK), (game, cls.id)
            result = run(game, cls.id)
            assert result.exit_code == 0, result.output
            assert get_rule(cls.key()).text.startswith(cls.default().describe()[:1].upper())


# -- options ----------------------------------------------------------------------------------
def test_every_option_of_every_builtin_game_is_documented() -> None:
    documented = {(g, name) for r in BOOK for g, name in r.option_refs()}
    for game in BUILTIN_GAMES:
        for cls in builtin(game):
            for opt in cls.options:
                assert (game, opt.name) in documented, (game, opt.name)
                result = run(game, opt.name, "--json")
                assert result.exit_code == 0, result.output
                entries_ = json.loads(result.stdout)["entries"]
                assert any(o["name"] == opt.name and o["game"] == game
                           for e in entries_ for o in e["options"])


def test_option_references_resolve() -> None:
    """No rule names an option that the contract classes do not declare."""
    for rule in BOOK:
        for game, name in rule.option_refs():
            assert resolve_option(game, name) is not None, (rule.id, game, name)


def test_options_come_from_the_contract_classes() -> None:
    data = json.loads(run("herzla", "stock_payout", "--json").stdout)
    opt = next(o for e in data["entries"] for o in e["options"] if o["name"] == "stock_payout")
    declared = resolve_option("herzla", "stock_payout")
    assert declared is not None
    assert opt["values"] == list(declared.choices or ())
    assert opt["default"] == declared.default == "void"
    assert opt["doc"] == declared.doc
    wrap = resolve_option("herzeln", "domino_wrap")
    assert wrap is not None
    found = next(o for e in json.loads(run("herzeln", "domino_wrap", "--json").stdout)["entries"]
                 for o in e["options"] if o["name"] == "domino_wrap")
    assert found["values"] == [True, False] and found["default"] is True


# -- JSON -------------------------------------------------------------------------------------
def test_json_of_the_whole_book() -> None:
    result = run("--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [g["id"] for g in data["games"]][:4] == list(BUILTIN_GAMES)
    assert data["games"][-1]["id"] == COMMON
    assert {e["id"] for e in data["entries"]} >= {r.id for r in BOOK}
    herzeln = next(g for g in data["games"] if g["id"] == "herzeln")
    game = get_game("herzeln")
    assert [c["id"] for c in herzeln["contracts"]] == [c.id for c in game.contract_classes()]
    assert herzeln["partie"] == game.partie_ids()
    assert herzeln["players"] == [3, 4]
    assert "corner" in data["topics"]["herzeln"]
    for entry in data["entries"]:
        assert set(entry) == {"id", "game", "origin", "title", "topics", "sources", "text",
                              "example", "options"}
        assert entry["sources"] and set(entry["sources"]) <= {
            "Herzla", "Herzeln", "Herzerln", "family", "ruling", "plug-in"}


def test_json_of_a_game() -> None:
    data = json.loads(run("herzerln", "--json").stdout)
    assert data["game"] == "herzerln" and data["topic"] is None
    assert data["about"]["contracts"][0]["id"] == "tricks"
    assert [e["id"] for e in data["entries"]] == [r.id for r in entries("herzerln")]


def test_rule_json_round_trip() -> None:
    rule = next(r for r in BOOK if r.id == "herzla/stock-payout")
    data = rule_json(rule)
    assert data["sources"] == ["ruling"] and data["game"] == "herzla"
    assert data["options"][0]["name"] == "stock_payout"


# -- errors -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("args", "named", "suggests"), [
    (("poker",), 'no game, rule or topic named "poker"',
     "games: herzla, herzla-kids, herzeln, herzerln, common"),
    (("herzl",), 'no game, rule or topic named "herzl"', "did you mean herzla"),
    (("skat", "domino"), 'unknown game "skat"', "known: herzla"),
    (("herzla", "bogus"), 'no rule of herzla is about "bogus"', "topics: normal, beddl, mord"),
    (("herzeln", "dominoes"), "", ""),  # a plural that matches: no error
    (("herzla", "stok"), '"stok"', "did you mean stock?"),
    (("herzerln", "corner"), 'no rule of herzerln is about "corner"', "auflegen"),
])
def test_unknown_game_or_topic(args: tuple[str, ...], named: str, suggests: str) -> None:
    result = run(*args)
    if not named:
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("herzla: error: ")
    assert named in lines[0] and suggests in lines[0]
    assert "Traceback" not in result.output


def test_unknown_topic_with_json_is_still_an_error() -> None:
    result = run("herzla", "bogus", "--json")
    assert result.exit_code == 2 and result.stdout == ""


# -- plug-ins ---------------------------------------------------------------------------------
class NoJacks(TrickContract):
    """A made-up plug-in deal: -5 per Jack captured."""

    game: ClassVar[str] = "herzeln"
    id: ClassVar[str] = "no-jacks"
    title: ClassVar[str] = "No jacks"
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[tuple[Option, ...]] = (
        Option("jack_penalty", 5, doc="points lost per Jack captured", minimum=0),)
    source: ClassVar[str] = "the plug-in's README"
    values: ClassVar[tuple[CardValue, ...]] = (
        CardValue(sum(1 << (s * 9 + Rank.JACK) for s in Suit), -5, "Jack"),)


class Bube(NoJacks):
    game: ClassVar[str] = "bube"


@pytest.fixture
def plugged(builtin_registry: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry with two plug-in contracts, restored after the test."""
    monkeypatch.setattr(registry, "_registry", dict(registry._load()))
    registry.register(NoJacks)
    registry.register(Bube)


@pytest.mark.usefixtures("plugged")
def test_plugin_contracts_show_their_rules_and_options() -> None:
    result = run("herzeln", "no-jacks")
    assert result.exit_code == 0, result.output
    text = flat(result.stdout)
    assert "No jacks [plug-in] (rule herzeln/no-jacks, plug-in tests.test_rules_cli)" in text
    assert "-5 per Jack. A trick deal for 4 players. Its rules: the plug-in's README." in text
    assert "Option jack_penalty=N (a whole number >= 0, default 5): points lost per Jack " \
           "captured." in text
    assert "no-jacks" in run("herzeln").stdout
    listing = run()
    assert "\n  bube " in listing.stdout and "bube: no-jacks" in listing.stdout
    whole = run("bube")
    assert whole.exit_code == 0 and "Contracts: no-jacks." in whole.stdout
    data = json.loads(run("bube", "--json").stdout)
    assert data["about"]["contracts"][0]["plugin"] is True
    assert data["entries"][0]["options"][0]["name"] == "jack_penalty"


def test_a_rule_id_names_one_rule() -> None:
    result = run("herzla/stock-payout")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Stock payout  [ruling]  (rule herzla/stock-payout)")
    assert ids(run("herzeln/no-queens", "--json")) == ["herzeln/no-queens"]
    bad = run("herzla/nothing")
    assert bad.exit_code == 2 and 'no rule has the id "herzla/nothing"' in bad.stderr


# -- faithful to RULES.md ---------------------------------------------------------------------
def _rules_md() -> str:
    for path in RULES_MD:
        if path.exists():
            return path.read_text(encoding="utf-8")
    pytest.skip("shared/RULES.md is not beside the repository")


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"[+±∓-]?\d+c?", text.replace("−", "-")))


def test_rule_texts_keep_the_numbers_of_rules_md() -> None:
    """Every number a rule text states (with its sign) appears in RULES.md too."""
    source = _rules_md()
    known = _numbers(source)
    derived = {"12", "6", "5", "4", "9", "7"}  # the children's hand sizes, worked out
    for rule in BOOK:
        missing = _numbers(rule.text) - known - derived
        assert not missing, (rule.id, missing)


# -- every rule id herzla cites resolves with `herzla rules ID` -------------------------------
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
    for path in (PACKAGE / "kinds").rglob("*.py"):  # each kind's engine and view
        source = path.read_text(encoding="utf-8")
        assert not re.search(r'Illegal\(\s*"', source), path  # ids come from ILLEGAL_PLAYS


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


@pytest.mark.parametrize(("game", "rid", "behind"), [
    ("herzla", "follow-suit", "common/trick-play"),
    ("herzeln", "not-adjacent", "herzeln/domino-row"),
    ("herzerln", "heart-free-first-trick", "herzerln/heart-free")])
def test_an_illegal_play_id_is_a_topic_of_its_game(game: str, rid: str, behind: str) -> None:
    res = CliRunner().invoke(main, ["rules", game, rid])
    assert res.exit_code == 0, res.output
    assert f"(rule {rid})" in res.stdout and f"(rule {behind})" in res.stdout


# -- the rule book: sources a player can read, cited examples shipped -------------------------
SHIPPED_CASES = ROOT / "docs" / "examples" / "cases"
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
        shipped = sorted(SHIPPED_CASES.glob(f"{number:02d}-*.json"))
        assert len(shipped) == 1, f"Case {number} is cited but not in docs/examples/cases"
