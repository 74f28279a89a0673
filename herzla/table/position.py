"""A table's position, rebuilt from what the table keeps: the contract, the hand in play (every
move checked again), whose turn it is, what the person may do, and the table as the app answers
it (:meth:`Position.to_dict`)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from functools import cached_property
from typing import Any, cast

import attrs

from herzla.cards import cards_of, mask_of, parse_cards
from herzla.contracts import Contract, contract_class, get_game, known_options
from herzla.evening import EveningError
from herzla.hand import Hand, Move, as_move
from herzla.i18n import _
from herzla.kinds import kind_of, written_move
from herzla.options import OptionError
from herzla.players import Policy, PolicyError, policy_of
from herzla.quote import quote
from herzla.records import Record, RecordError, ReplayResult, result_of, sort_hand
from herzla.round import Round, make_contract
from herzla.table.model import Table, TableError, TableStateError

__all__ = ["Position", "contract_options", "movers", "position", "written_legal"]


def contract_options(cls: type[Contract], options: Mapping[str, Any]) -> dict[str, Any]:
    """The table's options that the contract class ``cls`` knows."""
    return known_options(cls, options)


def written_legal(hand: Hand) -> list[str]:
    """The legal moves as the person names them: a card by its code, a lay with its end only
    where the card fits both ends of its row, ``pass``."""
    return [written_move(hand, m) for m in hand.legal_moves()]


class Position:
    """The table now: ``round`` the deal in progress (a :class:`herzla.round.Round`: the
    bidding, the play, the score), ``contract`` the deal's contract (the game's first contract
    of the bidding while the bidding is on), ``hand`` the hand with the moves so far."""

    def __init__(self, table: Table) -> None:
        self.table = table
        deal = table.deal
        bidding = deal.contract is None
        cid = self._cls(deal.contract).id
        self.record = self._record(cid, None if bidding else deal.declarer)
        self.contract: Contract = self.record.contract
        rec = self.record
        self.round = Round(self.contract, [mask_of(h) for h in rec.hands], rec.dealer,
                           rec.stock, bidding=bidding, bids=deal.bids,
                           make=lambda c, declarer: self._record(c, declarer).contract)
        for i, text in enumerate(deal.moves):
            try:
                move = as_move(text)
            except ValueError:
                raise TableError(_("the table's move {n} ({text}) is not a move").format(
                    n=i + 1, text=quote(text))) from None
            problem = self.round.check(move)
            if problem is not None:
                raise TableError(_("the table's move {n} ({text}) is illegal: {problem}")
                                 .format(n=i + 1, text=text, problem=problem.message))
            self.round.play(move)

    def _cls(self, cid: str | None) -> type[Contract]:
        t = self.table
        if cid is None:
            bidding = get_game(t.game).bidding
            if not bidding:
                raise TableError(_("{game} has no bidding: the deal names its contract")
                                 .format(game=t.game))
            cid = bidding[0]
        try:
            return contract_class(t.game, cid)
        except ValueError as exc:
            raise TableError(str(exc)) from None

    def _record(self, cid: str, declarer: int | None) -> Record:
        """The table's deal as a checked hand record of contract ``cid`` (the contract made
        once, from its id and declarer; the record checks the dealt cards)."""
        t, d = self.table, self.table.deal
        cls = self._cls(cid)
        try:
            contract = make_contract(t.game, cls.id, len(t.players),
                                     contract_options(cls, t.options), declarer)
            dealt = [mask_of(parse_cards(" ".join(h))) for h in d.hands]
            record: Record = Round(contract, dealt, d.dealer, d.stock).record()
            return record
        except (RecordError, OptionError, ValueError) as exc:
            raise TableError(_("the table's deal: {exc}").format(exc=exc)) from None

    def moved_on(self, table: Table) -> Position:
        """This position as that of ``table``: this table's deal with the moves (or
        announcements of a bidding still on) that this position's round has made since, so
        that nothing is replayed again."""
        d, new = self.table.deal, table.deal
        assert new.contract == d.contract and new.declarer == d.declarer and new.hands == d.hands
        assert new.bids == self.round.bids and new.moves == tuple(map(str, self.round.moves))
        self.table = table
        self.__dict__.pop("replayed", None)
        _keep(self)
        return self

    @cached_property
    def hand(self) -> Hand:
        """The hand with the moves so far (while the bidding is on: the first contract's of
        the bidding, as dealt)."""
        return self.record.start() if self.round.hand is None else self.round.hand

    # -- whose turn, and what the person may do ------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.table.players)

    @property
    def bidding_on(self) -> bool:
        return self.round.bidding

    @property
    def over(self) -> bool:
        return self.round.over

    @property
    def phase(self) -> str:
        return self.round.phase

    @property
    def to_move(self) -> int | None:
        return self.round.turn

    @property
    def persons_turn(self) -> bool:
        """True when a person is to move (the table's one person, or any of its people)."""
        return self.to_move is not None and self.to_move in self.table.humans

    def seat_of(self, seat: int | None) -> int:
        """The seat that acts: ``seat``, or (None) the table's one person."""
        return self.table.seat if seat is None else seat

    def bids_known(self) -> tuple[str, ...]:
        """What a seat may announce: ``pass`` and the contracts of the game's bidding."""
        return self.round.known_bids()

    def legal(self, seat: int | None = None) -> list[str]:
        """The legal moves now of the person in ``seat`` (None: the table's one person);
        empty when it is not that seat's turn or during the bidding."""
        if self.bidding_on or self.to_move != self.seat_of(seat):
            return []
        return written_legal(self.hand)

    def check_persons_move(self, text: object, seat: int | None = None) -> Move:
        """The move ``text`` (``HA``; a lay ``D7``, or ``D7-`` for the end where both fit;
        ``pass``) of the person in ``seat`` (None: the table's one person), checked:
        TableError names what is wrong."""
        if self.bidding_on:
            raise TableStateError(_("the bidding is on: announce first"))
        if self.hand.over:
            raise TableStateError(_("the hand is over: start the next deal"))
        if self.hand.turn != self.seat_of(seat):
            raise TableStateError(_("it is %(name)s's turn, not yours")
                                  % {"name": self.table.players[self.hand.turn]})
        if not isinstance(text, str) or not 0 < len(text) <= 10:
            raise TableError(_('a move is a card\'s code ("HA") or "pass", not {text}').format(
                text=quote(text)))
        try:
            move = as_move(text)
        except ValueError as exc:
            raise TableError(str(exc)) from None
        legal = self.hand.legal_moves()
        if move in legal or (move.end is None and move.card is not None
                             and any(m.card == move.card for m in legal)):
            return move
        problem = self.hand.check(move)
        why = problem.message if problem is not None else f"{move} is not a move of this deal"
        raise TableError(_("%(why)s; you may play %(legal)s")
                         % {"why": why, "legal": " ".join(self.legal(seat))})

    # -- policies and the record -------------------------------------------------------------
    @cached_property
    def policy(self) -> Policy:
        try:
            return policy_of(self.table.opponents).at_table()
        except PolicyError as exc:
            raise TableError(str(exc)) from None

    def current_record(self) -> Record:
        """The hand so far as a hand record (every hand, as after the end of play); the cards
        the computer played for people who were away are named in its tag ``computer``
        (``"Anna: HA H9"``)."""
        record = cast(Record, self.hand.record())
        marks = self.table.deal.stood_in
        if not marks:
            return record
        made_by = movers(self.table)
        played: dict[int, list[str]] = {}
        for i in marks:
            if i < len(made_by):
                played.setdefault(made_by[i], []).append(self.table.deal.moves[i])
        text = "; ".join(f"{self.table.players[s]}: {' '.join(cards)}"
                         for s, cards in sorted(played.items()))
        return attrs.evolve(record, tags={**record.tags, "computer": text[:1000]})

    @cached_property
    def replayed(self) -> ReplayResult:
        """What a replay of the hand so far answers, read from the hand in play (nothing is
        replayed again)."""
        return result_of(self.current_record(), self.hand)

    # -- the table as the app answers it ------------------------------------------------------
    def to_dict(self, seat: int | None = None) -> dict[str, Any]:
        """The table as the JSON API answers it (the Table app page of the docs) to the person in
        ``seat`` (None: the table's one person).  At a table of people the answer holds nothing of
        another seat's unplayed cards until the hand is over: ``record`` is None until then,
        ``hand`` is that seat's alone (none for the table's creator, ``seat`` None), and the
        review is asked for on its own (:func:`herzla.table.review_for`)."""
        t, d = self.table, self.table.deal
        res = self.replayed
        rec = res.record
        c = self.contract
        private = t.of_people and not self.over
        viewer = None if t.of_people and seat is None else self.seat_of(seat)
        own = [] if viewer is None else sort_hand(cards_of(self.hand.hands[viewer]), c)
        turn = viewer is not None and self.to_move == viewer
        bids = [{"seat": (self.round.forehand + i) % self.players, "bid": w}
                for i, w in enumerate(d.bids)]
        ev = self._evening(rec)
        return {
            "game": t.game,
            "contract": None if self.bidding_on else c.id,
            "title": None if self.bidding_on else c.title,
            "declarer": None if self.bidding_on else c.declarer,
            "players": list(t.players),
            "seat": viewer,
            "opponents": t.opponents,
            "deal": d.k,
            "dealer": d.dealer,
            "stock": d.stock if c.has_stock else None,
            "phase": self.phase,
            "to_move": self.to_move,
            "hand": [str(x) for x in own],
            "legal": [] if viewer is None else self.legal(viewer),
            "bidding": None if not bids and not self.bidding_on else {
                "announcements": bids,
                "legal": list(self.bids_known()) if self.bidding_on and turn else []},
            "held": [h.bit_count() for h in self.hand.hands],
            "over": self.over,
            "record": None if private else rec.to_json(),
            "moves": [str(m) for m in self.hand.moves],
            **kind_of(rec.contract).json(res.shown),
            "scores": list(res.scores) if res.scores is not None else None,
            "stock_after": res.stock if self.over else None,
            "events": list(res.score.events) if res.score is not None else [],
            "explanation": list(res.explanation) if self.over else [],
            "review": dict(d.review) if d.review is not None else None,
            "evening": ev,
            "people": [{"seat": p.seat, "left": p.left, "asked": p.seat in t.asked}
                       for p in t.people],
            "stood_in": list(d.stood_in),
        }

    def _evening(self, rec: Record) -> dict[str, Any] | None:
        """The evening the table carries, with the hand just finished (``rec``) counted."""
        e = self.table.evening
        if e is None:
            return None
        if self.over:
            try:
                e = e.add({"record": rec.to_json()})
            except EveningError as exc:
                raise TableError(_("the table's evening does not take this deal: {exc}")
                                 .format(exc=exc)) from None
        out = e.to_dict()
        kept: dict[str, Any] = {k: out[k] for k in ("totals", "stock", "next", "finished",
                                                    "settlement", "winners") if k in out}
        return {"deals": len(out["deals"]), **kept}


#: the positions built last, by the table they are of: an action that builds a table's position
#: (a move, and the computer's answers) hands it on to the answer of the same request, and a
#: server that keeps the table it read last of each of its tables (herzla.web) replays each
#: revision's moves once, however many pages ask for it
_KEPT: dict[int, Position] = {}
_KEEP = 256
_KEPT_LOCK = threading.Lock()


def _keep(pos: Position) -> None:
    with _KEPT_LOCK:
        _KEPT[id(pos.table)] = pos
        while len(_KEPT) > _KEEP:
            _KEPT.pop(next(iter(_KEPT)))


def movers(table: Table) -> list[int]:
    """The seat that made each move of the table's deal (none before the bidding is over)."""
    deal = table.deal
    if deal.contract is None or not deal.moves:
        return []
    hand = position(table.with_deal(attrs.evolve(deal, moves=()))).hand
    out = []
    for text in deal.moves:
        out.append(hand.turn)
        hand.play(text)
    return out


def position(table: Table) -> Position:
    """The position of ``table`` (TableError: a table whose moves do not replay): the one
    built last for this very table, else one built now."""
    kept = _KEPT.get(id(table))
    if kept is not None and kept.table is table:
        return kept
    pos = Position(table)
    _keep(pos)
    return pos
