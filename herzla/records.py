"""Hand records: reading and checking them, replaying and scoring them, and the seeded deal.

The format is described in the Hand records page of the docs.

>>> rec = deal_record("herzeln", "last-trick", 3, seed=1)
>>> result = replay(rec)
>>> result.complete, result.illegal
(False, None)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.cards import Card, CardError, Pack, cards_of, mask_of
from herzla.contracts import Contract, UnknownContract, contract_class, game_of
from herzla.contracts.renege import Ruling, is_renege, renege_option, renege_score
from herzla.contracts.vocabulary import TallyError
from herzla.counting import ordinal
from herzla.display import render
from herzla.hand import PASS, Hand, HandScore, Move, Trick, record_json, sort_hand
from herzla.hand import record_of as record_of
from herzla.i18n import DEFAULT, _, current
from herzla.kinds import Replayed, kind_of
from herzla.limits import LimitError, check_carried_stock, check_seed, whole_number
from herzla.options import OptionError, given_options
from herzla.quote import number, quote
from herzla.support.reports import replay_report, score_report
from herzla.support.words import capital, or_list, signed
from herzla.tags import TagError, read_tags

__all__ = [
    "Play",
    "Record",
    "RecordError",
    "ReplayResult",
    "record_of",
    "deal_hands",
    "deal_record",
    "load_json_text",
    "play_moves",
    "read_record",
    "replay",
    "result_of",
    "score_report",
    "signed",
    "sort_hand",
]

KEYS = ("game", "contract", "players", "dealer", "declarer", "stock", "options", "hands", "plays",
        "tags")


class RecordError(ValueError):
    """Malformed input: a record that cannot be read, with the problem named."""


#: one entry of ``plays``: a card (with an optional end mark) or a pass
Play = Move


def _int(obj: Mapping[str, Any], key: str, default: int | None) -> int | None:
    value = obj.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(_("{key} must be a whole number, not {value}").format(
            key=key, value=quote(value)))
    return value


@attrs.frozen(slots=True)
class Record:
    """A checked hand record.  Build one with :meth:`from_json`; ``to_json`` writes it back.

    The table's rules are its ``contract`` (the game, the contract id, the players, the
    declarer and every option); ``options`` are the options the record states, with their
    values as the contract reads them.
    """

    contract: Contract
    dealer: int
    stock: int
    options: Mapping[str, Any]
    hands: tuple[tuple[Card, ...], ...]
    plays: tuple[Play, ...]
    #: what the table keeps with the hand (:mod:`herzla.tags`), ignored by every rule
    tags: Mapping[str, str] = attrs.field(factory=dict)

    @property
    def game(self) -> str:
        return self.contract.game

    @property
    def contract_id(self) -> str:
        return self.contract.id

    @property
    def players(self) -> int:
        return self.contract.players

    @property
    def declarer(self) -> int | None:
        return self.contract.declarer

    @classmethod
    def from_json(cls, obj: Any, contract_cls: type[Contract] | None = None) -> Record:
        """Read and check a record (a parsed JSON object); RecordError names the first problem.

        ``contract_cls`` plays the record by that contract class instead of the registry's (for
        contracts not registered yet, as in :func:`herzla.testing.check_contract`).
        """
        if not isinstance(obj, dict):
            raise RecordError(_("a hand record must be a JSON object, not {obj}").format(
                obj=quote(obj)))
        unknown = sorted(set(obj) - set(KEYS), key=str)
        if unknown:
            raise RecordError(_("unknown key {unknown} in the hand record "
                                "(keys: {keys})").format(
                unknown=quote(unknown[0]), keys=', '.join(KEYS)))
        for key in ("game", "contract", "players", "hands"):
            if key not in obj:
                raise RecordError(_("the hand record has no {key}").format(key=quote(key)))
        game, contract_id = obj["game"], obj["contract"]
        if not isinstance(game, str) or not isinstance(contract_id, str):
            raise RecordError(_("game and contract must be text"))
        try:
            cls_ = contract_cls or contract_class(game, contract_id)
        except UnknownContract as exc:
            raise RecordError(str(exc)) from None
        players = _int(obj, "players", None)
        if players is None:
            raise RecordError(_("players must be a whole number, not null"))
        problem = cls_.player_count_problem(players)
        if problem:
            raise RecordError(problem)
        dealer = _int(obj, "dealer", players - 1)
        if dealer is None:
            dealer = players - 1
        if not 0 <= dealer < players:
            raise RecordError(_("dealer {dealer} is not a seat (seats are 0 to "
                                "{players})").format(dealer=number(dealer), players=players - 1))
        declarer = _int(obj, "declarer", None)
        if declarer is not None and not 0 <= declarer < players:
            raise RecordError(_("declarer {declarer} is not a seat (seats are 0 to "
                                "{players})").format(
                declarer=number(declarer), players=players - 1))
        if cls_.needs_declarer and declarer is None:
            raise RecordError(_("{game} {contract_id} needs a declarer seat").format(
                game=game, contract_id=contract_id))
        if not cls_.needs_declarer and declarer is not None:
            raise RecordError(_("{game} {contract_id} has no declarer; write null or leave it "
                                "out").format(
                game=game, contract_id=contract_id))
        stock = _int(obj, "stock", 0) or 0
        try:
            check_carried_stock(stock)
        except LimitError as exc:
            raise RecordError(str(exc)) from None
        if stock and not cls_.has_stock:
            raise RecordError(_("{game} has no stock, but the record says stock {stock}").format(
                game=game, stock=stock))
        options = obj.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError(_("options must be a JSON object of option names and values"))
        try:
            contract = cls_(players, options, declarer)
        except OptionError as exc:
            raise RecordError(str(exc)) from None
        hands = _read_hands(obj["hands"], contract)
        plays = _read_plays(obj.get("plays", []), contract)
        try:
            tags = read_tags(obj.get("tags", {}))
        except TagError as exc:
            raise RecordError(str(exc)) from None
        return cls(contract, dealer, stock, given_options(contract.options, options), hands,
                   plays, tags)

    @classmethod
    def from_text(cls, text: str) -> Record:
        return read_record(load_json_text(text))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "contract": self.contract_id,
            "players": self.players,
            "dealer": self.dealer,
            "declarer": self.declarer,
        }
        if self.contract.has_stock:
            out["stock"] = self.stock
        out["options"] = dict(self.options)
        out["hands"] = [[str(c) for c in h] for h in self.hands]
        out["plays"] = [str(p) for p in self.plays]
        if self.tags:
            out["tags"] = dict(self.tags)
        return out

    def __repr__(self) -> str:
        decl = f", declarer seat {self.declarer}" if self.declarer is not None else ""
        stock = f", stock {self.stock}c" if self.contract.has_stock and self.stock else ""
        n = len(self.plays)
        return (f"<Record {self.game} {self.contract_id}, {self.players} players, dealer seat "
                f"{self.dealer}{decl}{stock}, {n} play{'' if n == 1 else 's'}>")

    def start(self, played: bool = False) -> Hand:
        """The hand of this record (a :class:`herzla.hand.Hand`): at its start, or with
        ``played`` after the record's plays (RecordError at an illegal one, naming it as
        ``replay`` does)."""
        state = self.contract.new_hand([mask_of(h) for h in self.hands], self.dealer,
                                       self.stock)
        if not played:
            return state
        illegal = play_moves(state, self.plays)
        if illegal is not None:
            raise RecordError(_("{where}, {card} by seat {seat}, "
                                "is illegal: {message} (rule {rule})").format(
                where=illegal.where(), card=illegal.card, seat=illegal.seat,
                message=illegal.message, rule=illegal.rule))
        return state

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % self.players

    def leftovers(self) -> list[Card]:
        used = mask_of(c for h in self.hands for c in h)
        return cards_of(self.contract.pack().mask & ~used)

    def _repr_svg_(self) -> str | None:
        """A notebook shows the hand as a picture (:func:`herzla.draw.svg.record_svg`)."""
        return render("Record", "svg", self)


def read_record(obj: Record | Mapping[str, Any] | object,
                contract_cls: type[Contract] | None = None) -> Record:
    """The one reader of hand records: every command and library function that takes a record
    (``replay``, ``solve``, score sheets) reads it here, with the same checks.

    ``obj`` is a :class:`Record` (returned as it is) or a parsed JSON object (a mapping of the
    record's keys, see the Hand records page of the docs); anything else (a list, of ``[key,
    value]`` pairs or not, text, a number, null) is a :class:`RecordError`, as is every problem
    inside it.
    ``contract_cls`` plays the record by that contract class instead of the registry's.

    >>> read_record([["game", "herzla"]])
    Traceback (most recent call last):
    ...
    herzla.records.RecordError: a hand record must be a JSON object, not a list
    """
    if isinstance(obj, Record) and contract_cls is None:
        return obj
    if isinstance(obj, Record):
        obj = obj.to_json()
    if isinstance(obj, Mapping) and not isinstance(obj, dict):
        obj = dict(obj)
    return Record.from_json(obj, contract_cls)


#: the largest JSON document read whole (a record, or a list of records); JSON Lines are read a
#: line at a time, each line at most this long
MAX_DOCUMENT = 64 * 1024 * 1024


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(_("the key {key} appears twice in one object").format(key=quote(key)))
        out[key] = value
    return out


def load_json_text(text: str) -> Any:
    """Parse JSON text; RecordError names the problem (bad JSON, a key given twice, a number of
    too many digits, nesting too deep, a document over :data:`MAX_DOCUMENT`)."""
    if len(text) > MAX_DOCUMENT:
        raise RecordError(_("the JSON document is larger than {max_document} MiB; write "
                            "records one a line (JSON Lines) to replay more").format(
            max_document=MAX_DOCUMENT // 2 ** 20))
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        what = exc.msg.removesuffix(" at").removesuffix(":")
        raise RecordError(_("not valid JSON: {what} at line {lineno} column {colno}").format(
            what=what, lineno=exc.lineno, colno=exc.colno))\
            from None
    except RecursionError:
        raise RecordError(_("not valid JSON: lists or objects nested too deeply"))\
            from None
    except RecordError:
        raise
    except ValueError as exc:  # integer strings longer than Python converts
        if "digits" in str(exc):
            raise RecordError(_("not valid JSON: a number has too many digits"))\
                from None
        raise RecordError(_("not valid JSON: {exc}").format(exc=exc)) from None


def _card_of(text: Any, pack: Pack, where: str) -> Card:
    if not isinstance(text, str):
        raise RecordError(_("{where}: {text} is not a card code").format(
            where=where, text=quote(text)))
    try:
        return pack.parse(text)
    except CardError as exc:
        raise RecordError(_("{where}: {exc}").format(where=where, exc=exc)) from None


#: per pack (its mask): each card's own code -> the card and its bit (a record's usual spelling)
_PLAIN: dict[int, dict[str, tuple[Card, int]]] = {}


def _plain_codes(pack: Pack) -> dict[str, tuple[Card, int]]:
    got = _PLAIN.get(pack.mask)
    if got is None:
        got = _PLAIN[pack.mask] = {c.code: (c, c.bit) for c in pack.cards}
    return got


def _read_hands(raw: Any, contract: Contract) -> tuple[tuple[Card, ...], ...]:
    n = contract.players
    if not isinstance(raw, list) or len(raw) != n:
        raise RecordError(_("hands must be a list of {n} hands, one per seat").format(n=n))
    pack = contract.pack()
    plain = _plain_codes(pack)
    size = contract.hand_size
    dealt = 0
    out: list[tuple[Card, ...]] = []
    for seat, hand in enumerate(raw):
        if not isinstance(hand, list):
            raise RecordError(_("hands[{seat}] must be a list of card codes, not {hand}").format(
                seat=seat, hand=quote(hand)))
        cards: list[Card] = []
        for text in hand:
            got = plain.get(text) if isinstance(text, str) else None
            if got is None:
                card = _card_of(text, pack, f"hands[{seat}]")
                bit = card.bit
            else:
                card, bit = got
            if dealt & bit:
                other = next(s for s, h in enumerate([*out, cards]) if card in h)
                where = (_("seats {other} and {seat}").format(other=other, seat=seat)
                         if other != seat else _("seat {seat} twice").format(seat=seat))
                raise RecordError(_("{card} is dealt to {where}").format(card=card, where=where))
            dealt |= bit
            cards.append(card)
        if len(cards) != size:
            raise RecordError(_("seat {seat} holds {n_cards} cards; {game} with {n} "
                                "players deals {size}").format(
                seat=seat, n_cards=len(cards), game=contract.game, n=n, size=size))
        out.append(tuple(cards))
    return tuple(out)


def _read_plays(raw: Any, contract: Contract) -> tuple[Play, ...]:
    if not isinstance(raw, list):
        raise RecordError(_("plays must be a list of card codes"))
    pack = contract.pack()
    passes = contract.has_passes
    marks = contract.end_marks
    out = []
    for i, text in enumerate(raw):
        if not isinstance(text, str):
            raise RecordError(_("plays[{i}]: {text} is not a card code").format(
                i=i, text=quote(text)))
        if text.strip().lower() == "pass":
            if not passes:
                raise RecordError(_('plays[{i}]: "pass" exists only in the layout deals').format(
                    i=i))
            out.append(PASS)
            continue
        end = None
        body = text.strip()
        if body[-1:] in ("+", "-"):
            if not marks:
                raise RecordError(_("plays[{i}]: {text}: an end mark (+ or -) exists only "
                                    "where a card can fit both ends of a row (the Herzeln "
                                    "domino, whose rows turn the corner)").format(
                    i=i, text=quote(text)))
            body, end = body[:-1], body[-1]
        out.append(Play(_card_of(body, pack, f"plays[{i}]"), end))
    return tuple(out)


@attrs.frozen(slots=True)
class IllegalPlay:
    """The first illegal play of a record: ``index`` counts the entries of ``plays`` from 0
    (as the JSON answers write it); ``trick`` and ``place`` say, in a trick deal, which trick
    (from 1) and which card of it (from 1) it would have been."""

    index: int
    seat: int
    card: str
    rule: str
    message: str
    trick: int | None = attrs.field(default=None, eq=False)
    place: int | None = attrs.field(default=None, eq=False)

    def where(self) -> str:
        """Where it is, for people, counting from 1: ``play 6 (trick 2, 2nd card)``."""
        if self.trick is None or self.place is None:
            return _("play {play}").format(play=self.index + 1)
        nth = ordinal(self.place) if current() == DEFAULT else f"{self.place}."
        return _("play {play} (trick {trick}, {nth} card)").format(
            play=self.index + 1, trick=self.trick, nth=nth)

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "card": self.card, "rule": self.rule,
                "message": self.message}


@attrs.frozen(slots=True)
class ReplayResult:
    """What ``herzla replay`` answers (the Hand records page of the docs)."""

    record: Record
    complete: bool
    illegal: IllegalPlay | None
    tricks: tuple[Trick, ...] | None
    order: tuple[int, ...] | None
    score: HandScore | None
    explanation: tuple[str, ...]
    ruling: Ruling | None = None
    #: the cards each seat captured (None: the kind of deal captures none)
    captured: tuple[int, ...] | None = None

    @property
    def shown(self) -> Replayed:
        """What the replay shows of the hand, as its kind of deal reads it."""
        return Replayed(self.tricks, self.order, self.captured)

    @property
    def scores(self) -> tuple[int, ...] | None:
        return self.score.scores if self.score else None

    @property
    def stock(self) -> int | None:
        if not self.record.contract.has_stock:
            return None
        if self.score is not None and self.score.stock is not None:
            return self.score.stock
        return self.record.stock

    def __repr__(self) -> str:
        r = self.record
        if self.illegal is not None:
            status = f"illegal {self.illegal.where()} ({self.illegal.rule})"
        else:
            status = "complete" if self.complete else "not complete"
        scores = ""
        if self.scores is not None:
            unit = "c" if r.contract.has_stock else ""
            scores = ", scores " + " ".join(f"{signed(v)}{unit}" for v in self.scores)
        return f"<ReplayResult {r.game} {r.contract_id}: {status}{scores}>"

    def report(self) -> str:
        """The text ``herzla replay`` prints for one record (also ``str(result)``)."""
        return replay_report(self)

    def __str__(self) -> str:
        return self.report()

    def to_dict(self) -> dict[str, Any]:
        r = self.record
        return {
            "game": r.game,
            "contract": r.contract_id,
            "players": r.players,
            "complete": self.complete,
            "illegal": self.illegal.to_dict() if self.illegal else None,
            **kind_of(r.contract).json(self.shown),
            "scores": list(self.scores) if self.scores is not None else None,
            "stock": self.stock,
            "events": list(self.score.events) if self.score else [],
            "explanation": list(self.explanation),
            "ruling": self.ruling.to_dict() if self.ruling is not None else None,
        } | ({"tags": dict(r.tags)} if r.tags else {})

    def _repr_html_(self) -> str | None:
        """A notebook shows the hand, the play and the settlement
        (:func:`herzla.draw.html.hand_html`)."""
        return render("ReplayResult", "html", self)


def replay(record: Record | Mapping[str, Any]) -> ReplayResult:
    """Replay a record to its end or to the first illegal play, and score it if complete.

    ``record`` is a :class:`Record` or a parsed JSON object, read by :func:`read_record`
    (RecordError names what is wrong with it).
    """
    record = read_record(record)
    state = record.start()
    return result_of(record, state, play_moves(state, record.plays))


def result_of(record: Record, state: Hand, illegal: IllegalPlay | None = None) -> ReplayResult:
    """What :func:`replay` answers for ``record`` whose plays are already played on ``state``
    (up to ``illegal``, the first illegal one): what holds a hand in play (a table's position)
    answers it without replaying."""
    shown = kind_of(record.contract).shown(state)
    lines = list(shown.lines)
    complete = state.over
    score = None
    ruling = None
    if illegal is not None:
        lines.insert(0, _("{where}, {card} by seat {seat}, is illegal: {message} (rule "
                          "{rule}); nothing after it is applied.").format(
            where=capital(illegal.where()), card=illegal.card, seat=illegal.seat,
            message=illegal.message, rule=illegal.rule))
        ruling = rule_on(record, state, illegal)
    elif complete:
        try:
            score = state.score()
        except NotImplementedError:
            raise RecordError(_("{game} {contract_id} cannot be scored yet").format(
                game=record.game, contract_id=record.contract_id)) from None
        lines.extend(score.explanation)
    return ReplayResult(record, complete, illegal, shown.tricks, shown.order, score, tuple(lines),
                        ruling, shown.captured)


def rule_on(record: Record, state: Hand, illegal: IllegalPlay) -> Ruling | None:
    """The ruling on a record's first illegal play (``state`` is the hand just before it), or
    None: an error of the record, or a table that plays ``renege=none``.

    The renege is established once play has gone on past it: in a trick deal once ``plays``
    holds every card of its trick, in a layout deal once an entry follows it.
    """
    contract = record.contract
    option = renege_option(contract)
    if not is_renege(illegal.rule) or option == "none":
        return None
    after = len(record.plays) - illegal.index - 1
    n = contract.players
    if illegal.trick is None:
        established = after > 0
    else:
        assert illegal.place is not None
        established = after >= n - illegal.place
    if not established:
        legal = state.legal_moves()
        cards = [m.card for m in legal]
        written = tuple(str(m) if m.end is not None and cards.count(m.card) > 1
                        else str(Move(m.card)) for m in legal)
        return Ruling(illegal.seat, False, option, None, None, (), written, (
            _("{where} is a renege, but play has not gone on past it: it is corrected. {card} "
              "goes back and seat {seat} plays {instead} instead; no penalty (rule "
              "renege).").format(where=capital(illegal.where()), card=illegal.card,
                                 seat=illegal.seat, instead=or_list(written)),))
    outcome = state.outcome()
    try:
        score = renege_score(contract, illegal.seat, game_of(contract).lowest_wins,
                             record.stock, dealt=mask_of(c for h in record.hands for c in h),
                             out=outcome.out or (), left=[h.bit_count() for h in state.hands])
    except TallyError as exc:  # pragma: no cover - a record gives everything a ruling needs
        raise RecordError(str(exc)) from None
    return Ruling(illegal.seat, True, option, score.scores, score.stock, score.events, None, (
        _("{where} is a renege by seat {seat}, and play went on past it: it is established, "
          "and the hand ends there (rule renege).").format(where=capital(illegal.where()),
                                                           seat=illegal.seat),
        *score.explanation))


def play_moves(state: Hand, plays: Sequence[Move]) -> IllegalPlay | None:
    """Play a record's ``plays`` on ``state``, up to the first illegal one, which it returns:
    the one replay loop of every deal.

    A layout deal's passes may be left out, as the format says: while the seat to move cannot
    lay a card and does not hold the entry's card, it passes.
    """
    n = state.players
    for i, play in enumerate(plays):
        card = play.card
        if card is not None:
            for _ in range(n):
                if (state.over or state.hands[state.turn] >> card.index & 1
                        or not state.must_pass):
                    break
                state._play(PASS)
        bad = state.check(play)
        if bad is not None:
            # a trick deal names the trick and the card's place in it
            trick, place = state.trick_place or (None, None)
            return IllegalPlay(i, state.turn, str(play), bad.rule, bad.message, trick, place)
        state._play(play)
    return None


def deal_hands(contract: Contract, seed: int) -> list[list[Card]]:
    """The seeded deal: each seat's cards, sorted; the leftovers are left out.

    It is the first hand that ``herzla simulate`` plays with the same seed (the simulator's
    first random stream, :func:`herzla.support.streams.seeded_deal`).
    """
    from herzla.support.streams import seeded_deal  # numpy's random streams, when dealing

    masks = seeded_deal(contract.pack(), contract.players, contract.hand_size, seed)
    return [sort_hand(cards_of(m), contract) for m in masks]


def deal_record(game: str, contract_id: str, players: int | None = None,
                seed: int | None = None, dealer: int | None = None,
                declarer: int | None = None, stock: int = 0,
                options: Mapping[str, Any] | None = None) -> Record:
    """A seeded deal as a checked hand record without plays (``seed=None``: a fresh one).

    ``players`` None: the game's usual number, as ``herzla deal`` has it.  Beddl and Mord
    without a declarer are declared by forehand.

    >>> deal_record("herzeln", "no-hearts", seed=7).players
    4
    """
    cls_ = contract_class(game, contract_id)  # UnknownContract: a ValueError
    if players is None:
        players = cls_.player_counts[0]
    for what, value in (("players", players), ("seed", seed), ("dealer", dealer),
                        ("declarer", declarer), ("stock", stock)):
        if value is not None or what in ("players", "stock"):
            try:
                whole_number(value, what)
            except LimitError as exc:
                raise RecordError(str(exc)) from None
    problem = cls_.player_count_problem(players)
    if problem:
        raise RecordError(problem)
    if dealer is None:
        dealer = players - 1
    if cls_.needs_declarer and declarer is None:
        declarer = (dealer + 1) % players
    try:
        contract = cls_(players, options, declarer)  # a declarer where none is: refused
    except OptionError as exc:
        raise RecordError(str(exc)) from None
    if seed is None:
        import secrets

        seed = secrets.randbits(63)
    try:
        check_seed(seed)
    except LimitError as exc:
        raise RecordError(str(exc)) from None
    dealt = [mask_of(hand) for hand in deal_hands(contract, seed)]
    return read_record(record_json(contract, dealer, stock, dealt, [],
                                   given_options(contract.options, options)))

