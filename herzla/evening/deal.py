"""One deal of an evening, scored: :class:`Deal`, and :func:`score_entry`, which scores an entry
in its place with the stock carried in, by the library's own scorers: a tally by
:func:`herzla.contracts.tallies.score_hand` (what ``herzla score`` calls), a record by
:func:`herzla.records.replay` (what ``herzla replay`` calls)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.cards import HEARTS_MASK, CardError, mask_of
from herzla.contracts import (
    Contract,
    MissingTally,
    TallyError,
    UnknownContract,
    contract_class,
    get_game,
    known_options,
)
from herzla.contracts.base import HandScore
from herzla.contracts.tallies import TallyScore, score_hand
from herzla.counting import read_whole
from herzla.evening.entry import Entry, Seat
from herzla.evening.errors import EveningError
from herzla.evening.names import find_contract, seat_of
from herzla.i18n import _
from herzla.limits import LimitError, check_carried_stock
from herzla.options import OptionError, resolve_options
from herzla.records import RecordError, ReplayResult, read_record, replay
from herzla.round import Place

__all__ = ["Deal", "Place", "score_entry"]

#: the tallies a contract may need (MissingTally.needs), as an entry names them
_NEEDS = {"last_winner": "last_trick"}


@attrs.frozen(slots=True)
class Deal:
    """A deal of an evening: the entry as kept, where it stood, its contract and its score.

    ``score`` is None only for a hand record that does not score (not complete, or with an
    illegal play), which only a list of records read as a score sheet may hold; ``result`` is
    the replay of a record entry; ``counted`` says whether its scores are in the totals (a
    score sheet stops counting at the first deal that does not score).  ``hearts``: the hearts
    each seat captured, where the entry tells; ``from_stock``: what each seat collected from the
    stock in it.
    """

    place: Place
    entry: Entry
    contract: Contract
    score: HandScore | None
    result: ReplayResult | None
    totals: tuple[int, ...]
    counted: bool
    hearts: tuple[int, ...] | None
    from_stock: tuple[int, ...]

    @property
    def k(self) -> int:
        return self.place.k

    @property
    def dealer(self) -> int:
        return self.place.dealer

    @property
    def declarer(self) -> int | None:
        return self.contract.declarer

    @property
    def scores(self) -> tuple[int, ...] | None:
        return self.score.scores if self.score is not None else None

    @property
    def redeal(self) -> bool:
        """A renege ruled with ``renege=redeal``: the deal does not count, and its place (the
        dealer, the partie's contract) is played again."""
        return self.score is not None and "redeal" in self.score.events

    @property
    def stock_before(self) -> int | None:
        return self.place.stock

    @property
    def stock(self) -> int | None:
        """The stock after the deal (None: a game without a stock)."""
        if self.place.stock is None:
            return None
        if self.score is not None and self.score.stock is not None:
            return self.score.stock
        return self.place.stock

    @property
    def events(self) -> tuple[str, ...]:
        return self.score.events if self.score is not None else ()

    @property
    def explanation(self) -> tuple[str, ...]:
        if self.result is not None:
            return self.result.explanation
        return self.score.explanation if self.score is not None else ()

    def to_dict(self) -> dict[str, Any]:
        """The deal as ``herzla pad show --json`` writes it (the Evening page of the docs)."""
        res = self.result
        return {
            "k": self.k,
            "partie": self.place.partie,
            "dealer": self.dealer,
            "contract": self.contract.id,
            "declarer": self.declarer,
            "scores": list(self.scores) if self.scores is not None else None,
            "stock": self.stock,
            "totals": list(self.totals),
            "events": list(self.events),
            "explanation": list(self.explanation),
            "complete": res.complete if res is not None else True,
            "illegal": res.illegal.to_dict() if res is not None and res.illegal else None,
            "entry": self.entry.to_json(),
        }


def _hearts(contract: Contract, masks: Sequence[int] | None, hearts: Sequence[int] | None
            ) -> tuple[int, ...] | None:
    """The hearts each seat captured, where the deal counts them all (else None)."""
    every = contract.pack().mask & HEARTS_MASK
    counted = 0
    for m in contract.card_classes:
        counted |= m
    if counted & every != every:
        return None
    if masks is not None:
        return tuple((m & every).bit_count() for m in masks)
    return tuple(hearts) if hearts is not None else None


_SEAT = re.compile(r"\b(?:[Ss]eat|[Pp]latz) (\d+)\b")


def named(text: str, players: Sequence[str]) -> str:
    """A scorer's sentence with each seat it names (``seat 0``, counted from 0) called by the
    player's name, as the evening calls them.

    >>> named("Seat 0 won; seat 1 cannot have won 2; seat 9 is none", ["Anna", "Berni"])
    'Anna won; Berni cannot have won 2; seat 9 is none'
    """
    return _SEAT.sub(lambda m: players[int(m.group(1))] if int(m.group(1)) < len(players)
                     else m.group(0), text)


def _fail(place: Place, exc: BaseException, players: Sequence[str]) -> EveningError:
    """The deal's error of a tally's, its seats named by the players' names (MissingTally's
    message names the contract already: :func:`herzla.contracts.tallies.score_hand` writes it
    in)."""
    needs: tuple[str, ...] = ()
    if isinstance(exc, MissingTally):
        needs = tuple(_NEEDS.get(n, n) for n in exc.needs)
    return EveningError(_("deal {k}: {problem}").format(k=place.k,
                                                         problem=named(str(exc), players)),
                        needs)


def score_entry(game: str, players: Sequence[str], opts: Mapping[str, Any], place: Place,
                entry: Entry, sheet: bool = False) -> tuple[Entry, Contract, HandScore | None,
                                                         ReplayResult | None,
                                                         tuple[int, ...] | None,
                                                         tuple[int, ...]]:
    """Score ``entry`` at ``place``: (the entry as kept, its contract, its score, the replay of
    a record, the hearts each seat captured, what each collected from the stock).
    EveningError names what does not fit; with ``sheet`` (a list of records read as a score
    sheet) a record that does not score is kept unscored instead."""
    if place.stock is not None and entry.stock is not None and entry.stock != place.stock:
        raise EveningError(_("deal {k}: the entry says the stock is {stock}c, but "
                             "the evening carries {stock2}c").format(
            k=place.k, stock=entry.stock, stock2=place.stock))
    if entry.record is not None:
        return _score_record(game, players, opts, place, entry, sheet)
    return _score_tally(game, players, opts, place, entry)


def _score_tally(game: str, players: Sequence[str], opts: Mapping[str, Any], place: Place,
                 entry: Entry) -> tuple[Entry, Contract, HandScore | None, None,
                                        tuple[int, ...] | None, tuple[int, ...]]:
    g = get_game(game)
    n = len(players)
    where = _("deal {k}").format(k=place.k)
    if entry.contract is not None:
        cid = find_contract(game, entry.contract)
        if place.contract is not None and cid != place.contract:
            raise _misplaced(g, place, cid)
    elif place.contract is not None:
        cid = place.contract
    elif g.bidding:
        cid = g.bidding[0]
    else:
        raise EveningError(_("{where}: name the contract (one of "
                             "{value})").format(
            where=where, value=', '.join(c.id for c in g.contract_classes())))
    cls = contract_class(game, cid)
    copts = known_options(cls, opts)
    if entry.options is not None:
        seat = 0 if cls.needs_declarer else None
        try:
            theirs = cls(n, entry.options, seat).opts
        except OptionError as exc:
            raise EveningError(_("{where}: options: {exc}").format(where=where, exc=exc)) from None
        if theirs != cls(n, copts, seat).opts:
            raise EveningError(_("{where}: the entry's options are not the evening's").format(
                where=where))
    renege = None if entry.renege is None else seat_of(entry.renege, players,
                                                        f"{where}: renege")
    declarer = None if entry.declarer is None else seat_of(entry.declarer, players,
                                                            f"{where}: declarer")
    if cls.needs_declarer and declarer is None:
        raise EveningError(_("{where}: {game} {cid} needs the declarer").format(
            where=where, game=game, cid=cid), ("declarer",))
    last = None if entry.last_trick is None else seat_of(entry.last_trick, players,
                                                          f"{where}: last_trick")
    order = None if entry.order is None else [seat_of(s, players, f"{where}: order")
                                              for s in entry.order]
    captured = None if entry.captured is None else [list(c) for c in entry.captured]

    def scored(stock: int) -> TallyScore:
        return score_hand(game, cid, players=n, options=copts, declarer=declarer,
                          tricks=entry.tricks, hearts=entry.hearts, captured=captured,
                          last_winner=last, order=order, made=entry.made, stock=stock,
                          renege=renege, left=entry.left, aside=entry.aside)

    try:
        answer = scored(place.stock or 0)
    except (UnknownContract, OptionError, TallyError, CardError, LimitError) as exc:
        raise _fail(place, exc, players) from None
    contract, score = answer.contract, answer.score
    masks = None
    if entry.captured is not None:
        pack = contract.pack()
        masks = [mask_of(pack.parse(c) for c in cards) for cards in entry.captured]
    hearts = _hearts(contract, masks, entry.hearts)
    from_stock = tuple(0 for _seat in range(n))
    if place.stock and score.stock is not None and score.stock < place.stock:
        base = scored(0).score
        from_stock = tuple(a - b for a, b in zip(score.scores, base.scores, strict=True))
    kept = attrs.evolve(
        entry.kept(), contract=cid,
        declarer=None if entry.declarer is None else _named(entry.declarer, players),
        last_trick=None if entry.last_trick is None else _named(entry.last_trick, players),
        order=None if entry.order is None else tuple(_named(s, players) for s in entry.order),
        renege=None if entry.renege is None else _named(entry.renege, players))
    return kept, contract, score, None, hearts, from_stock


def _named(seat: Seat, players: Sequence[str]) -> Seat:
    """A seat as the evening keeps it: a name as the player is called, a number as it is."""
    if isinstance(seat, str) and read_whole(seat, digits=6) is None:
        return players[seat_of(seat, players, "seat")]
    return seat


def _misplaced(g: Any, place: Place, got: str) -> EveningError:
    """A contract that is not the one the partie fixes for the deal's place."""
    want = place.contract
    if place.partie is None:
        return EveningError(_("deal {k} is {want}, not {got}").format(k=place.k, want=want,
                                                                       got=got))
    if place.partie == 1:
        return EveningError(_("deal {k} of a {game} partie is {want}, not {got}").format(
            k=place.k, game=g.id, want=want, got=got))
    if g.hand_name == "round":
        text = _("deal {k} is round {hand} of partie {partie}, so {want}, not {got}")
    else:
        text = _("deal {k} is deal {hand} of partie {partie}, so {want}, not {got}")
    return EveningError(text.format(k=place.k, hand=place.hand + 1, partie=place.partie,
                                    want=want, got=got))


def _score_record(game: str, players: Sequence[str], opts: Mapping[str, Any], place: Place,
                  entry: Entry, sheet: bool) -> tuple[Entry, Contract, HandScore | None,
                                                      ReplayResult, tuple[int, ...] | None,
                                                      tuple[int, ...]]:
    assert entry.record is not None
    g = get_game(game)
    n = len(players)
    where = _("deal {k}").format(k=place.k)
    given = entry.record
    if (given.game, given.players) != (game, n):
        raise EveningError(_("{where}: the record is {game} with {players} "
                             "players; the evening is {game2} with {n}").format(
            where=where, game=given.game, players=given.players, game2=game, n=n))
    cls = type(given.contract)
    copts = known_options(cls, opts)
    changes: dict[str, Any] = {}
    if "dealer" not in entry.record_keys:
        changes["dealer"] = place.dealer
    if place.stock is not None:
        changes["stock"] = place.stock
    try:
        if "options" not in entry.record_keys and given.contract.opts != resolve_options(
                cls.options, copts):
            obj = {**given.to_json(), **changes, "options": copts}
            rec = read_record(obj)  # another contract, of the evening's options
        else:
            check_carried_stock(changes.get("stock", 0))
            rec = attrs.evolve(given, **changes)
    except (RecordError, OptionError, LimitError) as exc:
        raise EveningError(_("{where}: record: {exc}").format(where=where, exc=exc)) from None
    if rec.contract.opts != resolve_options(cls.options, copts):
        raise EveningError(_("{where}: the record has other options than the evening").format(
            where=where))
    if place.contract is not None and rec.contract_id != place.contract:
        raise _misplaced(g, place, rec.contract_id)
    if rec.dealer != place.dealer:
        how = g.rotation_text(opts) if g.partie else _("the deal passes clockwise")
        raise EveningError(_("{where}: the dealer is seat {dealer}, not {dealer2} "
                             "({how})").format(
            where=where, dealer=place.dealer, dealer2=rec.dealer, how=how))
    res = replay(rec)
    ruled = res.ruling
    if ruled is not None and ruled.established and ruled.scores is not None:
        # an established renege ends the hand: the evening scores the ruling
        res = attrs.evolve(res, score=HandScore(ruled.scores, ruled.stock, ruled.events,
                                                ruled.explanation))
    if res.score is None and not sheet:
        if res.illegal is not None:
            ill = res.illegal
            why = (_("it is a renege that play has not gone past, so it is corrected: take it "
                     "back and play on") if ruled is not None else
                   _("the evening scores only hands it can score"))
            raise EveningError(
                _("{where}: {where2}, {card} by seat {seat}, is illegal: "
                  "{message} (rule {rule}); {why}").format(
                    where=where, where2=ill.where(), card=ill.card, seat=ill.seat,
                    message=ill.message, rule=ill.rule, why=why))
        raise EveningError(_("{where}: the record is not complete, so it has no score yet").format(
            where=where))
    hearts = _hearts(rec.contract, res.captured, None)
    from_stock = tuple(0 for _seat in range(n))
    score = res.score
    if place.stock and score is not None and score.stock is not None and \
            score.stock < place.stock:
        base = replay(attrs.evolve(rec, stock=0)).score
        assert base is not None
        from_stock = tuple(a - b for a, b in zip(score.scores, base.scores, strict=True))
    return entry.kept(), rec.contract, score, res, hearts, from_stock
