"""The catalogs are complete: every message of the code (and, with the web extra, of the
table app's templates) has a German translation, none fuzzy, each filling in the same fields."""

from __future__ import annotations

import pytest

pytest.importorskip("babel")

from herzla.i18n.extract import extracted, languages, problems

#: one process runs them, which extracts the messages of the code once (a second or so)
pytestmark = pytest.mark.xdist_group("catalog")


@pytest.mark.parametrize("lang", languages())
def test_every_message_of_the_code_is_translated(lang: str) -> None:
    found = list(problems(lang, templates=False))
    assert not found, f"{len(found)} problems, the first: " + "\n".join(found[:20])


def test_the_extraction_finds_the_messages() -> None:
    ids = {m.id for m in extracted(templates=False)}
    assert "unknown language {code} (known: {known})" in ids


@pytest.mark.web
@pytest.mark.parametrize("lang", languages())
def test_every_message_of_the_templates_is_translated(lang: str) -> None:
    pytest.importorskip("jinja2")
    found = list(problems(lang, templates=True))
    assert not found, f"{len(found)} problems, the first: " + "\n".join(found[:20])


def test_a_missing_translation_is_found(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: object) -> None:
    """The check fails where it should: a catalog that lacks a message of the code."""
    from pathlib import Path

    import herzla.i18n.extract as ex

    assert isinstance(tmp_path, Path)
    po = tmp_path / "de" / "LC_MESSAGES" / "herzla.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n', encoding="utf-8")
    monkeypatch.setattr(ex, "LOCALE_DIR", tmp_path)
    found = list(ex.problems("de", templates=False))
    assert any("not in the catalog" in p for p in found)
