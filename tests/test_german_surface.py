"""What a German reader met in English before, now guarded: the error lines of the contracts
and the tables, the help's usage line and option names, the notebook's fragments, the words
each game uses for its cards, one cent sign, one word for the disputes desk, and policies named
by their level in either language.  English stays as it was where English is asked for."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import herzla
from herzla.cards import Card, parse_card
from herzla.cli import main
from herzla.contracts import TallyError, UnknownContract, contract_class
from herzla.draw.faces import Faces, card_name, labelled, legend, suit_name
from herzla.evening.settle import Payment
from herzla.i18n import language
from herzla.options import OptionError
from herzla.players import PolicyError
from herzla.players.registry import policy_of, spelled
from herzla.table import TableError, new_table

pytestmark = pytest.mark.usefixtures("builtin_registry")

PO = Path(__file__).resolve().parents[1] / "herzla" / "locale" / "de" / "LC_MESSAGES" / "herzla.po"
PEOPLES = ("score", "replay", "rules", "pad", "show", "review", "advise", "example", "deal",
           "serve", "pad new", "pad add", "pad edit", "pad drop", "pad undo", "pad show",
           "pad settle")
#: English words that German help never holds (the help's own words, with codes taken out)
ENGLISH = {"the", "and", "of", "is", "with", "each", "one", "this", "that", "write", "also",
           "hand", "seat", "as", "by", "to", "or", "OPTIONS", "INTEGER",
           "GAME", "CONTRACT", "CARDS", "SEAT", "RECORD", "FILE", "TOPIC", "ADDRESS",
           "SECONDS", "CENTS", "POLICY", "CHOICE", "PICTURE", "PAGE", "VALUE", "COMMAND", "ARGS",
           "Usage", "Options", "Commands", "processes", "solve", "workers", "required", "default"}


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), prog_name="herzla")


def english_in_help(text: str) -> list[str]:
    """The English words of a help text, once its examples (lines that run herzla), quoted
    commands, option flags and ``name=value`` codes are taken out."""
    kept = [line for line in text.splitlines()
            if not line.lstrip().startswith(("herzla ", "--", "-o ")) or "  " in line.strip()]
    prose = re.sub(r"'[^']*'|`[^`]*`|--?[a-z][\w-]*|\b\w+=\S+|\S+\.json|\w+\[[^]]*\]|"
                   r"tcp://\S+|https?://\S+", " ", "\n".join(kept))
    return [w for w in re.findall(r"[A-Za-z]+", prose) if w in ENGLISH]


# -- the help: usage line, option names, every option's text ---------------------------------
@pytest.mark.parametrize("command", PEOPLES)
def test_the_help_of_every_peoples_command_has_no_english_word(command: str) -> None:
    german = run(*command.split(), "--help", "--lang", "de")
    assert german.exit_code == 0
    assert english_in_help(german.stdout) == [], german.stdout
    assert "[OPTIONEN]" in german.stdout.splitlines()[0]
    english = run(*command.split(), "--help")
    assert "[OPTIONS]" in english.stdout.splitlines()[0]
    assert english_in_help(english.stdout)  # the check finds English where there is some


def test_the_usage_line_and_option_names_in_german() -> None:
    out = run("score", "--help", "--lang", "de").stdout
    assert out.startswith("Aufruf: herzla score [OPTIONEN] SPIEL SPIELART\n")
    for shown in ("-p, --players ZAHL", "--captured KARTEN", "--last-trick PLATZ",
                  "-o, --option NAME=WERT"):
        assert shown in out, shown
    assert run("--help", "--lang", "de").stdout.startswith(
        "Aufruf: herzla [OPTIONEN] BEFEHL [ARGUMENTE]...")
    assert "[SPIEL] [THEMA]" in run("rules", "--help", "--lang", "de").stdout.splitlines()[0]
    assert "--record PROTOKOLL.json|-" in run("pad", "add", "--help", "--lang", "de").stdout
    # a missing argument is named as the help names it; English as it was, afterwards too
    assert "'SPIEL'" in run("score", "--lang", "de").stderr
    assert run("score", "--help").stdout.startswith(
        "Usage: herzla score [OPTIONS] GAME CONTRACT\n")
    assert "--players INTEGER" in run("score", "--help").stdout
    assert "'GAME'" in run("score").stderr


def test_the_help_names_the_arguments_as_its_usage_line_does() -> None:
    replay = run("replay", "--help", "--lang", "de").stdout
    assert "PROTOKOLL|-" in replay.splitlines()[0] and "PROTOKOLL ist eine Datei" in replay
    assert "RECORD" not in replay and "DATEI" in run("pad", "--help", "--lang", "de").stdout


def test_the_disputes_desk_has_one_german_name() -> None:
    text = PO.read_text(encoding="utf-8")
    assert "Schiedsstelle" not in text
    for args in (("--help",), ("serve", "--help")):
        assert "Schiedsrichter" in run(*args, "--lang", "de").stdout


# -- error lines ------------------------------------------------------------------------------
def _german(call: object) -> tuple[str, str]:
    assert callable(call)
    texts = []
    for code in ("en", "de"):
        with language(code), pytest.raises(ValueError) as info:
            call()
        texts.append(str(info.value))
    return texts[0], texts[1]


@pytest.mark.parametrize(("call", "english", "german"), [
    (lambda: contract_class("herzla", "bettl"), "is not a herzla contract", "ist kein Spiel"),
    (lambda: contract_class("herzla", "beddl")(4), "needs a declarer", "braucht einen Spieler"),
    (lambda: contract_class("herzla", "beddl")(4, declarer=7), "is not a seat of 4",
     "ist kein Platz bei 4"),
    (lambda: contract_class("herzla", "normal")(4, declarer=1), "has no declarer",
     "hat keinen Spieler"),
    (lambda: contract_class("herzeln", "domino")(4, {"domino_wrap": False}),
     "needs domino_suits=same-suit", "braucht domino_suits=same-suit"),
    (lambda: new_table("herzla", players=1), "is not a table's number of players",
     "ist keine Spielerzahl"),
    (lambda: new_table("herzla", seed=-1), "seed: a whole number", "seed: eine ganze Zahl"),
    (lambda: policy_of("Meisterr"), "did you mean Meister", "meinst du Meister"),
])
def test_error_lines_speak_german(call: object, english: str, german: str) -> None:
    en, de = _german(call)
    assert english in en and german in de, (en, de)


def test_a_tally_that_cannot_be_in_german() -> None:
    result = run("score", "herzla", "beddl", "--declarer", "3", "--tricks", "0,0,6,2",
                 "--lang", "de")
    assert result.exit_code == 2
    assert "Beddl endet, sobald der Spieler einen Stich macht" in result.stderr
    assert "ends the moment" in run("score", "herzla", "beddl", "--declarer", "3", "--tricks",
                                    "0,0,6,2").stderr
    order = run("score", "herzerln", "auflegen", "--order", "0,0,1,2", "--lang", "de")
    assert order.exit_code == 2 and "Reihenfolge des Ausgehens" in order.stderr
    assert isinstance(TallyError("x"), ValueError)


def test_an_unknown_contract_is_one_german_line_on_the_command_line() -> None:
    result = run("score", "herzla", "bettl", "--lang", "de")
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "ist kein Spiel von herzla (meinst du Bettel?" in result.stderr
    assert isinstance(UnknownContract("x"), LookupError)


@pytest.mark.web  # the web extra: herzla serve and the app
def test_serve_refuses_a_port_in_german() -> None:
    result = run("serve", "--port", "70000", "--lang", "de")
    assert result.exit_code == 2 and "ist kein Port" in result.stderr


# -- one cent sign ----------------------------------------------------------------------------
def test_every_amount_of_cents_is_written_alike() -> None:
    german = run("score", "herzla", "normal", "--hearts", "0,3,5,0", "--stock", "80",
                 "--lang", "de").stdout
    english = run("score", "herzla", "normal", "--hearts", "0,3,5,0", "--stock", "80").stdout
    assert "Platz 0 +80 ct, Platz 1 \u221230 ct" in german and "Stock: 0 ct" in german
    assert not re.search(r"\dct\b", german)
    assert "seat 0 +80c, seat 1 -30c" in english and "Stock: 0c" in english
    with language("de"):
        assert str(Payment("Anna", "stock", 20)) == "Anna zahlt 20 ct in den Stock"


# -- policies by their level --------------------------------------------------------------------
@pytest.mark.parametrize(("given", "name"), [
    ("club player", "heuristic"), ("Club Player", "heuristic"),
    ("Stammtischspieler", "heuristic"), ("STAMMTISCHSPIELER", "heuristic"),
    ("beginner", "random"), ("expert", "expert"), ("Meister", "expert"), ("strong", "pimc"),
    ("stark", "pimc"), ("Heuristic", "heuristic"),
])
def test_a_policy_is_named_by_its_level_in_english_or_german(given: str, name: str) -> None:
    assert policy_of(given).name == name
    assert spelled(f"{given},random") == f"{name},random"


def test_a_policy_typo_is_answered_with_did_you_mean() -> None:
    with pytest.raises(PolicyError, match="did you mean Stammtischspieler"):
        policy_of("Stammtischspiler")
    with pytest.raises(PolicyError, match="unknown policy"):
        policy_of("nobody at all")


def test_the_app_takes_an_opponent_by_its_level() -> None:
    from herzla.web.table_docs import check_policy

    assert check_policy("Meister") == "expert" and check_policy("stark") == "pimc"
    with language("de"), pytest.raises(TableError, match="ist hier keine Spielweise"):
        check_policy("Meisterinnen und Meister")


# -- each game's words for its cards ------------------------------------------------------------
@pytest.mark.parametrize(("game", "leaf"), [("herzla", "Gras"), ("herzla-kids", "Gras"),
                                            ("herzeln", "Laub"), ("herzerln", "Laub")])
def test_each_game_names_the_german_suits_its_own_way(game: str, leaf: str) -> None:
    with language("de"):
        assert [suit_name(s, Faces.GERMAN, game) for s in Card.from_str("S7").suit.__class__] \
            == ["Eichel", leaf, "Herz", "Schelln"]
        assert f"Gr {leaf}" in legend(Faces.GERMAN, True, game)[0]
        assert card_name(Card.from_str("SQ"), Faces.GERMAN, game) == f"{leaf}-Ober"
    # English as it was
    assert suit_name(Card.from_str("S7").suit, Faces.GERMAN, game) == "Gras"
    assert "Sch Schellen = D" in legend(Faces.GERMAN, True, game)[0]


def test_the_austrian_games_are_drawn_with_laub_in_german() -> None:
    for example in ("herzeln-partie", "herzerln-partie"):
        record = run("example", example).stdout
        german = CliRunner().invoke(main, ["show", "-", "--lang", "de"], input=record).stdout
        english = CliRunner().invoke(main, ["show", "-"], input=record).stdout
        assert "Laub" in german and "Gras" not in german and "Schelln" in german
        assert "Gras" in english and "Laub" not in english
    herzla_hand = CliRunner().invoke(main, ["show", "-", "--lang", "de"],
                                     input=run("example", "herzla-two-void").stdout).stdout
    assert "Gras" in herzla_hand and "Laub" not in herzla_hand


def test_french_faces_in_german_say_treff_pik_karo_bube_dame() -> None:
    queen, jack = Card.from_str("SQ"), Card.from_str("DJ")
    with language("de"):
        assert [suit_name(s, Faces.FRENCH) for s in queen.suit.__class__] == \
            ["Treff", "Pik", "Herz", "Karo"]
        assert card_name(queen, Faces.FRENCH) == "Pik-Dame"
        assert labelled(queen, Faces.FRENCH) == "\u2660D (SQ)"
        assert labelled(jack, Faces.FRENCH) == "\u2666B (DJ)"
        assert labelled(queen, Faces.FRENCH, unicode=False) == "SQ"  # the code's letters
    assert labelled(queen, Faces.FRENCH) == "\u2660Q (SQ)"
    assert card_name(queen, Faces.FRENCH) == "Queen of Spades"
    # every label reads back as its own card, and as no other
    for card in Card.ALL:
        with language("de"):
            assert parse_card(labelled(card, Faces.FRENCH).split(" (")[0]) == card


@pytest.mark.web  # the web extra: herzla serve and the app
def test_the_app_names_the_austrian_leaf_laub() -> None:
    from herzla.web.page_parts import card_view, faces_for

    herzeln = contract_class("herzeln", "no-hearts")(4)
    herzla_ = contract_class("herzla", "normal")(4)
    assert card_view("SQ", faces_for(herzeln)).name == "Laub-Ober"
    assert card_view("SQ", faces_for(herzla_)).name == "Gras-Ober"
    assert card_view("DQ", faces_for(herzla_)).name == "Schelln-Ober"


# -- the notebook -----------------------------------------------------------------------------
def test_the_notebooks_fragments_speak_german() -> None:
    from herzla.analysis.solve import solve
    from herzla.draw.notebook import solve_html

    record = json.loads(run("example", "herzla-two-void-trick6").stdout)
    res = solve(record, seat=2, plays=True)
    english = solve_html(res)
    with language("de"):
        german = solve_html(res)
    assert "<th>value</th>" in english and "exact double-dummy value" in english
    assert "<th>Wert</th>" in german and "genauer Wert mit offenen Karten" in german
    assert "value" not in german and "seat" not in german


def test_the_simulations_fragment_speaks_german() -> None:
    from herzla.draw.notebook import sim_html

    res = herzla.simulate("herzla", contract="normal", hands=40, seed=3, jobs=1)
    english = sim_html(res)
    with language("de"):
        german = sim_html(res)
    for word in ("share of hands", "each seat&#x27;s scores", "players", "policy", "mean"):
        assert word in english or word.replace("&#x27;", "'") in english, word
    for word in ("Anteil der Spiele", "Ergebnisse jedes Platzes", "Spieler", "Spielweise",
                 "Mittel", "Streuung"):
        assert word in german, word
    for word in ("share", "players", "policy", "seed", "mean", "hands"):
        assert not re.search(rf"\b{word}\b", german), word


def test_options_are_refused_in_german() -> None:
    with language("de"), pytest.raises(OptionError, match="unbekannte Option"):
        contract_class("herzla", "normal")(4, {"herz": 3})


# -- the people's commands' answers ------------------------------------------------------------
STOP = {"the", "and", "of", "is", "with", "each", "every", "seat", "seats", "trick", "player",
        "players", "play", "plays", "played", "wins", "cost", "mistake", "reviewed", "against",
        "model", "double", "dummy", "nothing", "hands", "finished", "scores", "totals", "not",
        "complete", "illegal", "Dropped", "deal", "deals", "after", "again", "Took", "back",
        "game"}


def _english(text: str) -> list[str]:
    text = re.sub(r"\([a-z-]+\)|\b[a-z]+(?:[/-][a-z0-9]+)+\b", " ", text)
    return [w for w in re.findall(r"[A-Za-z]+", text) if w in STOP]


@pytest.mark.parametrize("example", ["herzla-two-void", "herzla-beddl-lost",
                                     "herzeln-3p-domino", "herzerln-heart-free"])
def test_review_speaks_german(example: str, tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(run("example", example).stdout, encoding="utf-8")
    german = run("review", str(path), "--lang", "de")
    english = run("review", str(path))
    assert german.exit_code == english.exit_code
    assert _english(german.stdout) == [], german.stdout
    assert _english(english.stdout)  # the check finds English where there is some


def test_review_in_german_in_a_players_words(tmp_path: Path) -> None:
    path = tmp_path / "hand.json"
    path.write_text(run("example", "herzla-two-void").stdout, encoding="utf-8")
    out = run("review", str(path), "--lang", "de").stdout
    assert "gegen gute Mitspieler und mit offenen Karten (Cent, mehr ist besser)" in out
    assert "die Züge von jedem Platz" in out and "; Platz 1 sticht" in out
    assert re.search(r"Platz 0: 8 Züge durchgegangen, gegen gute Mitspieler \d+,\d Cent "
                     r"verloren; mit offenen Karten 1 Fehler, der 90 Cent gekostet hat", out)


def test_the_examples_list_in_german() -> None:
    german = run("example", "--lang", "de").stdout
    assert _english(german) == [], german
    assert "eine Partie herzeln aus 8 Spielen, fertig: Summen" in german
    assert "herzla beddl, 4 Spieler, 28 Züge: Ergebnis +80 ct" in german
    assert "herzla beddl, 4 players, 28 plays: scores +80c" in run("example").stdout


def test_the_pads_changes_in_german(tmp_path: Path) -> None:
    path = str(tmp_path / "abend.json")
    assert run("pad", "new", path, "--game", "herzla", "--players", "A,B,C,D").exit_code == 0
    for hearts in ("0,3,5,0", "2,2,2,2", "8,0,0,0"):
        run("pad", "add", path, "--hearts", hearts, "--tricks", "2,2,2,2")
    edited = run("pad", "edit", path, "1", "--hearts", "0,4,4,0", "--lang", "de").stdout
    assert "(2 Spiele danach neu gezählt)" in edited
    dropped = run("pad", "drop", path, "2", "--lang", "de").stdout
    assert dropped.startswith("Spiel 2 gestrichen; 1 Spiel danach neu gezählt.")
    undone = run("pad", "undo", path, "--lang", "de").stdout
    assert undone.startswith("Zurückgenommen: Spiel 2 gestrichen.")
    assert run("pad", "drop", path, "3").stdout.startswith("Dropped deal 3.")


def test_advice_names_the_contract_in_german() -> None:
    out = run("advise", "herzla", "--hand", "CA CK CQ SA SK H7 H8 D7", "--samples", "12",
              "--seat", "0", "--lang", "de").stdout
    assert "Normalspiel" in out and "Normal game" not in out


# -- options named in German -------------------------------------------------------------------
@pytest.mark.parametrize(("game", "given", "name"), [
    ("herzla", "herzwert", "heart_unit"), ("herzla", "Herzwert", "heart_unit"),
    ("herzla", "EINSATZ", "contract_stake"), ("herzla", "renonce", "renege"),
    ("herzeln", "domino_ums_eck", "domino_wrap"), ("herzla-kids", "ziel", "target"),
])
def test_an_option_is_read_by_its_german_name(game: str, given: str, name: str) -> None:
    from herzla.contracts import get_game
    from herzla.options import given_options

    opt = next(o for o in get_game(game).options if o.name == name)
    value = "nein" if isinstance(opt.default, bool) else (
        opt.choices[-1] if opt.choices else str(opt.default))
    assert list(given_options(get_game(game).options, {given: value})) == [name]


def test_an_option_in_german_on_the_command_line() -> None:
    german = run("score", "herzla", "normal", "--hearts", "0,3,5,0", "-o", "herzwert=20",
                 "--lang", "de")
    english = run("score", "herzla", "normal", "--hearts", "0,3,5,0", "-o", "heart_unit=20")
    assert german.exit_code == english.exit_code == 0
    assert "Platz 2 \u2212100 ct" in german.stdout and "seat 2 -100c" in english.stdout
    typo = run("score", "herzla", "normal", "--hearts", "0,3,5,0", "-o", "Herzwertt=20",
               "--lang", "de")
    assert typo.exit_code == 2 and "meinst du herzwert?" in typo.stderr
    assert "did you mean heart_unit?" in run("score", "herzla", "normal", "--hearts", "0,3,5,0",
                                             "-o", "heart_unt=20").stderr
    ja = run("score", "herzeln", "domino", "--order", "0,1,2,3", "-o", "domino_ums_eck=nein",
             "-o", "dominofarben=same-suit")
    assert ja.exit_code == 0


def test_the_german_rule_book_names_an_option_both_ways() -> None:
    german = run("rules", "herzla", "settlement", "--lang", "de").stdout
    assert "Option heart_unit/herzwert=N" in german
    assert "Option heart_unit=N" in run("rules", "herzla", "settlement").stdout


@pytest.mark.web  # the web extra: herzla serve and the app
def test_serve_refuses_a_folder_in_german(tmp_path: Path) -> None:
    german = run("serve", "--db", str(tmp_path), "--lang", "de")
    assert german.exit_code == 2 and "ist ein Ordner, keine Datenbankdatei" in german.stderr
    assert "is a folder, not a database file" in run("serve", "--db", str(tmp_path)).stderr


def test_a_file_that_is_no_model_in_german(tmp_path: Path) -> None:
    bad = tmp_path / "weights.npz"
    bad.write_text("no model", encoding="utf-8")
    with language("de"), pytest.raises(ValueError, match="keine Modelldatei"):
        policy_of(f"net[weights={bad}]")
    with pytest.raises(ValueError, match="not a model file"):
        policy_of(f"net[weights={bad}]")
