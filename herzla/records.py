"""Hand records: reading and checking them, replaying and scoring them, and the seeded deal.

The format is described in docs/hand-records.md.

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
from herzla.contracts import (
    Contract,
    LayoutContract,
    TrickContract,
    UnknownContract,
    contract_class,
)
from herzla.contracts.base import HandScore
from herzla.display import render
from herzla.layout import LayoutHand
from herzla.limits import LimitError, check_seed, check_stock, whole_number
from herzla.options import OptionError, given_options
from herzla.quote import number, quote
from herzla.tricks import Trick, TrickHand

__all__ = [
    "Play",
    "Record",
    "RecordError",
    "ReplayResult",
    "deal_hands",
    "deal_record",
    "load_json_text",
    "new_hand",
    "play_layout",
    "read_record",
    "replay",
    "score_report",
    "signed",
    "sort_hand",
]

KEYS = ("game", "contract", "players", "dealer", "declarer", "stock", "options", "hands", "plays")


class RecordError(ValueError):
    """Malformed input: a record that cannot be read, with the problem named."""


@attrs.frozen(slots=True)
class Play:
    """One entry of ``plays``: a card (with an optional end mark) or a pass."""

    card: Card | None
    end: str | None = None

    @property
    def is_pass(self) -> bool:
        return self.card is None

    def __str__(self) -> str:
        if self.card is None:
            return "pass"
        return f"{self.card}{self.end or ''}"


def _int(obj: Mapping[str, Any], key: str, default: int | None) -> int | None:
    value = obj.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"{key} must be a whole number, not {quote(value)}")
    return value


@attrs.frozen(slots=True)
class Record:
    """A checked hand record.  Build one with :meth:`from_json`; ``to_json`` writes it back."""

    game: str
    contract_id: str
    players: int
    dealer: int
    declarer: int | None
    stock: int
    options: Mapping[str, Any]
    hands: tuple[tuple[Card, ...], ...]
    plays: tuple[Play, ...]
    contract: Contract = attrs.field(eq=False, repr=False)

    @classmethod
    def from_json(cls, obj: Any, contract_cls: type[Contract] | None = None) -> Record:
        """Read and check a record (a parsed JSON object); RecordError names the first problem.

        ``contract_cls`` plays the record by that contract class instead of the registry's (for
        contracts not registered yet, as in :func:`herzla.testing.check_contract`).
        """
        if not isinstance(obj, dict):
            raise RecordError(f"a hand record must be a JSON object, not {quote(obj)}")
        unknown = sorted(set(obj) - set(KEYS), key=str)
        if unknown:
            raise RecordError(f"unknown key {quote(unknown[0])} in the hand record "
                              f"(keys: {', '.join(KEYS)})")
        for key in ("game", "contract", "players", "hands"):
            if key not in obj:
                raise RecordError(f"the hand record has no {quote(key)}")
        game, contract_id = obj["game"], obj["contract"]
        if not isinstance(game, str) or not isinstance(contract_id, str):
            raise RecordError("game and contract must be text")
        try:
            cls_ = contract_cls or contract_class(game, contract_id)
        except UnknownContract as exc:
            raise RecordError(str(exc)) from None
        players = _int(obj, "players", None)
        if players is None:
            raise RecordError("players must be a whole number, not null")
        problem = cls_.player_count_problem(players)
        if problem:
            raise RecordError(problem)
        dealer = _int(obj, "dealer", players - 1)
        if dealer is None:
            dealer = players - 1
        if not 0 <= dealer < players:
            raise RecordError(f"dealer {number(dealer)} is not a seat (seats are 0 to "
                              f"{players - 1})")
        declarer = _int(obj, "declarer", None)
        if declarer is not None and not 0 <= declarer < players:
            raise RecordError(f"declarer {number(declarer)} is not a seat (seats are 0 to "
                              f"{players - 1})")
        if cls_.needs_declarer and declarer is None:
            raise RecordError(f"{game} {contract_id} needs a declarer seat")
        if not cls_.needs_declarer and declarer is not None:
            raise RecordError(f"{game} {contract_id} has no declarer; write null or leave it out")
        stock = _int(obj, "stock", 0) or 0
        try:
            check_stock(stock)
        except LimitError as exc:
            raise RecordError(str(exc)) from None
        if stock and not cls_.has_stock:
            raise RecordError(f"{game} has no stock, but the record says stock {stock}")
        options = obj.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("options must be a JSON object of option names and values")
        try:
            contract = cls_(players, options, declarer)
        except OptionError as exc:
            raise RecordError(str(exc)) from None
        hands = _read_hands(obj["hands"], contract)
        plays = _read_plays(obj.get("plays", []), contract)
        if contract_cls is None:  # the names as the registry spells them (read in any case)
            game, contract_id = cls_.game, cls_.id
        return cls(game, contract_id, players, dealer, declarer, stock,
                   given_options(contract.options, options), hands, plays, contract)

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
        return out

    def __repr__(self) -> str:
        decl = f", declarer seat {self.declarer}" if self.declarer is not None else ""
        stock = f", stock {self.stock}c" if self.contract.has_stock and self.stock else ""
        n = len(self.plays)
        return (f"<Record {self.game} {self.contract_id}, {self.players} players, dealer seat "
                f"{self.dealer}{decl}{stock}, {n} play{'' if n == 1 else 's'}>")

    def start(self, played: bool = False) -> TrickHand | LayoutHand:
        """The reference engine's position of this hand: at its start, or with ``played``
        after the record's plays (RecordError at an illegal one, naming it as ``replay``
        does).  A :class:`~herzla.tricks.TrickHand` or a :class:`~herzla.layout.LayoutHand`."""
        state = start_state(self)
        if not played:
            return state
        illegal = (_play_tricks(state, self.plays) if isinstance(state, TrickHand)
                   else play_layout(state, self.plays))
        if illegal is not None:
            raise RecordError(f"play {illegal.index} ({illegal.card}) by seat {illegal.seat} "
                              f"is illegal: {illegal.message} (rule {illegal.rule})")
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
    record's keys, see docs/hand-records.md); anything else (a list, of ``[key, value]`` pairs
    or not, text, a number, null) is a :class:`RecordError`, as is every problem inside it.
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
            raise RecordError(f"the key {quote(key)} appears twice in one object")
        out[key] = value
    return out


def load_json_text(text: str) -> Any:
    """Parse JSON text; RecordError names the problem (bad JSON, a key given twice, a number of
    too many digits, nesting too deep, a document over :data:`MAX_DOCUMENT`)."""
    if len(text) > MAX_DOCUMENT:
        raise RecordError(f"the JSON document is larger than {MAX_DOCUMENT // 2**20} MiB; write "
                          f"records one a line (JSON Lines) to replay more")
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        what = exc.msg.removesuffix(" at").removesuffix(":")
        raise RecordError(f"not valid JSON: {what} at line {exc.lineno} column {exc.colno}")\
            from None
    except RecursionError:
        raise RecordError("not valid JSON for a record: lists or objects nested too deeply")\
            from None
    except RecordError:
        raise
    except ValueError as exc:  # integer strings longer than Python converts
        if "digits" in str(exc):
            raise RecordError("not valid JSON for a record: a number has too many digits")\
                from None
        raise RecordError(f"not valid JSON: {exc}") from None


def _card_of(text: Any, pack: Pack, where: str) -> Card:
    if not isinstance(text, str):
        raise RecordError(f"{where}: {quote(text)} is not a card code")
    try:
        return pack.parse(text)
    except CardError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _read_hands(raw: Any, contract: Contract) -> tuple[tuple[Card, ...], ...]:
    n = contract.players
    if not isinstance(raw, list) or len(raw) != n:
        raise RecordError(f"hands must be a list of {n} hands, one per seat")
    pack = contract.pack()
    size = contract.hand_size
    seen: dict[Card, int] = {}
    out = []
    for seat, hand in enumerate(raw):
        if not isinstance(hand, list):
            raise RecordError(f"hands[{seat}] must be a list of card codes, not {quote(hand)}")
        cards = []
        for text in hand:
            card = _card_of(text, pack, f"hands[{seat}]")
            if card in seen:
                other = seen[card]
                where = f"seats {other} and {seat}" if other != seat else f"seat {seat} twice"
                raise RecordError(f"{card} is dealt to {where}")
            seen[card] = seat
            cards.append(card)
        if len(cards) != size:
            raise RecordError(f"seat {seat} holds {len(cards)} cards; {contract.game} with {n} "
                              f"players deals {size}")
        out.append(tuple(cards))
    return tuple(out)


def _read_plays(raw: Any, contract: Contract) -> tuple[Play, ...]:
    if not isinstance(raw, list):
        raise RecordError("plays must be a list of card codes")
    pack = contract.pack()
    layout = isinstance(contract, LayoutContract)
    marks = isinstance(contract, LayoutContract) and contract.declaration.rows.end_marks
    out = []
    for i, text in enumerate(raw):
        if not isinstance(text, str):
            raise RecordError(f"plays[{i}]: {quote(text)} is not a card code")
        if text.strip().lower() == "pass":
            if not layout:
                raise RecordError(f'plays[{i}]: "pass" exists only in the layout deals')
            out.append(Play(None))
            continue
        end = None
        body = text.strip()
        if body[-1:] in ("+", "-"):
            if not marks:
                raise RecordError(f"plays[{i}]: {quote(text)}: an end mark (+ or -) exists only "
                                  f"where a card can fit both ends of a row (the Herzeln "
                                  f"domino, whose rows turn the corner)")
            body, end = body[:-1], body[-1]
        out.append(Play(_card_of(body, pack, f"plays[{i}]"), end))
    return tuple(out)


def signed(v: int) -> str:
    """A score as the reports write it: ``+40``, ``-30``, ``0``."""
    return f"{v:+d}" if v else "0"


def score_report(contract: Contract, result: HandScore) -> str:
    """The text ``herzla score`` prints: the contract, each seat's score, the stock and the
    explanation of one hand's score."""
    unit = "c" if contract.has_stock else ""
    out = [f"{contract.game} {contract.id}, {contract.players} players",
           "Scores: " + ", ".join(f"seat {s} {signed(v)}{unit}"
                                  for s, v in enumerate(result.scores))]
    if contract.has_stock:
        out.append(f"Stock: {result.stock}c")
    out += [f"- {line}" for line in result.explanation]
    return "\n".join(out)


@attrs.frozen(slots=True)
class IllegalPlay:
    """The first illegal play of a record."""

    index: int
    seat: int
    card: str
    rule: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "seat": self.seat, "card": self.card, "rule": self.rule,
                "message": self.message}


@attrs.frozen(slots=True)
class ReplayResult:
    """What ``herzla replay`` answers (docs/hand-records.md)."""

    record: Record
    complete: bool
    illegal: IllegalPlay | None
    tricks: tuple[Trick, ...] | None
    order: tuple[int, ...] | None
    score: HandScore | None
    explanation: tuple[str, ...]

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
            status = f"illegal play at index {self.illegal.index} ({self.illegal.rule})"
        else:
            status = "complete" if self.complete else "not complete"
        scores = ""
        if self.scores is not None:
            unit = "c" if r.contract.has_stock else ""
            scores = ", scores " + " ".join(f"{signed(v)}{unit}" for v in self.scores)
        return f"<ReplayResult {r.game} {r.contract_id}: {status}{scores}>"

    def report(self) -> str:
        """The text ``herzla replay`` prints for one record (also ``str(result)``)."""
        r = self.record
        unit = "c" if r.contract.has_stock else ""
        decl = f", declarer seat {r.declarer}" if r.declarer is not None else ""
        out = [f"{r.game} {r.contract_id}, {r.players} players, dealer seat {r.dealer}, "
               f"forehand seat {r.forehand}{decl}"]
        if self.tricks is not None:
            for i, t in enumerate(self.tricks, 1):
                won = "(in progress)" if t.winner is None else f"-> seat {t.winner}"
                out.append(f"  trick {i}: seat {t.leader} leads {' '.join(map(str, t.cards))} "
                           f"{won}")
        if self.order is not None and self.order:
            out.append(f"  out in order: {' '.join(f'seat {s}' for s in self.order)}")
        status = "complete" if self.complete else "not complete"
        if self.illegal is not None:
            status = f"illegal play at index {self.illegal.index} ({self.illegal.rule})"
        out.append(f"Status: {status}")
        if self.scores is not None:
            out.append("Scores: " + ", ".join(f"seat {s} {signed(v)}{unit}"
                                              for s, v in enumerate(self.scores)))
        if self.stock is not None:
            out.append(f"Stock: {self.stock}c")
        if self.score is not None and self.score.events:
            out.append(f"Events: {', '.join(self.score.events)}")
        out += [f"- {line}" for line in self.explanation]
        return "\n".join(out)

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
            "tricks": [t.to_dict() for t in self.tricks] if self.tricks is not None else None,
            "order": list(self.order) if self.order is not None else None,
            "scores": list(self.scores) if self.scores is not None else None,
            "stock": self.stock,
            "events": list(self.score.events) if self.score else [],
            "explanation": list(self.explanation),
        }

    def _repr_html_(self) -> str | None:
        """A notebook shows the hand, the play and the settlement
        (:func:`herzla.draw.html.hand_html`)."""
        return render("ReplayResult", "html", self)


def new_hand(contract: Contract, hands: Sequence[int], dealer: int) -> TrickHand | LayoutHand:
    """The reference engine's state for a fresh hand of ``contract`` (trick or layout deal)."""
    if isinstance(contract, LayoutContract):
        return LayoutHand(contract, hands, dealer)
    assert isinstance(contract, TrickContract)
    return TrickHand(contract, hands, dealer)


def start_state(record: Record) -> TrickHand | LayoutHand:
    """The engine state at the start of the record's hand."""
    return new_hand(record.contract, [mask_of(h) for h in record.hands], record.dealer)


def replay(record: Record | Mapping[str, Any]) -> ReplayResult:
    """Replay a record to its end or to the first illegal play, and score it if complete.

    ``record`` is a :class:`Record` or a parsed JSON object, read by :func:`read_record`
    (RecordError names what is wrong with it).
    """
    record = read_record(record)
    state = start_state(record)
    if isinstance(state, TrickHand):
        illegal = _play_tricks(state, record.plays)
        tricks: tuple[Trick, ...] | None = tuple(state.tricks)
        if state.trick:  # the trick in progress comes last, without a winner
            tricks = (*state.tricks, Trick(state.leader, tuple(state.trick), None))
        order = None
        lines = []
        done = len(state.tricks)
        if not state.over:
            lines.append(f"The hand is not complete: {done} of {state.tricks_per_hand} tricks "
                         f"played.")
        elif done < state.tricks_per_hand:
            lines.append(f"The hand ended early after trick {done} ({record.contract.title}: "
                         f"{record.contract.describe()}; {record.contract.cite()}).")
    else:
        illegal = play_layout(state, record.plays)
        tricks = None
        order = tuple(state.order)
        lines = [] if state.over else [f"The deal is not complete: {len(state.order)} of "
                                       f"{state.players} seats are out."]
    complete = state.over
    score = None
    if illegal is not None:
        lines.insert(0, f"Play {illegal.index} ({illegal.card}) by seat {illegal.seat} is "
                        f"illegal: {illegal.message} (rule {illegal.rule}); nothing after it is "
                        f"applied.")
    elif complete:
        try:
            score = record.contract.score(state.outcome(), record.stock)
        except NotImplementedError:
            raise RecordError(f"{record.game} {record.contract_id} cannot be scored yet") from None
        lines.extend(score.explanation)
    return ReplayResult(record, complete, illegal, tricks, order, score, tuple(lines))


def _play_tricks(state: TrickHand, plays: Sequence[Play]) -> IllegalPlay | None:
    """Play a record's plays of a trick deal on ``state``, up to the first illegal one, which
    it returns."""
    for i, play in enumerate(plays):
        assert play.card is not None
        bad = state.check(play.card)
        if bad is not None:
            return IllegalPlay(i, state.turn, str(play), bad.rule, bad.message)
        state.play(play.card)
    return None


def play_layout(state: LayoutHand, plays: Sequence[Play]) -> IllegalPlay | None:
    """Play a record's plays of a layout deal on ``state`` (passes may be left out, as the
    format says), up to the first illegal one, which it returns."""
    for i, play in enumerate(plays):
        if play.card is None:
            bad = state.check_pass()
            if bad is not None:
                return IllegalPlay(i, state.turn, "pass", bad.rule, bad.message)
            state.pass_turn()
            continue
        # passes may be left out: a seat that cannot lay and does not hold the card passes
        for _ in range(state.players):
            if state.over or state.hands[state.turn] >> play.card.index & 1 or state.can_lay():
                break
            state.pass_turn()
        bad = state.check(play.card, play.end)
        if bad is not None:
            return IllegalPlay(i, state.turn, str(play), bad.rule, bad.message)
        state.lay(play.card, play.end)
    return None


def sort_hand(cards: Sequence[Card], contract: Contract) -> list[Card]:
    """Cards sorted as the worked cases write them: by suit C S H D, high rank first."""
    st = contract.rank_order().strength
    return sorted(cards, key=lambda c: (c.suit, -st[c.rank]))


def deal_hands(contract: Contract, seed: int) -> list[list[Card]]:
    """The seeded deal: each seat's cards, sorted; the leftovers are left out.

    It is the first hand that ``herzla simulate`` plays with the same seed (the simulator's
    first random stream, :func:`herzla.machinery.streams.seeded_deal`).
    """
    from herzla.machinery.streams import seeded_deal  # numpy's random streams, when dealing

    masks = seeded_deal(contract.pack(), contract.players, contract.hand_size, seed)
    return [sort_hand(cards_of(m), contract) for m in masks]


def deal_record(game: str, contract_id: str, players: int, seed: int | None,
                dealer: int | None = None, declarer: int | None = None, stock: int = 0,
                options: Mapping[str, Any] | None = None) -> Record:
    """A seeded deal as a checked hand record without plays (``seed=None``: a fresh one).

    Beddl and Mord without a declarer are declared by forehand.
    """
    cls_ = contract_class(game, contract_id)  # UnknownContract: a ValueError
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
        contract = cls_(players, options, declarer if cls_.needs_declarer else None)
    except OptionError as exc:
        raise RecordError(str(exc)) from None
    if seed is None:
        import secrets

        seed = secrets.randbits(63)
    try:
        check_seed(seed)
    except LimitError as exc:
        raise RecordError(str(exc)) from None
    obj: dict[str, Any] = {
        "game": game, "contract": contract_id, "players": players, "dealer": dealer,
        "declarer": contract.declarer, "stock": stock,
        "options": given_options(contract.options, options),
        "hands": [[str(c) for c in hand] for hand in deal_hands(contract, seed)],
        "plays": [],
    }
    return read_record(obj)
