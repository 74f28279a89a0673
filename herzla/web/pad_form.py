"""The score pad's deal form (nothing here knows the web framework): what the form asks for a
deal of a contract, read from what the contract declares its scorer reads, and the entry a
filled-in form makes.

:func:`panel` reads the tallies the contract declares its scorer reads
(:attr:`herzla.contracts.Contract.tallies`, the preferred of each alternative) and offers one
field per need: made or lost (a declarer's contract), the hearts each player captured,
who captured each card that counts (a few cards), the tricks, the last trick's winner, the
order of going out.  So a rule is written once: the form asks what the scorer asks.

The form's fields (every seat a number from 0, every value text, as a browser sends it):
``hearts-S``/``tricks-S`` a count per seat (all 0: not told, as no deal has them so);
``owner-CODE`` the seat that captured the card
(empty: nobody, it lay aside); ``captured-S`` the card codes a seat captured; ``last_trick`` a
seat; ``order-I`` the seat that went out ``I``-th; ``declarer`` a seat; ``made`` ``made`` or
``lost``; ``renege`` the seat whose renege ended the hand, with ``rorder-I`` (the seats out
before it, layout deals), ``left-S`` (the cards each seat still held) and ``aside``.

>>> from herzla.evening import Evening
>>> e = Evening.new("herzla", ["Anna", "Berni", "Carla", "Done"])
>>> p = panel(e, "normal")
>>> p.asks, p.most["hearts"]
(('hearts',), 8)
>>> entry_of({"hearts-0": "0", "hearts-1": "3", "hearts-2": "5", "hearts-3": "0"}, p)
{'contract': 'normal', 'hearts': [0, 3, 5, 0]}
>>> panel(e, "beddl").asks
('declarer', 'made')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from herzla.cards import HEARTS_MASK, Card, cards_of, parse_card
from herzla.contracts import Contract, contract_class, known_options
from herzla.counting import read_whole
from herzla.evening import Evening
from herzla.evening.names import find_contract
from herzla.i18n import _
from herzla.quote import quote

__all__ = ["MOST_OWNED", "FormError", "Panel", "entry_of", "form_of", "panel"]

#: the most cards the form asks "who captured it" for (more: a text of codes per seat)
MOST_OWNED = 12


class FormError(ValueError):
    """A form that does not make an entry: one line naming the field."""


@attrs.frozen(slots=True)
class Panel:
    """What the deal form asks for a contract: ``asks`` the fields, in order (``declarer``,
    ``made``, ``hearts``, ``owners``, ``captured``, ``tricks``, ``last_trick``, ``order``);
    ``most`` the largest count of ``hearts`` and ``tricks``; ``cards`` the cards of
    ``owners``; ``aside``: cards lie aside (an owner may be nobody); ``layout``: a layout
    deal (a renege there is told by the seats out and the cards left)."""

    contract: Contract
    players: tuple[str, ...]
    asks: tuple[str, ...]
    most: Mapping[str, int]
    cards: tuple[Card, ...] = ()
    aside: bool = False
    layout: bool = False

    @property
    def seats(self) -> range:
        return range(len(self.players))


def panel(evening: Evening, contract: str) -> Panel:
    """What the form asks for a deal of ``contract`` (its name, any case) at ``evening``."""
    cid = find_contract(evening.game, contract)
    cls = contract_class(evening.game, cid)
    n = len(evening.players)
    c = cls(n, known_options(cls, evening.options), 0 if cls.needs_declarer else None)
    asks: list[str] = ["declarer"] if cls.needs_declarer else []
    counted = 0
    for mask in c.card_classes:  # the cards a trick deal's scorer counts (none in a layout deal)
        counted |= mask
    owned = tuple(cards_of(counted))
    for need in c.tallies:  # what the contract's scorer reads
        if need == "captured":
            asks.append("owners" if 0 < len(owned) <= MOST_OWNED else "captured")
        else:
            asks.append("last_trick" if need == "last_winner" else need)
    hearts = len(cards_of(c.pack().mask & HEARTS_MASK))
    return Panel(c, evening.players, tuple(asks),
                 {"hearts": hearts, "tricks": c.hand_size}, owned, c.leftovers > 0,
                 "order" in c.tallies)


def _seat(form: Mapping[str, str], key: str, p: Panel, what: str) -> int | None:
    text = (form.get(key) or "").strip()
    if not text:
        return None
    seat = read_whole(text)
    if seat is None or seat not in p.seats:
        raise FormError(_("{what}: {text} is not a seat").format(what=what, text=quote(text[:20])))
    return seat


def _count(form: Mapping[str, str], key: str, what: str, most: int) -> int | None:
    text = (form.get(key) or "").strip()
    if not text:
        return None
    count = read_whole(text)
    if count is None or count > most:
        raise FormError(_("{what}: {text} is not a count from 0 to {most}").format(
            what=what, text=quote(text[:20]), most=most))
    return count


def _counts(form: Mapping[str, str], prefix: str, p: Panel, what: str, most: int
            ) -> list[int] | None:
    got = [_count(form, f"{prefix}-{s}", _("{what} of {name}").format(what=what, name=p.players[s]),
                  most) for s in p.seats]
    if not any(got):  # none given, or all 0 (which no deal has): not told
        return None
    return [v or 0 for v in got]


def _order(form: Mapping[str, str], prefix: str, p: Panel, what: str) -> list[int] | None:
    got = [_seat(form, f"{prefix}-{i}", p,
                 _("{what}, place {place}").format(what=what, place=i + 1)) for i in p.seats]
    seats = [s for s in got if s is not None]
    return seats or None


def entry_of(form: Mapping[str, str], p: Panel) -> dict[str, Any]:
    """The entry (a tally, as :meth:`herzla.evening.Entry.from_json` reads it) the filled-in
    form makes; FormError names a field that is not what it should be.  With ``action`` set
    to ``renege``, only the renege's fields count."""
    out: dict[str, Any] = {"contract": p.contract.id}
    declarer = _seat(form, "declarer", p, _("the declarer"))
    if declarer is not None:
        out["declarer"] = declarer
    if form.get("action") == "renege":
        seat = _seat(form, "renege", p, _("who reneged"))
        if seat is None:
            raise FormError(_("say who reneged"))
        out["renege"] = seat
        order = _order(form, "rorder", p, _("out before the renege"))
        if order is not None:
            out["order"] = order
        left = _counts(form, "left", p, _("the cards left"), 64)
        if left is not None:
            out["left"] = left
        aside = (form.get("aside") or "").strip()
        if aside:
            out["aside"] = aside
        return out
    made = (form.get("made") or "").strip()
    if made:
        if made not in ("made", "lost"):
            raise FormError(_("made or lost, not {text}").format(text=quote(made[:20])))
        out["made"] = made == "made"
    for key, what in (("hearts", _("the hearts")), ("tricks", _("the tricks"))):
        got = _counts(form, key, p, what, p.most.get(key, 64))
        if got is not None:
            out[key] = got
    captured = _captured(form, p)
    if captured is not None:
        out["captured"] = captured
    last = _seat(form, "last_trick", p, _("the last trick's winner"))
    if last is not None:
        out["last_trick"] = last
    order = _order(form, "order", p, _("the order of going out"))
    if order is not None:
        out["order"] = order
    return out


def _captured(form: Mapping[str, str], p: Panel) -> list[str] | None:
    if "owners" in p.asks:
        seats: list[list[str]] = [[] for _ in p.seats]
        for card in p.cards:
            owner = _seat(form, f"owner-{card.code}", p,
                          _("who captured {card}").format(card=card.code))
            if owner is None:
                if not p.aside:
                    raise FormError(_("say who captured {card}").format(card=card.code))
                continue
            seats[owner].append(card.code)
        return [" ".join(s) or "-" for s in seats]
    texts = [(form.get(f"captured-{s}") or "").strip() for s in p.seats]
    if not any(texts):
        return None
    for s, text in enumerate(texts):
        if len(text) > 400:
            raise FormError(_("the cards {name} captured: too long").format(name=p.players[s]))
    return [t or "-" for t in texts]


def form_of(entry: Mapping[str, Any], p: Panel) -> dict[str, str]:
    """The form filled in with ``entry`` (a tally as the evening keeps it, its seats named by
    the players' names or numbers), for correcting a deal."""
    out: dict[str, str] = {}

    def seat(value: object) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        for i, name in enumerate(p.players):
            if isinstance(value, str) and name.casefold() == value.casefold():
                return str(i)
        return ""

    if entry.get("declarer") is not None:
        out["declarer"] = seat(entry["declarer"])
    if entry.get("made") is not None:
        out["made"] = "made" if entry["made"] else "lost"
    for key in ("hearts", "tricks", "left"):
        for s, v in enumerate(entry.get(key) or ()):
            out[f"{key}-{s}"] = str(v)
    for s, text in enumerate(entry.get("captured") or ()):
        out[f"captured-{s}"] = text if isinstance(text, str) else " ".join(text)
        for code in (text.split() if isinstance(text, str) else text):
            try:
                out[f"owner-{parse_card(code).code}"] = str(s)
            except ValueError:
                continue
    if entry.get("last_trick") is not None:
        out["last_trick"] = seat(entry["last_trick"])
    prefix = "rorder" if entry.get("renege") is not None else "order"
    for i, who in enumerate(entry.get("order") or ()):
        out[f"{prefix}-{i}"] = seat(who)
    if entry.get("renege") is not None:
        out["renege"] = seat(entry["renege"])
        out["aside"] = str(entry.get("aside") or "")
    return out
