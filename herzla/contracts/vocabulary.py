"""The rule vocabulary: what the contracts of this family are made of, declared once.

A contract declares its rules in these few words, and every part of herzla reads the declaration:
the reference engines (:mod:`herzla.kinds.tricks`, :mod:`herzla.kinds.layout`), the numpy batch
engine, the heuristic players, the exact solver and ``herzla rules``.

Trick deals (:class:`TrickRules`):

- :class:`CardValue`: what capturing certain cards costs or earns (``-20`` per Queen);
- ``per_trick`` and ``last_trick``: points per trick won, and for winning the last trick;
- :class:`LeadBan`: cards that may not be led (and perhaps not discarded) to the first tricks,
  with the rule id an illegal play names; the engines apply the escape: a ban never leaves a
  player without a legal card;
- :class:`EarlyEnd`: the hand ends the moment the declarer wins a trick (Beddl) or a defender
  wins one (Mord); a hand that ends early is lost by the declarer.

Layout deals (:class:`LayoutRules`): the :class:`Rows` (sequence of ranks, wrap, one row or one
per suit, the opening rank and the card that must open) and the points of the places by going out.

Scoring works on :class:`Counts`, arrays with one column per hand, so one scorer serves one hand
(a column) and the batch engine (many columns) alike; it returns a :class:`Settlement`.

>>> from herzla.cards import HEARTS_MASK
>>> v = CardValue(HEARTS_MASK, -1, "heart")
>>> v.points, v.name
(-1, 'heart')
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeAlias

import attrs

from herzla.cards import Card, Rank, cards_of
from herzla.contracts.words import points as signed
from herzla.contracts.words import tr
from herzla.i18n import N_, _, ngettext

__all__ = [
    "CardValue",
    "CountSource",
    "Counts",
    "EarlyEnd",
    "ILLEGAL_PLAYS",
    "IllegalRule",
    "LayoutRules",
    "LeadBan",
    "MissingTally",
    "Rows",
    "Settlement",
    "Stock",
    "TallyError",
    "TrickRules",
    "early_end_reached",
    "stock_per_hand",
    "trick_rules",
]

if TYPE_CHECKING:  # numpy is imported where arrays are made: `import herzla` goes without it
    import numpy as np
    import numpy.typing as npt

    Ints: TypeAlias = npt.NDArray[np.int64]
    Bools: TypeAlias = npt.NDArray[np.bool_]
    #: the stock before the hands a scorer settles (``settle(counts, stock)``): one number for
    #: them all, or one per hand (C,), as the evenings of the simulator carry it (each its own)
    Stock: TypeAlias = int | Ints
else:
    Stock = "int | Ints"  # read by the type checker only


def stock_per_hand(stock: Stock, hands: int) -> Ints:
    """The stock before each of ``hands`` hands, as a new array (C,).

    >>> import numpy as np
    >>> stock_per_hand(80, 3).tolist(), stock_per_hand(np.array([0, 10]), 2).tolist()
    ([80, 80, 80], [0, 10])
    """
    import numpy as np

    out: Ints = np.array(np.broadcast_to(np.asarray(stock, dtype=np.int64), (hands,)))
    return out


class TallyError(ValueError):
    """Tallies that do not add up, or that lack what the contract needs to score."""


class MissingTally(TallyError):
    """A tally the contract needs to score was not given; ``needs`` names the tallies any one of
    which would do, as :func:`herzla.contracts.tallies.score_tallies` calls them (``hearts``,
    ``captured``, ``tricks``, ``made``, ``last_winner``, ``order``)."""

    def __init__(self, message: str, needs: tuple[str, ...]) -> None:
        super().__init__(message)
        self.needs = needs


@attrs.frozen(slots=True)
class CardValue:
    """Capturing any card of ``cards`` (a bit set, card index encoding) scores ``points``.

    ``name`` says how the rule text names one such card ("heart", "Queen", "King of hearts").
    """

    cards: int
    points: int
    name: str = "card"


@attrs.frozen(slots=True)
class IllegalRule:
    """An illegal-play rule: the short id a refused play names (``follow-suit``), what it
    forbids, and the ids of the rule-book entries it rests on.  ``herzla rules ID`` prints it."""

    id: str
    title: str
    meaning: str
    entries: tuple[str, ...]


HAND_OVER = IllegalRule(
    "hand-over", N_("The hand is over"),
    N_("A card played (or a pass) after the hand ended: after the last trick, after Beddl or Mord "
    "ended early, or once one seat is left in a layout deal."),
    ("herzla/early-end", "herzeln/domino-places"))
NOT_IN_HAND = IllegalRule(
    "not-in-hand", N_("Only cards in hand"),
    N_("The seat to play does not hold the card it played."), ("common/conservation",))
FOLLOW_SUIT = IllegalRule(
    "follow-suit", N_("Follow suit"),
    N_("A card of another suit while the seat holds a card of the suit led (Farbzwang)."),
    ("common/trick-play",))
HEART_LEAD_BAN = IllegalRule(
    "heart-lead-ban", N_("No heart leads to the first tricks"),
    N_("Herzla: a heart led to trick 1 or 2 (as the table's option says) while holding other "
    "cards."), ("herzla/heart-lead-ban", "herzla-kids/play", "common/escape"))
HEART_FREE_FIRST_TRICK = IllegalRule(
    "heart-free-first-trick", N_("A heart-free first trick"),
    N_("Herzerln rounds 2 and 5: a heart led to or discarded on trick 1 while holding other "
       "cards."),
    ("herzerln/heart-free", "common/escape"))
NOT_ADJACENT = IllegalRule(
    "not-adjacent", N_("A laid card must fit its row"),
    N_("A layout card that fits no end of its row (or not the end its mark names)."),
    ("herzeln/domino-row", "herzeln/domino-ends", "herzerln/auflegen-rows"))
MUST_OPEN_WITH_JACK = IllegalRule(
    "must-open-with-jack", N_("A Jack opens each row"),
    N_("A layout card laid before a Jack opens its row (also a card of a suit whose row is not "
       "open yet, in Auflegen and the same-suit domino)."),
    ("herzeln/domino-row", "herzeln/domino-options", "herzerln/auflegen-rows"))
MUST_OPEN_WITH_HEART_JACK = IllegalRule(
    "must-open-with-heart-jack", N_("Auflegen opens with HJ"),
    N_("Auflegen: the first card laid must be the Jack of hearts."), ("herzerln/auflegen-rows",))
MUST_PLAY_IF_ABLE = IllegalRule(
    "must-play-if-able", N_("Lay a card if you can"),
    N_("A pass by a seat that could lay a card."),
    ("herzeln/domino-must-lay", "herzerln/auflegen-rows"))

#: every illegal-play rule the reference engines name, by id (a contract's :class:`LeadBan` may
#: name one of its own; the rule book makes an entry of that from the contract)
ILLEGAL_PLAYS: dict[str, IllegalRule] = {r.id: r for r in (
    HAND_OVER, NOT_IN_HAND, FOLLOW_SUIT, HEART_LEAD_BAN, HEART_FREE_FIRST_TRICK, NOT_ADJACENT,
    MUST_OPEN_WITH_JACK, MUST_OPEN_WITH_HEART_JACK, MUST_PLAY_IF_ABLE)}


@attrs.frozen(slots=True)
class LeadBan:
    """The ``cards`` may not be led to the first ``tricks`` tricks; with ``discards`` they may not
    be discarded on them either (a heart-free trick).  ``rule`` is the id an illegal play names.
    """

    cards: int
    tricks: int
    discards: bool = False
    rule: str = HEART_LEAD_BAN.id

    def text(self, cards: str) -> str:
        """The ban in words, the banned ``cards`` named (``no heart led to trick 1``)."""
        if self.discards:
            said = ngettext("no {cards} led to or discarded on trick 1",
                            "no {cards} led to or discarded on the first {n} tricks", self.tricks)
        else:
            said = ngettext("no {cards} led to trick 1", "no {cards} led to the first {n} tricks",
                            self.tricks)
        return said.format(cards=cards, n=self.tricks)

    def applies(self, trick_index: int, leading: bool) -> bool:
        """Whether the ban holds for a card led (``leading``) or discarded to trick
        ``trick_index`` (from 0)."""
        return trick_index < self.tricks and (leading or self.discards)


class EarlyEnd(enum.Enum):
    """When a declarer's contract ends before all cards are played (and is lost)."""

    #: the declarer wins a trick (Beddl: the declarer must win none)
    DECLARER_WINS = "declarer-wins-a-trick"
    #: a defender wins a trick (Mord: the declarer must win every one)
    DEFENDER_WINS = "defender-wins-a-trick"

    @property
    def goal(self) -> str:
        """What the declarer must do, in words."""
        return "win no trick" if self is EarlyEnd.DECLARER_WINS else "win every trick"

    def rule_text(self) -> str:
        """What the declarer must do and when the hand ends, in the current language."""
        if self is EarlyEnd.DECLARER_WINS:
            return _("the declarer must win no trick; the hand ends the moment the declarer "
                     "wins a trick")
        return _("the declarer must win every trick; the hand ends the moment a defender wins "
                 "one")

    def words(self) -> str:
        """:attr:`goal` in the current language."""
        return _("win no trick") if self is EarlyEnd.DECLARER_WINS else _("win every trick")


def early_end_reached(end: EarlyEnd, winners: npt.NDArray[np.integer], declarer: int | Ints
                      ) -> Bools:
    """Per trick (rows of ``winners``, one column per hand): whether the early end has come by
    the end of that trick.  ``winners`` holds the seat that won each trick."""
    import numpy as np

    hit = winners == declarer
    if end is EarlyEnd.DEFENDER_WINS:
        hit = ~hit
    out: Bools = np.logical_or.accumulate(hit, axis=0)
    return out


@attrs.frozen(slots=True)
class TrickRules:
    """What a trick deal is made of (see the module notes).

    ``counted`` lists further card classes the scorer needs counted per seat (the Herzla normal
    game counts hearts although no heart has a fixed value); ``danger`` names the cards the
    heuristic player avoids capturing, most dangerous first, or None to derive them from the
    card values.
    """

    values: tuple[CardValue, ...] = ()
    per_trick: int = 0
    last_trick: int = 0
    lead_bans: tuple[LeadBan, ...] = ()
    early_end: EarlyEnd | None = None
    counted: tuple[int, ...] = ()
    danger: tuple[int, ...] | None = None

    def classes(self) -> tuple[int, ...]:
        """Every card class the scorer counts, each once, values first."""
        out: list[int] = []
        for m in (*(v.cards for v in self.values), *self.counted):
            if m not in out:
                out.append(m)
        return tuple(out)

    def tallies(self, hearts: int) -> tuple[str, ...]:
        """The tallies the scorer reads, the preferred of each alternative: the hearts or the
        cards each seat captured (``hearts``: the pack's hearts), the tricks each won, the last
        trick's winner, whether the declarer made the contract (the tricks tell it too)."""
        out = ["hearts" if m == hearts else "captured" for m in self.classes()]
        out += ["tricks"] * bool(self.per_trick) + ["last_winner"] * bool(self.last_trick)
        out += ["made"] * (self.early_end is not None and not self.per_trick)
        return tuple(dict.fromkeys(out))

    def banned(self, trick_index: int, leading: bool) -> tuple[int, str] | None:
        """The cards banned from being led (or discarded) to trick ``trick_index``, and the rule
        of the first ban that applies; None when none applies."""
        cards = 0
        rule = ""
        for ban in self.lead_bans:
            if ban.applies(trick_index, leading):
                cards |= ban.cards
                rule = rule or ban.rule
        return (cards, rule) if cards else None

    def ban_tricks(self) -> int:
        """How many first tricks some ban applies to."""
        return max((b.tricks for b in self.lead_bans), default=0)


@attrs.frozen(slots=True)
class Rows:
    """The rows of a layout deal.

    A row is opened by a card of ``opening`` rank and grows by the next rank up or down
    ``sequence`` (low to high).  With ``wrap`` the sequence is a cycle (above the highest rank
    comes the lowest).  ``per_suit``: one row per suit, whose cards follow suit; else one row
    regardless of suit.  ``first``: the card that must open the deal (its holder moves first), or
    None when forehand moves first and any opening card opens.
    """

    sequence: tuple[Rank, ...]
    wrap: bool = False
    per_suit: bool = True
    opening: Rank = Rank.JACK
    first: Card | None = None

    @property
    def end_marks(self) -> bool:
        """Whether a hand record may say which end a card goes to (``D7-``): only where a card
        can fit both ends of a row, which takes rows that turn the corner."""
        return self.wrap

    def text(self, places: Sequence[int]) -> str:
        """The rows and the ``places`` by going out, in words, in the current language."""
        seq = " ".join(r.code for r in self.sequence)
        kind = _("rows per suit") if self.per_suit else _("one row regardless of suit")
        opener = (_("{card} opens").format(card=self.first) if self.first is not None
                  else _("any {rank} opens").format(rank=tr(self.opening.french)))
        corner = _(", turning the corner") if self.wrap else ""
        said = ", ".join(signed(p) if p else "0" for p in places)
        return _("lay cards in {kind} ({sequence}{corner}); {opener}; places {places}").format(
            kind=kind, sequence=seq, corner=corner, opener=opener, places=said)

    def row_of(self, card: Card) -> int:
        """The row a card belongs to: its suit, or 0 for the one row."""
        return int(card.suit) if self.per_suit else 0


def trick_rules(contract: _Declared) -> TrickRules:
    """The declaration of a trick deal's contract, as what reads a trick deal's rules (the
    batch engine's trick kernel, the heuristic's trick profile, the net's reading) holds it."""
    d = contract.declaration
    assert isinstance(d, TrickRules), f"{contract} is no trick deal"
    return d


class _Declared(Protocol):
    @property
    def declaration(self) -> TrickRules | LayoutRules: ...


@attrs.frozen(slots=True)
class LayoutRules:
    """What a layout deal is made of: its rows and the points of first, second, ... place."""

    rows: Rows
    places: tuple[int, ...]
    #: no card of a layout deal is banned from a lead
    lead_bans: ClassVar[tuple[LeadBan, ...]] = ()

    def tallies(self, hearts: int) -> tuple[str, ...]:
        """The tallies the scorer reads: the order in which the seats went out."""
        return ("order",)


class CountSource(Protocol):
    """Where the batch engine's counts come from, computed only when a scorer reads them."""

    def tricks(self) -> Ints: ...
    def cards(self, cards: int) -> Ints: ...
    def last(self) -> Ints: ...
    def ended(self) -> Bools: ...


class Counts:
    """What a scorer reads about ``hands`` hands: arrays with one column per hand.

    - ``tricks`` (players, hands): tricks each seat won (up to an early end);
    - ``cards``: per card class (a bit set), (players, hands): how many of its cards each seat
      captured;
    - ``last`` (hands,): the seat that won the last trick played;
    - ``ended`` (hands,): whether the contract's early end came (the declarer's contract is
      lost);
    - ``places`` (players, hands): layout deals: the place (0 first) in which each seat went out.

    Pieces a tally does not give are None; the accessors raise :class:`TallyError` naming what
    is missing.  The batch engine gives a ``source`` instead, which computes a piece the first
    time a scorer reads it.
    """

    __slots__ = ("players", "hands", "_tricks", "_cards", "_last", "_ended", "_places",
                 "_source", "_wants")

    def __init__(self, players: int, hands: int, *, tricks: Ints | None = None,
                 cards: Mapping[int, Ints] | None = None, last: Ints | None = None,
                 ended: Bools | None = None, places: Ints | None = None,
                 source: CountSource | None = None,
                 wants: Mapping[int, tuple[str, tuple[str, ...]]] | None = None) -> None:
        self.players = players
        self.hands = hands
        self._tricks = tricks
        self._cards: dict[int, Ints] = dict(cards or {})
        self._last = last
        self._ended = ended
        self._places = places
        self._source = source
        self._wants = dict(wants or {})

    def known_tricks(self) -> Ints | None:
        """The tricks won by each seat, or None when the tally does not give them."""
        if self._tricks is None and self._source is not None:
            self._tricks = self._source.tricks()
        return self._tricks

    def trick_counts(self) -> Ints:
        got = self.known_tricks()
        if got is None:
            raise MissingTally(_("this contract needs the tricks won by each seat"), ("tricks",))
        return got

    def card_counts(self, cards: int) -> Ints:
        got = self._cards.get(cards)
        if got is None and self._source is not None:
            got = self._cards[cards] = self._source.cards(cards)
        if got is None:
            words, needs = self._wants.get(cards, (_("the cards each seat captured"),
                                                   ("captured",)))
            raise MissingTally(_('this contract needs {words}').format(
                                   words=words), needs)
        return got

    def last_winner(self) -> Ints:
        if self._last is None and self._source is not None:
            self._last = self._source.last()
        if self._last is None:
            raise MissingTally(_("this contract needs the winner of the last trick"),
                               ("last_winner",))
        return self._last

    def early_end(self) -> Bools:
        if self._ended is None and self._source is not None:
            self._ended = self._source.ended()
        if self._ended is None:
            raise MissingTally(_("this contract needs the tricks won by each seat, or whether the "
                               "declarer made the contract"), ("tricks", "made"))
        return self._ended

    def place_of(self) -> Ints:
        if self._places is None:
            raise MissingTally(_("this contract needs the order in which the seats went out"),
                               ("order",))
        return self._places

    @classmethod
    def of_one(cls, players: int, *, tricks: Sequence[int] | None = None,
               cards: Mapping[int, Sequence[int]] | None = None, last: int | None = None,
               ended: bool | None = None, order: Sequence[int] | None = None,
               wants: Mapping[int, tuple[str, tuple[str, ...]]] | None = None) -> Counts:
        """The counts of one hand (one column); TallyError for a count no hand can have.
        ``wants`` says, per card class, how a missing count is named (words, tally names)."""
        import numpy as np

        def col(values: Sequence[int]) -> Ints:
            if len(values) != players or any(not -1000 <= v <= 1000 for v in values):
                raise TallyError(_('give a count from 0 to the cards in play for each of the '
                                     '{players} seats').format(
                                     players=players))
            return np.asarray(values, dtype=np.int64).reshape(players, 1)

        places = None
        if order is not None:
            places = np.zeros((players, 1), dtype=np.int64)
            for place, seat in enumerate(order):
                places[seat, 0] = place
        return cls(
            players, 1,
            tricks=None if tricks is None else col(tricks),
            cards={m: col(v) for m, v in (cards or {}).items()},
            last=None if last is None else col([last] * players)[0],
            ended=None if ended is None else np.array([ended], dtype=np.bool_),
            places=places,
            wants=wants,
        )


@attrs.frozen(slots=True, eq=False)
class Settlement:
    """The scores of ``C`` hands: (players, C), the stock after each (C,) for a game with a
    stock, and per event name which hands it happened in (C,)."""

    scores: Ints
    stock: Ints | None = None
    events: Mapping[str, Bools] = attrs.field(factory=dict)

    def column(self, i: int = 0) -> tuple[tuple[int, ...], int | None, tuple[str, ...]]:
        """Hand ``i``: its scores, its stock after (or None) and the names of its events."""
        scores = tuple(int(v) for v in self.scores[:, i])
        stock = None if self.stock is None else int(self.stock[i])
        events = tuple(name for name, hit in self.events.items() if bool(hit[i]))
        return scores, stock, events


def value_text(values: Sequence[CardValue], pack_mask: int) -> str:
    """The card values in words: ``"A -11, T -10, 9/8/7 -1"`` for one class of cards by rank, or
    ``"-20 per Queen"``."""
    parts = []
    for v in values:
        cards = cards_of(v.cards & pack_mask)
        parts.append((v, cards))
    if len(parts) > 1 and all(len(cs) == 1 or len({c.rank for c in cs}) == len(cs)
                              for _, cs in parts):
        by_points: dict[int, list[str]] = {}
        for v, cs in sorted(parts, key=lambda p: p[0].points):
            for c in sorted(cs, key=lambda c: -c.rank):
                by_points.setdefault(v.points, []).append(c.rank.code)
        return ", ".join(f"{'/'.join(ranks)} {signed(points)}"
                         for points, ranks in by_points.items())
    return "; ".join(_("{points} per {name}").format(points=signed(v.points), name=tr(v.name))
                     for v, _cards in parts)
