"""What happens at a table against the computer: a new table, the person's announcement and
move, the computer's seats moving up to the person's next turn, undo, a hint, and the next deal
with what the evening carries.  Each answers a new :class:`~herzla.table.model.Table`.

>>> t = new_table("herzla", "normal", seed=3)
>>> p = position(t)
>>> p.phase, p.to_move == t.seat, len(p.legal()) > 0
('play', True, True)
>>> t = play(t, p.legal()[0])
>>> len(position(t).hand.moves) >= 4
True
>>> len(position(undo(t)).hand.moves) < len(position(t).hand.moves)
True
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.contracts import contract_class, get_game
from herzla.evening import Evening, EveningError
from herzla.evening.names import check_names, find_contract, find_game, seat_of
from herzla.i18n import _
from herzla.kinds import written_move
from herzla.limits import MAX_SEED
from herzla.names import find_name
from herzla.players import Policy, PolicyError, policy_of
from herzla.players.policy import decide_announce
from herzla.players.policy import hint as policy_hint
from herzla.players.seats import bid_out, play_out
from herzla.players.views import BidView, view_of
from herzla.quote import quote
from herzla.records import RecordError, deal_record
from herzla.round import Round
from herzla.table.model import (
    AWAY,
    MOST_AWAY,
    Person,
    Table,
    TableDeal,
    TableError,
    TableStateError,
    deal_seed,
    move_uniform,
)
from herzla.table.people import undo_own
from herzla.table.position import Position, contract_options, movers, position

__all__ = ["TableHint", "bid", "hint", "leave", "new_table", "next_deal", "play",
           "stand_in", "undo"]

#: the name of the person's seat when the players are not named
YOU = "You"


@attrs.frozen(slots=True)
class TableHint:
    """The computer's advice for the person's move: the ``policy`` asked, its ``move`` (or,
    during the bidding, its ``bid``), the ``values`` it weighed by move, what they measure and
    why it chose (:class:`herzla.players.policy.Hint`)."""

    policy: str
    move: str | None
    bid: str | None = None
    values: Mapping[str, float] = attrs.field(factory=dict)
    measure: str | None = None
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"policy": self.policy, "card": self.move, "bid": self.bid,
                "values": dict(self.values), "measure": self.measure, "reason": self.reason}


def _policy(text: object) -> Policy:
    if isinstance(text, Policy):
        return text
    try:
        return policy_of(text)  # type: ignore[arg-type]
    except PolicyError as exc:
        raise TableError(str(exc)) from None


def _names(players: int | Sequence[str] | None, seat: int, count: int,
           people: Sequence[int] = ()) -> tuple[str, ...]:
    if players is None or (isinstance(players, int) and not isinstance(players, bool)):
        n = count if players is None else players
        if not 2 <= n <= 16:
            raise TableError(_("players: {n} is not a table's number of players").format(n=n))
        names, k = [], 1
        for s in range(n):
            if people and s in people:
                names.append(f"Player {people.index(s) + 1}")
            elif s == seat and not people:
                names.append(YOU)
            else:
                names.append(f"Computer {k}")
                k += 1
        return tuple(names)
    if isinstance(players, bool):
        raise TableError(_("players: give their number or their names"))
    try:
        return check_names(players)
    except EveningError as exc:
        raise TableError(str(exc)) from None


def new_table(game: str, contract: str | None = None, *,
              players: int | Sequence[str] | None = None, seat: int = 0,
              declarer: int | str | None = None, opponents: str | Policy = "expert",
              seed: int | None = None, options: Mapping[str, Any] | None = None,
              stock: int = 0, dealer: int | str | None = None,
              people: Sequence[int] | None = None, away: int | None = None) -> Table:
    """A new table of ``game``: the person in ``seat`` (from 0) or, a table of people, the
    people in the seats ``people`` (each given a private key: :attr:`Table.people`), the
    other seats played by the policy ``opponents`` (a name, or a
    :class:`~herzla.players.Policy` object whose name or import path names it: a table is
    kept by name); ``contract`` the one to play at every
    deal (None: the game's own order, Herzla's with the bidding); ``players`` their number
    or their names (default: the contract's usual number, the person called "You", the
    people "Player 1" and on); ``declarer`` for a declarer's contract (None: forehand at each
    deal); ``seed`` of the cards and the computer's choices (None: a fresh one).  The
    computer's seats move up to the person's first turn.  ``away``: at a table of people, the
    seconds a person may be away before the computer plays their seat (default
    :data:`~herzla.table.model.AWAY`; 0: never)."""
    if away is not None and (isinstance(away, bool) or not isinstance(away, int)
                             or not 0 <= away <= MOST_AWAY):
        raise TableError(_("away: the seconds a person may be away, from 0 to {most}, not "
                           "{away}").format(most=MOST_AWAY, away=quote(away)))
    try:
        game = find_game(game)
        cid = None if contract is None else find_contract(game, contract)
    except EveningError as exc:
        raise TableError(str(exc)) from None
    g = get_game(game)
    cls = contract_class(game, cid) if cid is not None else g.contract_classes()[0]
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 16:
        raise TableError(_("seat: give the person's seat as a number from 0, not {seat}")
                         .format(seat=quote(seat)))
    sat = _people(people)
    if sat:
        seat = sat[0]
    names = _names(players, seat, cls.player_counts[0], sat)
    n = len(names)
    problem = cls.player_count_problem(n)
    if problem:
        raise TableError(problem)
    if seat >= n or any(s >= n for s in sat):
        bad = max((seat, *sat))
        raise TableError(_("seat {bad} is not a seat of {n} players (seats 0 to {last})")
                         .format(bad=bad, n=n, last=n - 1))
    policy = _policy(opponents)
    if isinstance(opponents, Policy):  # a table is kept (and reloaded) with its policy's name
        try:
            policy_of(policy.spec())
        except PolicyError:
            raise TableError(_("opponents: a table keeps its policy by name, and {name} names "
                               "none; give the policy class a name registered under "
                               "herzla.policies, or leave its name empty so that its import "
                               "path names it").format(name=quote(policy.spec()))) from None
    if seed is None:
        seed = secrets.randbits(62)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise TableError(_("seed: a whole number from 0 to {most}, not {seed}").format(
            most=MAX_SEED, seed=quote(seed)))
    try:
        evening = Evening.new(game, names, options, stock, dealer)
        fixed_decl = None if declarer is None else seat_of(declarer, names, "declarer")
    except EveningError as exc:
        raise TableError(str(exc)) from None
    if fixed_decl is not None and (cid is None or not cls.needs_declarer):
        raise TableError(_("declarer: only a declarer's contract (Beddl, Mord) has one"))
    keeps = cid is None or not g.partie
    first = evening.next_dealer
    assert first is not None
    table = Table.of(game, names, seat, policy.spec(), seed, dict(evening.options), cid,
                     fixed_decl, evening if keeps else None,
                     TableDeal(1, first, stock, (), cid, None),
                     tuple(Person(s, secrets.token_urlsafe(24)) for s in sat),
                     away=AWAY if away is None else away)
    return _advance(table.with_deal(_new_deal(table, 1, first, stock, evening)))


def _people(people: object) -> tuple[int, ...]:
    """The seats of a table's people as given (None: a table of one person), checked."""
    if people is None:
        return ()
    if not isinstance(people, list | tuple) or not 1 <= len(people) <= 16 or not all(
            isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 16 for s in people):
        raise TableError(_("people: a list of the seats people play (numbers from 0), not "
                           "{people}").format(people=quote(people)))
    if len(set(people)) < len(people):
        raise TableError(_("people: a seat is named twice"))
    return tuple(people)


def _new_deal(table: Table, k: int, dealer: int, stock: int, evening: Evening | None) -> TableDeal:
    g = get_game(table.game)
    cid = table.contract if table.contract is not None else (
        evening.next_contract if evening is not None else None)
    if cid is None and not g.bidding:
        raise TableError(_("{game} has no bidding: name the contract to play").format(
            game=table.game))
    base = cid if cid is not None else g.bidding[0]
    cls = contract_class(table.game, base)
    n = len(table.players)
    declarer = None
    if cls.needs_declarer:
        declarer = table.declarer if table.declarer is not None else (dealer + 1) % n
    try:
        rec = deal_record(table.game, base, n, deal_seed(table.seed, k), dealer, declarer,
                          stock if cls.has_stock else 0, contract_options(cls, table.options))
    except RecordError as exc:
        raise TableError(str(exc)) from None
    hands = tuple(tuple(str(c) for c in h) for h in rec.hands)
    return TableDeal(k, dealer, stock if cls.has_stock else 0, hands, cid, declarer)


def _advance(table: Table, pos: Position | None = None) -> Table:
    """The computer's seats announce and move until it is the person's turn or the hand is
    over; then, once over, the review of the person's cards.  ``pos``: the position of
    ``table``, when it is at hand (else it is built)."""
    seat = table.humans
    pos = position(table) if pos is None else pos
    seats = (pos.policy,) * pos.players
    try:
        if pos.bidding_on:
            bid_out(pos.round, seats, until=seat)
            table = table.with_deal(_with_bids(table.deal, pos.round))
            if pos.bidding_on:
                return table
            pos = position(table)
        deal = table.deal
        hand = pos.hand
        play_out(pos.round, seats, lambda k: move_uniform(table.seed, deal.k, len(hand.moves)),
                 until=seat)
    except PolicyError as exc:
        raise TableError(_("the computer could not move: {exc}").format(exc=exc)) from None
    deal = attrs.evolve(deal, moves=tuple(str(m) for m in hand.moves))
    table = table.with_deal(deal)
    if hand.over and deal.review is None and not table.of_people:
        table = table.with_deal(attrs.evolve(deal, review=_review(pos, table.seat)))
    pos.moved_on(table)  # the answer to the request reads this position, replaying nothing
    return table


def _with_bids(deal: TableDeal, done: Round) -> TableDeal:
    """The deal with the announcements of ``done``; once they settle the bidding, with the
    contract and declarer they settle on."""
    if done.contract is None:
        return attrs.evolve(deal, bids=done.bids)
    return attrs.evolve(deal, bids=done.bids, contract=done.contract.id,
                        declarer=done.contract.declarer, moves=())


def _review(pos: Position, seat: int) -> dict[str, Any]:
    """The double-dummy review of the person's cards (what each of them cost), or why there
    is none."""
    from herzla.analysis.review import review_or_why

    done = review_or_why(pos.current_record(), seat=seat)
    return {"error": done} if isinstance(done, str) else done


# -- the person's actions --------------------------------------------------------------------
def _acting(table: Table, seat: int | None) -> int:
    """The seat of the person acting: ``seat`` at a table of people (where each acts by their
    own link), else the table's one person; TableStateError for a seat the computer plays."""
    if not table.of_people:
        if seat is not None and seat != table.seat:
            raise TableStateError(_("seat {seat} is the computer's at this table").format(
                seat=seat))
        return table.seat
    if seat is None:
        raise TableStateError(_("each person plays by the link of their own seat"))
    if seat not in table.humans:
        raise TableStateError(_("the computer plays %(name)s's seat now")
                              % {"name": table.players[seat]})
    return seat


def play(table: Table, move: object, seat: int | None = None) -> Table:
    """The person in ``seat`` (None: the table's one person) plays ``move`` (``HA``; a lay
    ``D7``, ``D7-`` for an end where both fit; ``pass``) and the computer's seats move on."""
    seat = _acting(table, seat)
    pos = position(table)
    pos.hand.play(pos.check_persons_move(move, seat))
    table = table.with_deal(attrs.evolve(table.deal, moves=tuple(str(m) for m in pos.hand.moves)))
    return _advance(table, pos.moved_on(table))


def bid(table: Table, word: object, seat: int | None = None) -> Table:
    """The person in ``seat`` (None: the table's one person) announces ``word`` (``pass``, or
    a contract of the game's bidding) and the computer's seats announce and move on."""
    seat = _acting(table, seat)
    pos = position(table)
    if not pos.bidding_on:
        raise TableStateError(_("the bidding is over"))
    if pos.round.bidder != seat:
        bidder = pos.round.bidder
        assert bidder is not None
        raise TableStateError(_("it is %(name)s's turn to announce, not yours")
                              % {"name": table.players[bidder]})
    known = pos.bids_known()
    found = find_name(word, known) if isinstance(word, str) else None
    if found is None:
        raise TableError(_("announce {known}, not {word}").format(known=", ".join(known),
                                                                  word=quote(word)))
    pos.round.announce(found)
    table = table.with_deal(_with_bids(table.deal, pos.round))
    return _advance(table, pos.moved_on(table) if table.deal.contract is None else None)


def undo(table: Table, seat: int | None = None) -> Table:
    """The table as before the last move (or announcement) of this deal of the person in
    ``seat`` (None: the table's one person).  At a table of people only the deal's last move
    is taken back, by the one who made it, while its trick is still open (nobody has played
    after it): :func:`herzla.table.people.undo_own`."""
    seat = _acting(table, seat)
    if table.of_people:
        return undo_own(table, seat)
    deal = table.deal
    if deal.contract is not None and deal.moves:
        pos = position(table.with_deal(attrs.evolve(deal, moves=())))
        hand = pos.hand
        movers = []
        for text in deal.moves:
            movers.append(hand.turn)
            hand.play(text)
        mine = [i for i, s in enumerate(movers) if s == seat]
        if mine:
            return table.with_deal(attrs.evolve(deal, moves=deal.moves[:mine[-1]],
                                                review=None))
    n = len(table.players)
    forehand = (deal.dealer + 1) % n
    mine = [i for i in range(len(deal.bids)) if (forehand + i) % n == seat]
    if not mine:
        raise TableStateError(_("you have made no move in this deal yet: nothing to take "
                                "back"))
    return table.with_deal(attrs.evolve(deal, bids=deal.bids[:mine[-1]], contract=None,
                                        declarer=None, moves=(), review=None))


def next_deal(table: Table, seat: int | None = None) -> Table:
    """The hand over, the next deal: the evening's next dealer, contract and stock (a table
    without an evening: the same contract, dealt by the next seat).  At a table of people,
    the person in ``seat`` asks for it, and it is dealt once every person has asked."""
    pos = position(table)
    if not pos.over:
        raise TableStateError(_("the hand is not over yet"))
    if table.of_people:
        asked = table.asked | {_acting(table, seat)}
        if not table.humans <= asked:
            return table.with_people(asked=asked)
        table = table.with_people(asked=frozenset())
    evening = table.evening
    deal = table.deal
    if evening is not None:
        try:
            evening = evening.add({"record": pos.current_record().to_json()})
        except EveningError as exc:
            raise TableError(_("the evening does not take this deal: {exc}").format(
                exc=exc)) from None
        dealer = evening.next_dealer
        if dealer is None:
            raise TableStateError(_("the match is over: start a new table to play again"))
        nxt = _new_deal(table, len(evening.deals) + 1, dealer, evening.stock or 0, evening)
    else:
        nxt = _new_deal(table, deal.k + 1, (deal.dealer + 1) % len(table.players), 0, None)
    return _advance(table.with_deal(nxt, evening))


def hint(table: Table, policy: str | Policy | None = None, seat: int | None = None
         ) -> TableHint:
    """What ``policy`` (a name or a :class:`~herzla.players.Policy` object; default: the
    table's opponents) advises for the move of the person in
    ``seat`` (None: the table's one person) now, from what that seat sees alone."""
    seat = _acting(table, seat)
    pos = position(table)
    who = pos.policy if policy is None else _policy(policy).at_table()
    deal = table.deal
    if pos.to_move != seat:
        raise TableStateError(_("the hand is over") if pos.over or pos.to_move is None else
                              _("it is %(name)s's turn, not yours")
                              % {"name": table.players[pos.to_move]})
    try:
        if pos.bidding_on:
            view = BidView(pos.contract, seat, pos.round.dealt[seat], deal.dealer,
                           deal.bids)
            return TableHint(who.spec(), None, decide_announce(who, view, pos.bids_known()))
        hand = pos.hand
        uniform = move_uniform(table.seed, deal.k, len(hand.moves))
        got = policy_hint(who, view_of(hand, uniform, deal.stock, deal.bids), hand.check)
    except PolicyError as exc:
        raise TableError(_("no hint: {exc}").format(exc=exc)) from None
    return TableHint(who.spec(), written_move(hand, got.move), None, dict(got.values),
                     got.measure, got.reason)


def stand_in(table: Table, away: frozenset[int]) -> Table:
    """The computer plays for the people in the seats ``away`` (their pages have been away
    longer than the table allows) from now until a present person's turn or the end of the
    hand (a next deal that waits only for them is dealt, and played on alike); the cards it
    plays for them are marked in the deal (:attr:`TableDeal.stood_in`).  The seats stay the
    people's: they play them again as soon as they are back."""
    away = away & table.humans
    if not table.of_people or not away:
        return table
    present = tuple(attrs.evolve(p, left=True) if p.seat in away else p for p in table.people)
    for _round in range(2):  # the hand, then at most the next deal
        pos = position(table)
        if pos.over:
            if not table.humans <= table.asked | away:
                return table
            table = next_deal(table.with_people(asked=table.humans), min(table.humans))
            continue
        if pos.to_move not in away:
            return table
        before = len(table.deal.moves)
        moved = _advance(table.with_people(present), pos)
        marks = [i for i, s in enumerate(movers(moved), start=0)
                 if i >= before and s in away]
        deal = attrs.evolve(moved.deal, stood_in=tuple(sorted({*table.deal.stood_in, *marks})))
        table = moved.with_people(table.people).with_deal(deal)
    return table


def leave(table: Table, seat: int) -> Table:
    """The person in ``seat`` has left: the computer plays the seat from now on (and moves
    at once where it is to move; a next deal that waited only for that person is dealt)."""
    if not table.of_people:
        raise TableStateError(_("only a table of people has seats a person may leave"))
    persons = {p.seat: p for p in table.people}
    if isinstance(seat, bool) or not isinstance(seat, int) or seat not in persons:
        raise TableError(_("seat: one of the people's seats ({seats}), not {seat}").format(
            seats=", ".join(map(str, persons)), seat=quote(seat)))
    if persons[seat].left:
        raise TableStateError(_("the computer plays %(name)s's seat already")
                              % {"name": table.players[seat]})
    people = tuple(attrs.evolve(p, left=True) if p.seat == seat else p for p in table.people)
    table = table.with_people(people, table.asked - {seat})
    if position(table).over:
        if table.humans and table.humans <= table.asked:
            return next_deal(table, min(table.asked))
        return table
    return _advance(table)
