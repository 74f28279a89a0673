"""The evening's deals as CSV, for a spreadsheet: a row per deal (its number, partie, dealer,
contract, declarer, each player's score, the stock after it), then the totals.

English is the CSV everyone knows (``,`` between fields); German is what a German spreadsheet
opens in columns: ``;`` between fields, a decimal comma, and UTF-8 with a byte-order mark.
The numbers are the evening's own (whole points and cents); only the headings are words.

>>> from herzla.evening import Evening
>>> from herzla.i18n import language
>>> e = Evening.new("herzla", ["Anna", "Berni", "Carla", "Done"]).add({"hearts": [0, 4, 4, 0]})
>>> for line in deals_csv(e).splitlines():
...     print(line)
deal,partie,dealer,contract,declarer,Anna,Berni,Carla,Done,stock
1,,Done,normal,,40,-40,-40,40,0
total,,,,,40,-40,-40,40,0
>>> with language("de"):
...     text = deals_csv(e)
>>> text[0] == "\\ufeff", text[1:].splitlines()[0]
(True, 'Spiel;Partie;Geber;Spielart;Spieler;Anna;Berni;Carla;Done;Stock')
"""

from __future__ import annotations

import csv
import io
from typing import Protocol

from herzla.evening.stats import EveningFacts
from herzla.i18n import current, pgettext

__all__ = ["BOM", "deals_csv", "delimiter"]

#: what a German CSV starts with, so that a spreadsheet reads it as UTF-8
BOM = "\ufeff"


class _Evening(EveningFacts, Protocol):
    @property
    def stock(self) -> int | None: ...


def delimiter(lang: str | None = None) -> str:
    """What separates the fields in the language's spreadsheets: ``,``, in German ``;``."""
    return ";" if (lang or current()) == "de" else ","


def _cell(text: str) -> str:
    """A text a person typed, kept from being read as a formula by a spreadsheet."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _number(value: int | float) -> str:
    """A number as the spreadsheet of the language reads it (no thousands separator; a
    decimal comma in German)."""
    text = str(value)
    return text.replace(".", ",") if delimiter() == ";" else text


def deals_csv(evening: _Evening) -> str:
    """The deals as CSV in the current language (see the module)."""
    out = io.StringIO()
    w = csv.writer(out, delimiter=delimiter(), lineterminator="\r\n")
    names = [_cell(p) for p in evening.players]
    has_stock = evening.stock is not None
    head = [pgettext("csv", "deal"), pgettext("csv", "partie"), pgettext("csv", "dealer"),
            pgettext("csv", "contract"), pgettext("csv", "declarer")]
    w.writerow([*head, *names, *([pgettext("csv", "stock")] if has_stock else [])])
    for d in evening.deals:
        declarer = "" if d.declarer is None else _cell(evening.players[d.declarer])
        scores = [_number(v) for v in d.scores] if d.scores is not None else [""] * len(names)
        stock = [_number(d.stock) if d.stock is not None else ""] if has_stock else []
        w.writerow([d.k, d.place.partie or "", _cell(evening.players[d.dealer]),
                    d.contract.id, declarer, *scores, *stock])
    w.writerow([pgettext("csv", "total"), "", "", "", "", *map(_number, evening.totals),
                *([_number(evening.stock or 0)] if has_stock else [])])
    text = out.getvalue()
    return BOM + text if delimiter() == ";" else text
