"""A hand entered at the disputes desk by tapping its cards trick by trick (nothing here knows
the web framework).  The hand so far is a hand record that travels in the form (nothing is
stored): each tap appends a move and the page comes back with the next seat's cards.  Every
card a seat holds is offered, the legal ones marked, so that a renege can be entered as it
happened (play then goes on past it, which establishes it); in a layout deal the lays that fit
and the pass (a pass while a card fits is the renege there).  Built on the hand interface
(:meth:`herzla.contracts.Contract.new_hand`, ``legal_moves``, ``check``, ``play``).

>>> t = start_tapping({"contract": "herzla/normal", "seed": "3"})
>>> t.seat, len(t.offers()), sum(o.legal for o in t.offers())  # no heart led at first
(0, 8, 7)
>>> t = t.tapped(t.offers()[0].move)
>>> t.seat, len(t.record["plays"])
(1, 1)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from herzla.cards import cards_of
from herzla.counting import read_whole
from herzla.hand import PASS, Hand, as_move
from herzla.kinds import written_move
from herzla.options import OptionError
from herzla.quote import quote
from herzla.records import Record, RecordError, deal_record, load_json_text, read_record, sort_hand
from herzla.web.desk import DeskError
from herzla.web.request_fields import options_of_text
from herzla.web.speech import _

__all__ = ["Offer", "Tapping", "start_tapping"]

#: the most moves a tapped hand may hold (a layout deal's passes included)
MOST_MOVES = 400


@attrs.frozen(slots=True)
class Offer:
    """A move the desk offers the seat to move: its text (as a record writes it), the card
    (None: the pass), the end where the card fits both (else None), and whether it is legal."""

    move: str
    card: str | None
    end: str | None
    legal: bool


class Tapping:
    """A hand being tapped in: its ``record`` (JSON) and the hand after its moves."""

    def __init__(self, record: Mapping[str, Any]) -> None:
        try:
            self.rec: Record = read_record(dict(record))
        except RecordError as exc:
            raise DeskError(str(exc)) from None
        if len(self.rec.plays) > MOST_MOVES:
            raise DeskError(_("a hand holds at most {most} moves").format(most=MOST_MOVES))
        self.record = self.rec.to_json()
        # a question of kind: at the desk a trick deal offers every card the seat holds (a
        # renege is tapped as it was played), a layout deal only the lays that fit and the pass
        self.layout = self.rec.contract.has_passes
        self.hand: Hand = self.rec.start()
        for i, move in enumerate(self.rec.plays):
            if self.hand.over:
                raise DeskError(_("move {i} comes after the end of the hand").format(i=i + 1))
            if self.layout and move.card is not None and self.hand.check(move) is not None:
                raise DeskError(_("move {i} ({move}) cannot be laid").format(i=i + 1, move=move))
            if move.card is not None and not self.hand.hands[self.hand.turn] >> move.card.index & 1:
                raise DeskError(_("move {i}: seat {seat} does not hold {move}").format(
                    i=i + 1, seat=self.hand.turn + 1, move=move))
            self.hand._play(move)  # unchecked: a renege stands as it was played

    @property
    def seat(self) -> int | None:
        """The seat to move (None: the hand is over)."""
        return None if self.hand.over else self.hand.turn

    def offers(self) -> list[Offer]:
        """What the seat to move may be tapped as playing."""
        if self.hand.over:
            return []
        h = self.hand
        if self.layout:
            out = []
            for m in h.legal_moves():
                if m.card is not None:
                    text = written_move(h, m)  # with its end only where the card fits both
                    out.append(Offer(text, str(m.card), m.end if text != str(m.card) else None,
                                     True))
            return [*out, Offer("pass", None, None, h.check(PASS) is None)]
        own = sort_hand(cards_of(h.hands[h.turn]), self.rec.contract)
        return [Offer(c.code, c.code, None, h.check(c) is None) for c in own]

    def tapped(self, move: str) -> Tapping:
        """The hand with ``move`` appended (one of :meth:`offers`)."""
        if self.seat is None:
            raise DeskError(_("the hand is over"))
        if move not in {o.move for o in self.offers()}:
            raise DeskError(_("{move} is not a card seat {seat} holds now").format(
                move=repr(move[:12]), seat=self.seat + 1))
        return Tapping({**self.record, "plays": [*self.record["plays"], str(as_move(move))]})

    def back(self) -> Tapping:
        """The hand without its last move."""
        if not self.record["plays"]:
            raise DeskError(_("no card has been tapped yet"))
        return Tapping({**self.record, "plays": self.record["plays"][:-1]})

    def text(self) -> str:
        """The record as JSON text (the form's hidden field, and what one may copy)."""
        return json.dumps(self.record, ensure_ascii=False)

    @classmethod
    def from_text(cls, text: str) -> Tapping:
        try:
            obj = load_json_text(text)
        except RecordError as exc:
            raise DeskError(str(exc)) from None
        if not isinstance(obj, dict):
            raise DeskError(_("the hand so far is a hand record"))
        return cls(obj)


def _number(form: Mapping[str, str], key: str) -> int | None:
    text = (form.get(key) or "").strip()
    if not text:
        return None
    number = read_whole(text)
    if number is None:
        raise DeskError(_("{what}: {text} is not a whole number").format(
            what=key, text=repr(text[:20])))
    return number


def _seat(form: Mapping[str, str], key: str, what: str) -> int | None:
    """A seat the setup form names: a player's name (``names``, any case) or the place
    counted from 1; None where nothing is given."""
    text = " ".join((form.get(key) or "").split())
    if not text:
        return None
    number = read_whole(text, digits=3)
    if number is not None:
        if number < 1:
            raise DeskError(_("%(what)s: the places count from 1, not %(text)s")
                            % {"what": what, "text": text})
        return number - 1
    names = [n.strip().casefold() for n in (form.get("names") or "").split(",")]
    if text.casefold() in names:
        return names.index(text.casefold())
    raise DeskError(_("%(what)s: %(text)s is none of the players' names")
                    % {"what": what, "text": quote(text[:40])})


def start_tapping(form: Mapping[str, str]) -> Tapping:
    """The hand to tap in from the setup form: ``contract`` (``game/contract``), ``players``,
    ``dealer``, ``declarer``, ``stock``, ``options``, and ``hands`` (one line of card codes per
    seat) or ``seed`` (dealt from it; neither: a fresh deal)."""
    game, _sep, contract = (form.get("contract") or "").partition("/")
    if not game or not contract:
        raise DeskError(_("choose the game and contract"))
    try:
        options = options_of_text(form.get("options"))
    except OptionError as exc:
        raise DeskError(str(exc)) from None
    lines = [line.split() for line in (form.get("hands") or "").splitlines() if line.strip()]
    try:
        from herzla.contracts import contract_class

        cls = contract_class(game, contract)
        players = _number(form, "players") or cls.player_counts[0]
        rec = deal_record(game, contract, players, _number(form, "seed") if not lines else 0,
                          _seat(form, "dealer", _("the dealer")),
                          _seat(form, "declarer", _("the declarer")),
                          _number(form, "stock") or 0, options)
    except (RecordError, OptionError, ValueError) as exc:
        raise DeskError(str(exc)) from None
    obj = rec.to_json()
    if lines:
        obj["hands"] = lines
    return Tapping(obj)
