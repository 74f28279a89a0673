"""The command line in German (``--lang de``, or the environment's language): help, click's own
words, the rule book with each game's words, explanations of amounts, names read in German; and
English unchanged where English is asked for.  Through click's CliRunner."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner, Result
from hypothesis import given
from hypothesis import strategies as st

from herzla.cli import main
from herzla.contracts import contract_class, games
from herzla.i18n import current, language
from herzla.rulebook import entries, find

pytestmark = pytest.mark.usefixtures("builtin_registry")

BUILTIN_GAMES = ("herzla", "herzla-kids", "herzeln", "herzerln", "common")
#: words of English prose that German text never holds (rule ids, option names and values,
#: card codes and quoted input are taken out first)
STOP = {"the", "and", "of", "is", "are", "with", "each", "per", "every", "when", "seat",
        "seats", "trick", "tricks", "player", "players", "hearts", "card", "cards", "void",
        "wins", "must", "may", "deal", "deals", "game", "pays", "from", "to", "by",
        "one", "no", "not", "which", "what", "who", "after", "before", "lead", "leads"}


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env, prog_name="herzla")


def english_words(text: str) -> list[str]:
    """The English stop-words of ``text``, once its codes are taken out: quoted input, rule ids
    (``herzla/two-void``), option assignments (``no_void=pay-stock``), names with ``-`` or
    ``_`` in them (``heart-lead-ban``) and the source tags (``[Herzla]``)."""
    text = re.sub(r'"[^"]*"|\[[^]]*\]|\([a-z-]+\)|Vorgabe [a-z-]+', " ", text)
    words = re.findall(r"[A-Za-zÄÖÜäöüß][\w'./=|-]*", text)
    plain = [w for w in words if not re.search(r"[-_/=|.]", w.rstrip(".,;:"))]
    return [w for w in plain if w in STOP]


# -- choosing the language ------------------------------------------------------------------
def test_an_unknown_language_is_one_line_and_exit_2() -> None:
    result = run("rules", "--lang", "fr")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "unknown language" in result.stderr
    assert run("--lang=xx", "score", "--help").exit_code == 2


def test_the_environment_chooses_when_no_flag_does() -> None:
    german = run("score", "--help", env={"LANG": "de_DE.UTF-8"})
    assert german.exit_code == 0 and german.stdout.startswith("Aufruf: herzla score")
    assert run("score", "--help", env={"LANGUAGE": "de:en", "LANG": "C"}).stdout == \
        german.stdout
    for env in ({"LANG": "C"}, {"LANG": "POSIX"}, {"LC_ALL": "fr_FR.UTF-8"}, {}):
        assert run("score", "--help", env=env).stdout.startswith("Usage: herzla score")
    # the flag wins over the environment
    assert run("score", "--help", "--lang", "en", env={"LANG": "de_DE.UTF-8"}).stdout \
        .startswith("Usage:")


def test_the_language_ends_with_the_command() -> None:
    run("rules", "herzla", "--lang", "de")
    assert current() == "en"
    assert "Players, pack and rank order" in run("rules", "herzla").stdout
    for first, then in (("de", "en"), ("en", "de"), ("de", "en")):
        assert "Diese Hilfe" in run("deal", "--help", "--lang", first).stdout or first == "en"
        out = run("deal", "--help", "--lang", then).stdout
        assert ("Show this message and exit." in out) == (then == "en")
        assert ("Diese Hilfe zeigen und beenden." in out) == (then == "de")


def test_the_picture_of_a_hand_in_german() -> None:
    record = run("example", "herzla-two-void").stdout
    german = CliRunner().invoke(main, ["show", "-", "--lang", "de"], input=record)
    english = CliRunner().invoke(main, ["show", "-"], input=record)
    assert german.exit_code == english.exit_code == 0
    out = german.stdout
    for words in ("Hände", "Platz 0 (Vorhand)", "Platz 3 (Geber)", "Stiche", "geht an",
                  "darf es aber nicht ausspielen (heart-lead-ban)", "Ergebnis: fertig",
                  "Platz 1 \u221230 ct", "Sch-O (DQ)", "in Klammern das Kürzel"):
        assert words in out, words
    assert english_words(out) == []
    assert "Hands" in english.stdout and "seat 0 (forehand)" in english.stdout
    # a German card is never written as another card's code
    assert not re.search(r"\bHO\b|\bSO\b", out)


@pytest.mark.parametrize("command", ["score", "replay", "rules", "pad", "show", "review",
                                     "advise", "example", "deal", "serve"])
def test_the_peoples_commands_help_in_german(command: str) -> None:
    german = run(command, "--help", "--lang", "de")
    english = run(command, "--help")
    assert german.exit_code == english.exit_code == 0
    assert german.stdout.startswith(f"Aufruf: herzla {command}")
    assert "Optionen:" in german.stdout and "Diese Hilfe zeigen und beenden." in german.stdout
    for text in ("Usage:", "Options:", "Show this message"):
        assert text not in german.stdout
    # the first paragraph (the command's own words) is translated
    first = german.stdout.split("\n\n")[1]
    assert first != english.stdout.split("\n\n")[1]
    assert "--lang de|en" in german.stdout and "--lang de|en" in english.stdout


def test_the_group_and_a_subcommand_in_german() -> None:
    bare = run("--lang", "de")
    assert bare.exit_code == 0 and bare.stdout == run("--lang", "de", "--help").stdout
    out = run("--lang", "de", "--help").stdout
    assert "Befehle:" in out and "Regeln, Simulator" in out
    assert run("pad", "add", "--help", "--lang", "de").stdout.startswith(
        "Aufruf: herzla pad add")


def test_clicks_own_errors_in_german() -> None:
    result = run("score", "herzla", "normal", "--bogus", "--lang", "de")
    assert result.exit_code == 2
    assert result.stderr.startswith("herzla: Fehler: Keine Option '--bogus'.")
    assert "(siehe 'herzla score --help')" in result.stderr
    missing = run("rules", "herzla", "x", "y", "--lang", "de")
    assert missing.exit_code == 2 and "Unerwartetes weiteres Argument" in missing.stderr
    assert "no such command" not in run("nope", "--lang", "de").stderr.lower()


def test_english_is_unchanged_by_the_flag() -> None:
    for args in (("rules", "herzla"), ("rules",), ("score", "--help"),
                 ("score", "herzla", "normal", "--hearts", "0,3,5,0", "--stock", "80")):
        assert run(*args, "--lang", "en").stdout == run(*args).stdout


# -- the rule book --------------------------------------------------------------------------
@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_the_rule_book_of_every_game_reads_german(game: str) -> None:
    result = run("rules", game, "--lang", "de")
    assert result.exit_code == 0
    assert english_words(result.stdout) == []
    english = run("rules", game).stdout
    assert english_words(english)  # the check finds English where there is some


@pytest.mark.parametrize("game", BUILTIN_GAMES)
def test_every_rule_has_a_german_title_and_text(game: str) -> None:
    english = {r.id: r for r in entries(game)}
    with language("de"):
        german = entries(game)
    for rule in german:
        assert english_words(rule.title) == [], rule.id
        assert english_words(rule.text) == [], (rule.id, rule.text)
        assert english_words(rule.example) == [], rule.id
        if rule.text != english[rule.id].text:
            continue
        assert rule.text == "" or not english_words(rule.text)


def test_the_rule_book_has_each_games_words() -> None:
    text = " ".join(run("rules", "herzla", "--lang", "de").stdout.split())
    for word in ("Stich", "Vorhand", "Geber", "Stock", "ausspielen", "Farbe bekennen",
                 "Farbzwang", "kein Stichzwang", "Spieler", "Gegenspieler", "Normalspiel",
                 "Beddl", "Mord", "Schleichermord", "Sau", "Ober", "Unter"):
        assert word in text, word
    herzeln = " ".join(run("rules", "herzeln", "--lang", "de").stdout.split())
    assert "Touren" in herzeln and "Partie" in herzeln
    assert "Runden" in " ".join(run("rules", "herzerln", "--lang", "de").stdout.split())


@pytest.mark.parametrize(("word", "rule"), [
    ("Vorhand", "herzla/lead"), ("Geber", "common/seats"), ("Stock", "herzla/stock-payout"),
    ("Bettel", "herzla/beddl"), ("Beddl", "herzla/beddl"), ("Normalspiel", "herzla/normal"),
    ("Farbzwang", "common/trick-play"), ("Renonce", "herzla/renege"),
])
def test_topics_are_found_by_their_german_names(word: str, rule: str) -> None:
    assert rule in [r.id for r in find("herzla", word)]
    result = run("rules", word, "--lang", "de")
    assert result.exit_code == 0 and f"(Regel {rule})" in result.stdout


def test_a_german_typo_gets_did_you_mean_in_german() -> None:
    result = run("rules", "herzla", "vorhnd", "--lang", "de")
    assert result.exit_code == 2
    assert "meinst du vorhand" in result.stderr and "keine Regel von herzla" in result.stderr


def test_json_keeps_its_keys_and_ids_in_german() -> None:
    english = json.loads(run("rules", "herzla", "--json").stdout)
    german = json.loads(run("rules", "herzla", "--json", "--lang", "de").stdout)
    assert [e["id"] for e in german["entries"]] == [e["id"] for e in english["entries"]]
    assert [sorted(e) for e in german["entries"]] == [sorted(e) for e in english["entries"]]
    assert german["entries"][0]["title"] != english["entries"][0]["title"]


# -- explanations of amounts ----------------------------------------------------------------
def explanation(result: Result) -> list[str]:
    return [line for line in result.stdout.splitlines() if line.startswith("- ")]


@pytest.mark.parametrize("args", [
    ("herzla", "normal", "--hearts", "0,3,5,0", "--stock", "80"),
    ("herzla", "normal", "--tricks", "1,3,2,2", "--hearts", "0,8,0,0"),
    ("herzla", "normal", "--hearts", "2,2,2,2"),
    ("herzla", "normal", "--tricks", "8,0,0,0", "--hearts", "8,0,0,0"),
    ("herzla", "beddl", "--declarer", "3", "--lost"),
    ("herzla", "mord", "--declarer", "1", "--made"),
    ("herzla", "normal", "--renege", "2", "--stock", "80"),
    ("herzeln", "no-queens", "--captured", "CQ", "--captured", "SQ", "--captured", "DQ HQ",
     "--captured", "-"),
    ("herzeln", "every-trick", "--tricks", "3,2,2,1"),
    ("herzeln", "last-trick", "--last-trick", "3"),
    ("herzerln", "auflegen", "--order", "2,3,0,1"),
])
def test_explanations_in_german(args: tuple[str, ...]) -> None:
    german = run("score", *args, "--lang", "de")
    english = run("score", *args)
    assert german.exit_code == english.exit_code == 0
    lines = explanation(german)
    assert lines and len(lines) == len(explanation(english))
    assert lines != explanation(english)
    for line in lines:
        assert english_words(line) == [], line
        assert "Regel " in line or "Stock nach dem Spiel" in line or "Gestochene" in line


def test_the_normal_game_explained_in_german() -> None:
    out = "\n".join(explanation(run("score", "herzla", "normal", "--hearts", "0,3,5,0",
                                    "--stock", "80", "--lang", "de")))
    assert "Gestochene Herzen: Platz 1 3, Platz 2 5; herzfrei: Platz 0 und Platz 3." in out
    assert "je 40 ct" in out and "Stock nach dem Spiel: 0 ct." in out


def test_numbers_in_german_text_use_the_minus_sign() -> None:
    out = "\n".join(explanation(run("score", "herzeln", "no-tricks", "--tricks", "0,4,1,3",
                                    "--lang", "de")))
    assert "\u221240" in out and "-40" not in out


def test_json_answers_do_not_change_with_the_language() -> None:
    args = ("score", "herzla", "normal", "--hearts", "0,3,5,0", "--stock", "80", "--json")
    english, german = json.loads(run(*args).stdout), json.loads(run(*args, "--lang", "de").stdout)
    assert english.keys() == german.keys()
    assert english["scores"] == german["scores"]


# -- names read in German -------------------------------------------------------------------
@pytest.mark.parametrize(("name", "contract"), [("Bettel", "beddl"), ("BEDDL", "beddl"),
                                                ("Normalspiel", "normal"), ("mord", "mord")])
def test_contracts_by_their_german_names(name: str, contract: str) -> None:
    assert contract_class("herzla", name).id == contract
    result = run("score", "herzla", name, "--declarer", "3", "--lost") if contract != "normal" \
        else run("score", "herzla", name, "--hearts", "0,3,5,0")
    assert result.exit_code == 0 and result.stdout.startswith(f"herzla {contract},")


@given(st.sampled_from(["Bettel", "Normalspiel"]), st.lists(st.booleans(), min_size=11,
                                                               max_size=11))
def test_german_names_read_in_any_case(name: str, upper: list[bool]) -> None:
    typed = "".join(c.upper() if u else c.lower() for c, u in zip(name, upper, strict=False))
    assert contract_class("herzla", typed).id == ("beddl" if name == "Bettel" else "normal")


def test_every_game_is_known() -> None:
    assert set(BUILTIN_GAMES) - {"common"} <= set(games())


# -- the German pages -----------------------------------------------------------------------
def test_the_german_pages_transcripts_are_true() -> None:
    import shlex
    from pathlib import Path

    pages = sorted((Path(__file__).resolve().parents[1] / "docs" / "de").glob("*.md"))
    assert pages
    found = 0
    for page in pages:
        for block in re.findall(r"```console\n(.*?)```", page.read_text(encoding="utf-8"),
                                re.S):
            command, _nl, expected = block.partition("\n")
            assert command.startswith("$ herzla ")
            result = run(*shlex.split(command)[2:])
            assert result.stdout.rstrip("\n") == expected.rstrip("\n"), command
            found += 1
    assert found
