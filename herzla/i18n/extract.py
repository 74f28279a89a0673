"""The messages of herzla's code and templates, and how the catalogs stand against them.

For the people who keep the catalogs (``tools/catalog.py``) and for the test that holds them
complete; it needs Babel (the ``test`` extra), which herzla itself never imports at run time.
A message is marked in the code by :func:`herzla.i18n._`, :func:`~herzla.i18n.N_`,
:func:`~herzla.i18n.ngettext`, :func:`~herzla.i18n.pgettext` or
:func:`~herzla.i18n.npgettext`, and in the table app's templates by ``_()``, ``ngettext()``
and ``{% trans %}``.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from herzla.i18n import LANGUAGES, LOCALE_DIR
from herzla.i18n.catalog import CatalogEntry, parse_po

__all__ = ["PACKAGE", "Problem", "extracted", "placeholders", "po_path", "problems", "update"]

PACKAGE = Path(__file__).resolve().parent.parent

#: what Babel reads: the package's Python and the table app's Jinja2 templates
METHODS = [("**/templates/**.html", "jinja2.ext:babel_extract"), ("**.py", "python")]
OPTIONS = {"**/templates/**.html": {"extensions": "jinja2.ext.i18n", "newstyle_gettext": "true",
                                    "trimmed": "true"}}
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3)}
_STAMPS = ('"POT-Creation-Date', '"PO-Revision-Date', '"Report-Msgid', '"Last-Translator',
           '"Language-Team', '"Generated-By')
_FIELD = re.compile(r"\{[a-zA-Z_0-9]*(?:![rsa])?(?::[^{}]*)?\}|%\([a-z_]+\)[sd]|%[sd]")


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "herzla.po"


def extracted(templates: bool = True) -> Any:
    """Every message of the package (and of its templates, where Jinja2 is installed and
    ``templates``) as a Babel catalog (read once a process: do not change it)."""
    return _extracted(templates)


@functools.cache
def _extracted(templates: bool) -> Any:
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    methods = list(METHODS)
    if not templates or importlib.util.find_spec("jinja2") is None:
        methods = [m for m in methods if m[1] == "python"]
    catalog = Catalog(project="herzla", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(PACKAGE), methods, OPTIONS, KEYWORDS, strip_comment_tags=True):
        path = f"herzla/{filename}"
        if isinstance(message, (tuple, list)) and len(message) == 1:
            message = message[0]
        catalog.add(message, None, [(path, lineno)], auto_comments=comments, context=context)
    return catalog


def placeholders(text: str) -> list[str]:
    """The fields a message fills in (``{name}``, ``%(n)d``), sorted."""
    return sorted(_FIELD.findall(text))


class Problem(str):
    """One line of what is wrong with a catalog."""


def _read(lang: str) -> dict[tuple[str | None, str], CatalogEntry]:
    return {e.key: e for e in parse_po(po_path(lang).read_text(encoding="utf-8"))
            if e.msgid and not e.obsolete}


def problems(lang: str, templates: bool = True) -> Iterator[Problem]:
    """What keeps catalog ``lang`` from being complete: a message of the code it lacks or leaves
    untranslated, a fuzzy entry, a translation whose fields differ from the message's."""
    have = _read(lang)
    for message in extracted(templates):
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        where = " ".join(f"{p}:{n}" for p, n in message.locations[:2])
        entry = have.get((message.context, msgid))
        if entry is None:
            yield Problem(f"{where}: not in the catalog: {msgid!r}")
            continue
        if entry.fuzzy:
            yield Problem(f"{where}: fuzzy: {msgid!r}")
        if not entry.translated:
            yield Problem(f"{where}: not translated: {msgid!r}")
            continue
        sources = [entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural else [])
        want = placeholders(sources[-1])
        for text in entry.msgstr:
            if placeholders(text) != want and placeholders(text) != placeholders(sources[0]):
                yield Problem(f"{where}: the fields of {msgid!r} differ in {text!r}")


def update(lang: str) -> tuple[int, int]:
    """Bring catalog ``lang`` in step with the code: new messages added untranslated, those no
    longer in the code dropped, the translations kept; returns (messages, untranslated)."""
    from babel.messages.pofile import read_po, write_po

    template = extracted()
    path = po_path(lang)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_file():
        with path.open("rb") as fh:
            catalog = read_po(fh, locale=lang)
    else:
        from babel.messages.catalog import Catalog
        catalog = Catalog(locale=lang, project="herzla")
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    catalog.project = "herzla"
    catalog.header_comment = ("# Translations of herzla. Kept by tools/catalog.py (update, "
                              "check); compiled\n# when the wheel is built.")
    tmp = path.with_suffix(".po.tmp")
    with tmp.open("wb") as fh:
        write_po(fh, catalog, width=100, sort_output=True, omit_header=False,
                 include_previous=False, include_lineno=False)
    text = tmp.read_text(encoding="utf-8")
    # no dates, addresses or generator in the header: two branches that update the catalog
    # differ only where their messages do
    text = "".join(line for line in text.splitlines(keepends=True)
                   if not line.startswith(_STAMPS))
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    entries = [m for m in catalog if m.id]
    return len(entries), sum(1 for m in entries if not m.string or (
        isinstance(m.string, tuple) and not all(m.string)))


def languages() -> list[str]:
    """The languages with a catalog (all but the default)."""
    return [lang for lang in LANGUAGES[1:] if po_path(lang).is_file()]
