"""The language herzla speaks: the choice (context-local), the catalog, numbers and dates."""

from __future__ import annotations

import gettext
import io
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

import herzla
from herzla.i18n import (
    UnknownLanguage,
    _,
    choose_language,
    current,
    format_money,
    format_number,
    language,
    language_from_env,
    ngettext,
    read_language,
    translations,
)
from herzla.i18n.catalog import compile_entries, compile_po, parse_po
from herzla.i18n.extract import placeholders, po_path

MESSAGE = "unknown language {code} (known: {known})"


def test_the_choice_is_a_context_manager_and_a_setter() -> None:
    assert current() == "en"
    with herzla.language("de"):
        assert current() == "de"
        assert _(MESSAGE).startswith("unbekannte Sprache")
        with language("en"):
            assert _(MESSAGE) == MESSAGE
        assert current() == "de"
    assert current() == "en"


def test_the_choice_is_per_thread() -> None:
    seen: list[str] = []
    with language("de"):
        t = threading.Thread(target=lambda: seen.append(current()))
        t.start()
        t.join()
    assert seen == ["en"]


@pytest.mark.parametrize("given_,code", [("de", "de"), ("DE", "de"), ("de_AT.UTF-8", "de"),
                                         ("de-CH", "de"), ("Deutsch", "de"), ("en_GB", "en"),
                                         ("English", "en")])
def test_language_names_are_read(given_: str, code: str) -> None:
    assert read_language(given_) == code


@pytest.mark.parametrize("bad", ["fr", "", "x" * 10_000, None, 3])
def test_an_unknown_language_is_one_clear_error(bad: object) -> None:
    with pytest.raises(UnknownLanguage, match="unknown language") as info:
        read_language(bad)
    assert len(str(info.value)) < 120


@pytest.mark.parametrize("env,code", [
    ({}, "en"), ({"LANG": "C"}, "en"), ({"LANG": "C.UTF-8"}, "en"), ({"LANG": "POSIX"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LANG": "fr_FR.UTF-8"}, "en"),
    ({"LC_ALL": "de_AT.UTF-8", "LANG": "en_US.UTF-8"}, "de"),
    ({"LANGUAGE": "fr:de", "LANG": "en_US"}, "de"),
    ({"LC_MESSAGES": "en_US.UTF-8", "LANG": "de_DE"}, "en"),
])
def test_the_environment_is_read_as_gettext_reads_it(env: dict[str, str], code: str) -> None:
    assert language_from_env(env) == code


@pytest.mark.parametrize("header,code", [
    (None, "en"), ("", "en"), ("de-DE,de;q=0.9,en;q=0.8", "de"), ("fr,en;q=0.5,de;q=0.4", "en"),
    ("fr-CH, fr;q=0.9", "en"), ("en;q=0.1, de-AT;q=0.7", "de"), ("de;q=abc,en", "en"),
    ("gsw-CH,de;q=0.5", "de"),
])
def test_the_browser_chooses(header: str | None, code: str) -> None:
    assert choose_language(header) == code


def test_plurals_follow_the_language() -> None:
    assert ngettext("{n} deal", "{n} deals", 1) == "{n} deal"
    assert ngettext("{n} deal", "{n} deals", 2) == "{n} deals"


def test_numbers_money_and_dates_by_language() -> None:
    assert format_money(170, "de") == "1,70 €"
    assert format_money(-1205, "en") == "−12.05 €"
    assert format_number(1234567.891, 1, "de") == "1.234.567,9"
    assert format_number(-0.001, 2, "de") == "0,00"
    with language("de"):
        assert format_money(123456) == "1.234,56 €"


@given(st.integers(min_value=-10**12, max_value=10**12))
def test_money_reads_back(cents: int) -> None:
    for lang, (group, point) in {"de": (".", ","), "en": (",", ".")}.items():
        text = format_money(cents, lang).removesuffix(" €").replace("−", "-")
        assert round(float(text.replace(group, "").replace(point, ".")) * 100) == cents


def test_the_catalog_compiles_as_gettext_reads_it() -> None:
    text = po_path("de").read_text(encoding="utf-8")
    entries = parse_po(text)
    compiled = gettext.GNUTranslations(io.BytesIO(compile_po(text)))
    assert compiled.info()["plural-forms"] == "nplurals=2; plural=(n != 1);"
    for e in entries:
        if (e.msgid and e.translated and not e.fuzzy and not e.obsolete
                and e.msgid_plural is None and e.msgctxt is None):
            assert compiled.gettext(e.msgid) == e.msgstr[0]
    assert translations("de").gettext(MESSAGE) == compiled.gettext(MESSAGE)


def test_a_po_with_plurals_contexts_and_fuzzy_entries() -> None:
    po = '''msgid ""
msgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgctxt "card"
msgid "Ober"
msgstr "Ober"

msgid "{n} trick"
msgid_plural "{n} tricks"
msgstr[0] "{n} Stich"
msgstr[1] "{n} "
"Stiche"

#, fuzzy
msgid "stock"
msgstr "Stock?"

msgid "untranslated"
msgstr ""

#~ msgid "gone"
#~ msgstr "weg"
'''
    entries = parse_po(po)
    assert [e.msgid for e in entries] == ["", "Ober", "{n} trick", "stock", "untranslated",
                                          "gone"]
    assert entries[-1].obsolete and entries[3].fuzzy and not entries[4].translated
    t = gettext.GNUTranslations(io.BytesIO(compile_entries(entries)))
    assert t.pgettext("card", "Ober") == "Ober"
    assert t.ngettext("{n} trick", "{n} tricks", 5) == "{n} Stiche"
    assert t.gettext("stock") == "stock"  # a fuzzy entry is not used
    assert t.gettext("gone") == "gone"


@pytest.mark.parametrize("bad", ['msgid "a"\nmsgstr b\n', 'bogus "x"\n', '"lonely"\n'])
def test_a_broken_po_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="line"):
        parse_po(bad)


def test_placeholders() -> None:
    assert placeholders("{a} pays {b:+d} and %(n)d") == ["%(n)d", "{a}", "{b:+d}"]
