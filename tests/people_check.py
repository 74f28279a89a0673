"""What the tests of a table of people check every answer against: the other seats' unplayed
cards, read from the store itself (the table as kept), and a search of an answer's body and
headers for any of them, by its code (``HQ``) and by each label a page shows it with (``♥Q``,
``Hz-O``).  A seat's key, the table's id and a QR code's image are taken out first: they are
random text that could hold two letters that read as a card."""

from __future__ import annotations

import re
from typing import Any

from herzla.cards import Card, cards_of
from herzla.draw.faces import Faces, labelled, short
from herzla.table import Table, position
from herzla.web.store import Kind, Store

__all__ = ["hidden_cards", "leaks", "table_of"]

_DATA = re.compile(r'src="data:[^"]*"')


def table_of(store: Store, doc_id: str) -> Table:
    """The table as the store keeps it."""
    return Table.from_json(store.get(Kind.TABLE, doc_id).body)


def hidden_cards(table: Table, seat: int | None) -> list[Card]:
    """The cards ``seat`` (None: the creator, who holds none) may not learn now: every other
    seat's unplayed cards (none once the hand is over)."""
    pos = position(table)
    if pos.over:
        return []
    hands = pos.hand.hands if pos.round.hand is not None else pos.round.dealt
    return [c for s, h in enumerate(hands) if s != seat for c in cards_of(h)]


def _spellings(card: Card) -> set[str]:
    from herzla.web.page_parts import card_view

    return {card.code, *(short(card, f) for f in Faces), *(labelled(card, f) for f in Faces),
            *(card_view(card, f).name for f in Faces)}


def leaks(answer: Any, hidden: list[Card], secrets: list[str]) -> list[str]:
    """The spellings of ``hidden`` cards that ``answer`` (a test client's response) shows, in
    its body or any header; ``secrets`` (keys, ids) are taken out first."""
    texts = [answer.get_data(as_text=True)]
    texts += [f"{name}: {value}" for name, value in answer.headers.items()]
    found = []
    for text in texts:
        text = _DATA.sub("", text)
        for secret in secrets:
            text = text.replace(secret, " ")
        for card in hidden:
            for spelling in _spellings(card):
                if re.search(rf"(?<![A-Za-z0-9]){re.escape(spelling)}(?![A-Za-z0-9])", text):
                    found.append(spelling)
    return found
