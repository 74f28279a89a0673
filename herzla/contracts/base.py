"""The contract model: the base classes every deal type subclasses, hooks documented once.

A contract class is a deal type (``Beddl``); a contract is an instance of one, the rules of one
table: the number of players, the options (checked, defaults filled in) and the declarer.  A
contract id (``"beddl"``) names a class within its game.

Metadata (class attributes):

``game``, ``id``, ``title``
    The game id (``herzla``), the contract id within it (``beddl``) and a display title.
``kind``
    ``"tricks"``, ``"layout"`` or a plug-in's: the kind of deal (:mod:`herzla.kinds`).
``player_counts``
    The numbers of seats the contract can be played with, the usual one first.
``options``
    The game's rule options (:class:`herzla.options.Option`), with typed defaults.  Every contract
    of one game lists the same options, so a record's options are checked against the game.
``needs_declarer``, ``has_stock``
    Whether a record names a declarer, and whether the contract's scores move a stock (cents).
``has_passes``, ``tricks_per_hand``, ``row_rules``, ``end_marks``, ``card_classes``,
``may_end_early``
    What the deal is made of, for the code that reads, draws and plays hands without asking which
    engine plays them: whether a seat that cannot move passes, how many tricks a hand has (0 in a
    layout deal), the rows it lays its cards in (None in a trick deal), whether a play may name
    the end of its row, the card classes the scorer counts, whether the hand may end early.
``summary``, ``source``
    Optional: a one-line statement of the contract (by default it is written from the
    declaration), and where a plug-in's rules are written (cited in explanations).
``tags``, ``topics``, ``example``
    For the contract's entry in the rule book (``herzla rules``): its source tags, declared by
    each contract class for its own rule and never inherited (a class that declares none is
    tagged ``plug-in``: :meth:`Contract.source_tags`), further words it answers to, and worked
    numbers.

**The declaration.**  A contract says what it is made of in the vocabulary of
:mod:`herzla.contracts.vocabulary`; ``declare()`` returns it for the contract's players and
options, and ``contract.declaration`` holds it.  Trick deals set class attributes (``values``,
``per_trick``, ``last_trick``, ``lead_bans``, ``early_end``, ``counted``, ``danger``); layout deals
``rows`` and ``places``.  A contract whose declaration depends on its options or players
overrides ``declare()``, usually with ``attrs.evolve(super().declare(), ...)``.

Hooks (each derives from the declaration by default; override only what the vocabulary cannot
say):

``pack()``, ``rank_order()``
    The cards in play for this number of players, and the order that wins tricks.
``check_options()``
    Refuse option combinations that cannot be played (raise OptionError).
``settle(counts, stock)``
    The scores of hands from their :class:`~herzla.contracts.vocabulary.Counts`, as arrays with
    one column per hand: the one scorer of the contract, which the reference engine applies to
    one hand and the batch engine to many.  Must be written with numpy array operations.
    ``stock`` (:data:`~herzla.contracts.vocabulary.Stock`) is the stock before the hands: one
    number for them all, or one per hand (an array), as the simulator's evenings carry it
    (``simulate --session``); a contract without a stock ignores it.
``explain(outcome, counts, settlement, stock)``
    The sentences that explain one hand's score, each naming the rule it rests on.
``banned(state, seat, leading)``, ``ends_early(state)`` (trick deals)
    The cards a seat may not lead or discard now (with the rule id), and whether the hand ends
    after the trick just played.  Overriding these with Python of your own is allowed: the
    reference engine plays such a contract, and the batch engine declines it, naming the hook.

``score(outcome, stock)`` puts them together for one hand: counts, settlement and explanation.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from herzla.cards import (
    HEARTS_MASK,
    NATURAL,
    PACK_32,
    SUIT_MASKS,
    Pack,
    RankOrder,
    Suit,
    cards_of,
)
from herzla.contracts.bounds import DeclarationError, amount_problem, declaration_problem, one_line
from herzla.contracts.vocabulary import (
    CardValue,
    Counts,
    EarlyEnd,
    LayoutRules,
    LeadBan,
    MissingTally,
    Rows,
    Settlement,
    Stock,
    TallyError,
    TrickRules,
    value_text,
)
from herzla.contracts.words import and_list, card_list, counted, ordinal_word, points, seat_list, tr
from herzla.hand import HandScore, Outcome, new_hand
from herzla.i18n import _, ngettext
from herzla.limits import whole_number
from herzla.options import Option, OptionError, resolve_options
from herzla.quote import number

if TYPE_CHECKING:
    from herzla.hand import Hand, TrickPlay

__all__ = ["Contract", "DealKind", "HandScore", "LayoutContract", "MissingTally", "Outcome",
           "TallyError", "TrickContract", "and_list", "card_list", "seat_list"]


class DealKind(enum.StrEnum):
    """How a deal is played: in tricks, or by laying cards out in rows.  Its value is the word
    the JSON answers give."""

    TRICKS = "tricks"
    LAYOUT = "layout"


class Contract:
    """Base of every contract.  Instances are cheap, immutable once built, and equal by value."""

    game: ClassVar[str] = ""
    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    kind: ClassVar[str] = DealKind.TRICKS
    player_counts: ClassVar[tuple[int, ...]] = (4,)
    options: ClassVar[tuple[Option, ...]] = ()
    needs_declarer: ClassVar[bool] = False
    has_stock: ClassVar[bool] = False
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""
    tags: ClassVar[tuple[str, ...]] = ("plug-in",)
    topics: ClassVar[str] = ""
    example: ClassVar[str] = ""
    #: other names people read it by, in German (``Bettel``, ``Normalspiel``)
    names: ClassVar[tuple[str, ...]] = ()

    __slots__ = ("players", "opts", "declarer", "declaration")

    def __init__(
        self,
        players: int | None = None,
        options: Mapping[str, Any] | None = None,
        declarer: int | None = None,
    ) -> None:
        if players is None:
            players = self.player_counts[0]
        for what, value in (("players", players), ("declarer", declarer)):
            if value is not None:
                whole_number(value, what, OptionError)
        problem = self.player_count_problem(players)
        if problem:
            raise OptionError(problem)
        self.players: int = players
        self.opts: dict[str, bool | int | str] = resolve_options(
            self.options, options, _(" for {game}").format(game=self.game)
        )
        self.check_options()
        if self.needs_declarer != (declarer is not None):
            raise OptionError((_("{game} {contract} needs a declarer") if self.needs_declarer else
                               _("{game} {contract} has no declarer")).format(
                game=self.game, contract=self.id))
        if declarer is not None and not 0 <= declarer < players:
            raise OptionError(_("declarer {declarer} is not a seat of {players} players")
                              .format(declarer=declarer, players=players))
        self.declarer: int | None = declarer
        self.declaration: TrickRules | LayoutRules = self._declared()

    def _declared(self) -> TrickRules | LayoutRules:
        """The declaration, checked against the limits (:mod:`herzla.contracts.checks`):
        DeclarationError (an OptionError) names what lies beyond them, or what a plug-in's
        ``declare()`` raised."""
        own = type(self).__module__.startswith("herzla.")
        try:
            declared = self.declare()
            problem = declaration_problem(declared, self.pack().mask, self.players)
            if problem is None:
                self.declaration = declared
                problem = amount_problem(self)
        except OptionError:
            raise
        except Exception as exc:
            if own:
                raise
            text = one_line(exc)
            problem = f"{type(exc).__name__}{': ' + text if text else ''}"
            raise DeclarationError(f"{self.game} {self.id}: {problem}", problem) from exc
        if problem is not None:
            given = [f"{k}={v}" for k, v in self.opts.items()
                     if v != next(o.default for o in self.options if o.name == k)]
            with_ = _(" with {given}").format(given=", ".join(given)) if given else ""
            raise DeclarationError(f"{self.game} {self.id}{with_}: {problem}", problem)
        return declared

    def __repr__(self) -> str:
        return f"{type(self).__name__}(players={self.players}, declarer={self.declarer})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and isinstance(other, Contract)
            and (self.players, self.opts, self.declarer)
            == (other.players, other.opts, other.declarer)
        )

    def __hash__(self) -> int:
        return hash((type(self), self.players, tuple(sorted(self.opts.items())), self.declarer))

    @classmethod
    def player_count_problem(cls, players: int) -> str | None:
        """None if the contract is played by ``players`` seats, else a sentence saying so."""
        if players in cls.player_counts:
            return None
        counts = [str(c) for c in sorted(cls.player_counts)]
        said = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " or " + counts[-1]
        return f"{cls.game} {cls.id} is played by {said} players, not {number(players)}"

    @classmethod
    def source_tags(cls) -> tuple[str, ...]:
        """The source tags of this class's own rule: its own ``tags``, never a base class's (a
        new contract written on a game's contract does not inherit that game's source)."""
        own: tuple[str, ...] | None = vars(cls).get("tags")
        return own if own else ("plug-in",)

    @classmethod
    def key(cls) -> str:
        """``game/id``: also the id of the contract's entry in the rule book."""
        return f"{cls.game}/{cls.id}"

    @classmethod
    def default(cls, players: int | None = None) -> Contract:
        """A contract of this class with the default options (seat 0 declaring, if needed)."""
        return cls(players, None, 0 if cls.needs_declarer else None)

    @classmethod
    def own_hooks(cls) -> tuple[str, ...]:
        """The hooks of play and scoring this class writes in Python of its own instead of
        declaring them; the engines that read only declarations (the batch engine, the solver)
        decline such a contract, naming the hook."""
        base: type[Contract] = LayoutContract if issubclass(cls, LayoutContract) else \
            TrickContract
        names = ("counts", "score") if base is LayoutContract else \
            ("banned", "ends_early", "counts", "score")
        return tuple(n for n in names if getattr(cls, n) is not getattr(base, n))

    def new_hand(self, hands: Sequence[Any], dealer: int | None = None, stock: int = 0
                 ) -> Hand:
        """A fresh hand of this contract on the engine that plays its kind of deal
        (the engine its kind registers: :mod:`herzla.kinds`): ``hands`` are
        each seat's cards (bit sets, card lists or text), ``dealer`` the dealer's seat (default
        the last), ``stock`` the stock before the hand (games with a stock)."""
        return new_hand(self, hands, dealer, stock)

    def cite(self) -> str:
        """How explanations name the rule behind the contract's amounts."""
        return self.source or _("rule {id}").format(id=self.key())

    # -- hooks shared by both kinds ---------------------------------------------------------
    def check_options(self) -> None:
        """Refuse option combinations that cannot be played (raise OptionError)."""

    def pack(self) -> Pack:
        """The cards in play for ``self.players``."""
        return PACK_32

    def rank_order(self) -> RankOrder:
        return NATURAL

    @property
    def hand_size(self) -> int:
        return len(self.pack()) // self.players

    @property
    def leftovers(self) -> int:
        """How many cards of the pack lie aside, dealt to nobody."""
        return len(self.pack()) % self.players

    # -- what the deal is made of (the module notes), a trick deal's by default ----------------
    has_passes: ClassVar[bool] = False

    @property
    def tricks_per_hand(self) -> int:
        return self.hand_size

    @property
    def row_rules(self) -> Rows | None:
        return None

    @property
    def end_marks(self) -> bool:
        return False

    @property
    def card_classes(self) -> tuple[int, ...]:
        return ()

    @property
    def may_end_early(self) -> bool:
        return False

    @property
    def tallies(self) -> tuple[str, ...]:
        """The tallies its scorer reads, the preferred of each alternative (a score pad asks
        them): ``hearts``, ``captured``, ``tricks``, ``last_winner``, ``made``, ``order``."""
        return self.declaration.tallies(self.pack().mask & HEARTS_MASK)

    def declare(self) -> TrickRules | LayoutRules:
        """What the contract is made of, for its players and options."""
        raise NotImplementedError

    def describe(self) -> str:
        """The contract in one sentence: ``summary``, or words from the declaration."""
        return tr(self.summary)

    def counts(self, outcome: Outcome) -> Counts:
        """The counts the scorer reads, for one hand, checked against each other."""
        raise NotImplementedError

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        """The scores of hands (one column each) from their counts."""
        raise NotImplementedError

    def explain(self, outcome: Outcome, counts: Counts, settled: Settlement,
                stock: int = 0) -> tuple[str, ...]:
        """Sentences explaining the score of one hand (column 0 of ``settled``)."""
        return ()

    def score(self, outcome: Outcome, stock: int = 0) -> HandScore:
        """Score a finished hand.  ``stock`` is the stock before the hand (games with a stock)."""
        counts = self.counts(outcome)
        settled = self.settle(counts, stock)
        scores, new_stock, events = settled.column(0)
        lines = self.explain(outcome, counts, settled, stock)
        return HandScore(scores, new_stock if self.has_stock else None, events, lines)

    def score_total(self) -> int | None:
        """What the scores of a hand always add up to over the seats (and stock), if fixed."""
        return None

    def amount_bound(self) -> int:
        """The most the amounts of one hand can add up to over the seats, in magnitude (the
        stock's change included, the stock carried in not): from the declaration; a contract
        that writes its own ``settle()`` says its own.  It must stay within
        :data:`herzla.limits.MAX_HAND_AMOUNT`."""
        raise NotImplementedError


class TrickContract(Contract):
    """A deal played in tricks.  The class attributes below are its declaration."""

    kind: ClassVar[str] = DealKind.TRICKS
    #: what capturing certain cards costs or earns
    values: ClassVar[tuple[CardValue, ...]] = ()
    #: points per trick won, and for winning the last trick
    per_trick: ClassVar[int] = 0
    last_trick: ClassVar[int] = 0
    #: cards that may not be led (or discarded) to the first tricks
    lead_bans: ClassVar[tuple[LeadBan, ...]] = ()
    #: when a declarer's contract ends early (and is lost)
    early_end: ClassVar[EarlyEnd | None] = None
    #: further card classes the scorer counts (CardValue with 0 points)
    counted: ClassVar[tuple[CardValue, ...]] = ()
    #: the cards the heuristic player avoids, most dangerous first (None: from the values)
    danger: ClassVar[tuple[int, ...] | None] = None

    declaration: TrickRules

    @property
    def card_classes(self) -> tuple[int, ...]:
        return self.declaration.classes()

    @property
    def may_end_early(self) -> bool:
        return self.declaration.early_end is not None

    def declare(self) -> TrickRules:
        pack = self.pack().mask
        return TrickRules(
            values=tuple(attrs.evolve(v, cards=v.cards & pack) for v in self.values),
            per_trick=self.per_trick,
            last_trick=self.last_trick,
            lead_bans=tuple(attrs.evolve(b, cards=b.cards & pack) for b in self.lead_bans),
            early_end=self.early_end,
            counted=tuple(c.cards & pack for c in self.counted),
            danger=self.danger,
        )

    def _class_name(self, cards: int) -> str:
        for v in (*self.declaration.values, *self.counted):
            if v.cards & self.pack().mask == cards:
                return v.name
        return "card"

    def describe(self) -> str:
        if self.summary:
            return tr(self.summary)
        d = self.declaration
        parts = []
        values = [v for v in d.values if v.points]
        if values:
            names = {v.name for v in values}
            text = value_text(values, self.pack().mask)
            parts.append(_("each {name} captured: {values}").format(
                name=tr(values[0].name), values=text) if len(names) == 1 < len(values) else text)
        if d.per_trick:
            parts.append(_("{points} per trick won").format(points=points(d.per_trick)))
        if d.last_trick:
            parts.append(_("{points} to the winner of the last trick").format(
                points=points(d.last_trick)))
        if d.early_end is not None:
            parts.append(d.early_end.rule_text())
        pack = self.pack().mask
        for ban in d.lead_bans:
            if ban.tricks:
                suits = [s for s in Suit if ban.cards == SUIT_MASKS[s] & pack]
                parts.append(ban.text(tr(suits[0].french.lower()[:-1]) if suits
                                      else card_list(ban.cards)))
        return "; ".join(parts) or tr(self.title)

    # -- play -------------------------------------------------------------------------------
    def banned(self, state: TrickPlay, seat: int, leading: bool) -> tuple[int, str] | None:
        """Cards (bit set) ``seat`` may not lead or discard now, and the rule id; None for none."""
        return self.declaration.banned(len(state.tricks), leading)

    def ends_early(self, state: TrickPlay) -> bool:
        """After each trick: True ends the hand before all cards are played."""
        end = self.declaration.early_end
        if end is None or self.declarer is None:
            return False
        mine = state.won[self.declarer]
        if end is EarlyEnd.DECLARER_WINS:
            return mine > 0
        return sum(state.won) != mine

    # -- scoring ----------------------------------------------------------------------------
    def counts(self, outcome: Outcome) -> Counts:
        n = self.players
        d = self.declaration
        pack = self.pack()
        tricks = outcome.tricks
        cards: dict[int, list[int]] = {}
        hearts = pack.mask & HEARTS_MASK
        wants: dict[int, tuple[str, tuple[str, ...]]] = {}
        others = 0
        for m in d.classes():
            others |= 0 if m == hearts else m & pack.mask
        which = cards_of(others)
        shown = _(" (only {cards} count)").format(cards=" ".join(map(str, which))) \
            if len(which) <= 8 else ""
        for m in d.classes():
            wants[m] = ((_("the hearts each seat captured, or the cards each seat captured"),
                         ("hearts", "captured")) if m == hearts else
                        (_("the cards each seat captured") + shown, ("captured",)))
            if outcome.captured is not None:
                cards[m] = [(c & m).bit_count() for c in outcome.captured]
            elif outcome.hearts is not None and m == hearts:
                cards[m] = list(outcome.hearts)
        ended = self._ended(outcome)
        for m, got in cards.items():
            self._check_class(m, got, complete=ended is not True)
        return Counts.of_one(n, tricks=tricks, cards=cards, last=outcome.last_winner,
                             ended=ended, wants=wants)

    def _ended(self, outcome: Outcome) -> bool | None:
        """Whether the early end came: from ``made`` or from the tricks; checked."""
        end = self.declaration.early_end
        if end is None:
            return False
        decl = self.declarer if outcome.declarer is None else outcome.declarer
        tricks = outcome.tricks
        if tricks is None or decl is None:
            return None if outcome.made is None else not outcome.made
        mine = tricks[decl]
        others = sum(tricks) - mine
        size, title = self.hand_size, tr(self.title)
        ended, enders = (mine > 0, mine) if end is EarlyEnd.DECLARER_WINS else (others > 0, others)
        if enders > 1:
            said = (_("{title} ends the moment the declarer wins a trick, so {seat} cannot have "
                      "won {enders}") if end is EarlyEnd.DECLARER_WINS else
                    _("{title} ends the moment a defender wins a trick, so the defenders cannot "
                      "have won {enders}"))
            raise TallyError(said.format(title=title, seat=seat_list([decl]), enders=enders))
        if not ended and sum(tricks) < size:
            raise TallyError(_("{title} is made only when all {size} tricks are played "
                               "without the early end; the tricks given end too soon").format(
                title=title, size=size))
        if outcome.made is not None and outcome.made == ended:
            raise TallyError((_("the tricks given say {title} was lost, not made") if ended else
                              _("the tricks given say {title} was made, not lost")).format(
                title=title))
        return ended

    def _check_class(self, cards: int, got: Sequence[int], complete: bool) -> None:
        name = _("{name}s").format(name=tr(self._class_name(cards)))
        total, aside, sum_ = cards.bit_count(), self.leftovers, sum(got)
        if min(got) < 0:
            raise TallyError(_("a seat cannot capture fewer than 0 {name}").format(name=name))
        if sum_ > total:
            raise TallyError(_("the {name} captured add up to {sum}; the pack has {total}")
                             .format(name=name, sum=sum_, total=total))
        if complete and sum_ < total - aside:
            if aside:
                raise TallyError(ngettext(
                    "the {name} captured add up to {sum}; with {players} players they add up "
                    "to at least {least} (only {n} card lies aside)",
                    "the {name} captured add up to {sum}; with {players} players they add up "
                    "to at least {least} (only {n} cards lie aside)", aside).format(
                    name=name, sum=sum_, players=self.players, least=total - aside, n=aside))
            raise TallyError(_("the {name} captured add up to {sum}, not {total}").format(
                name=name, sum=sum_, total=total))

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        import numpy as np  # here, not at import: `import herzla` goes without numpy

        d = self.declaration
        scores = np.zeros((self.players, counts.hands), dtype=np.int64)
        for v in d.values:
            if v.points:
                scores += v.points * counts.card_counts(v.cards)
        if d.per_trick:
            scores += d.per_trick * counts.trick_counts()
        if d.last_trick:
            seats = np.arange(self.players, dtype=np.int64)[:, None]
            scores += d.last_trick * (seats == counts.last_winner()[None, :])
        events = {}
        if d.early_end is not None:
            ended = counts.early_end()
            events = {"contract-made": ~ended, "contract-lost": ended}
        return Settlement(scores, None, events)

    def explain(self, outcome: Outcome, counts: Counts, settled: Settlement,
                stock: int = 0) -> tuple[str, ...]:
        d = self.declaration
        lines = []
        cite = self.cite()
        pack = self.pack().mask
        groups: dict[str, list[CardValue]] = {}
        for v in d.values:
            if v.points:
                groups.setdefault(v.name, []).append(v)
        for name, group in groups.items():  # e.g. the hearts of no-hearts, each rank its value
            rate = (_("{points} per {name}").format(points=points(group[0].points),
                                                    name=tr(name)) if len(group) == 1
                    else _("{name}s {values}").format(name=tr(name),
                                                      values=value_text(group, pack)))
            got = [counts.card_counts(v.cards)[:, 0] for v in group]
            for s in range(self.players):
                k = sum(int(g[s]) for g in got)
                if not k:
                    continue
                pts = sum(v.points * int(g[s]) for v, g in zip(group, got, strict=True))
                if outcome.captured is not None:
                    what = card_list(outcome.captured[s] & sum(v.cards for v in group))
                else:
                    what = counted(k, name)
                lines.append(_("Seat {seat} captured {cards}: {points} ({rate}, {rule}).").format(
                    seat=s, cards=what, points=points(pts), rate=rate, rule=cite))
        if d.per_trick:
            for s, t in enumerate(counts.trick_counts()[:, 0]):
                if t:
                    lines.append(ngettext(
                        "Seat {seat} won {n} trick: {points} ({each} per trick, {rule}).",
                        "Seat {seat} won {n} tricks: {points} ({each} per trick, {rule}).",
                        int(t)).format(seat=s, n=int(t), points=points(int(d.per_trick * t)),
                                       each=points(d.per_trick), rule=cite))
        if d.last_trick:
            w = int(counts.last_winner()[0])
            lines.append(_("Seat {seat} won the last trick: {points} ({rule}).").format(
                seat=w, points=points(d.last_trick), rule=cite))
        if d.early_end is not None and self.declarer is not None:
            ended = bool(counts.early_end()[0])
            line = (_("Seat {seat} lost {contract} ({goal}; {rule}).") if ended
                    else _("Seat {seat} made {contract} ({goal}; {rule})."))
            lines.append(line.format(seat=self.declarer, contract=tr(self.title),
                                     goal=d.early_end.words(), rule=cite))
        if not lines:
            lines.append(_("Nobody scores ({rule}).").format(rule=cite))
        return tuple(lines)

    def whole_stake(self, dealt: int) -> int:
        """The deal's whole stake: what every counting card and every trick of the deal is
        worth, summed as amounts (the cards of ``dealt`` only; those lying aside count for
        nobody).  An established renege costs the offender this much."""
        d = self.declaration
        return (sum(abs(v.points) * (v.cards & dealt).bit_count() for v in d.values)
                + abs(d.per_trick) * self.hand_size + abs(d.last_trick))

    def stake_text(self) -> str:
        """What :meth:`whole_stake` adds up, in words."""
        d, pack = self.declaration, self.pack().mask
        groups: dict[str, list[CardValue]] = {}
        for v in d.values:
            if v.points:
                groups.setdefault(v.name, []).append(v)
        parts = [_("{cards} x {points}").format(
            cards=counted(sum((v.cards & pack).bit_count() for v in g), name),
            points=abs(g[0].points)) if len(g) == 1 else
            _("every {name} at its value").format(name=tr(name)) for name, g in groups.items()]
        if d.per_trick:
            parts.append(ngettext("{n} trick x {points}", "{n} tricks x {points}",
                                  self.hand_size).format(n=self.hand_size,
                                                         points=abs(d.per_trick)))
        if d.last_trick:
            parts.append(_("the last trick, {points}").format(points=abs(d.last_trick)))
        return " + ".join(parts) or _("nothing counts")

    def score_total(self) -> int | None:
        """The fixed total of a hand played out with every card dealt (values, tricks, last
        trick); None with an early end or leftovers that may hold counted cards."""
        d = self.declaration
        if d.early_end is not None:
            return None
        if self.leftovers and any(v.points for v in d.values):
            return None
        return (sum(v.points * v.cards.bit_count() for v in d.values)
                + d.per_trick * self.hand_size + d.last_trick)

    def amount_bound(self) -> int:
        """Every counted card captured at its value, every trick and the last one won: the
        declared whole stake of the pack (not a subclass's own ``whole_stake``)."""
        return TrickContract.whole_stake(self, self.pack().mask)


class LayoutContract(Contract):
    """A deal played by laying cards in rows (Herzeln domino, Herzerln Auflegen).

    Declared by ``rows`` (:class:`~herzla.contracts.vocabulary.Rows`) and ``places`` (the points
    for first, second, ... place out); override ``declare()`` where they depend on the players or
    the options.
    """

    kind: ClassVar[str] = DealKind.LAYOUT
    rows: ClassVar[Rows | None] = None
    places: ClassVar[tuple[int, ...]] = ()

    declaration: LayoutRules
    has_passes: ClassVar[bool] = True

    @property
    def tricks_per_hand(self) -> int:
        return 0

    @property
    def row_rules(self) -> Rows:
        return self.declaration.rows

    @property
    def end_marks(self) -> bool:
        return self.declaration.rows.end_marks

    def declare(self) -> LayoutRules:
        if self.rows is None:
            raise NotImplementedError(f"{type(self).__name__} declares no rows")
        return LayoutRules(self.rows, self.places)

    def describe(self) -> str:
        if self.summary:
            return tr(self.summary)
        return self.declaration.rows.text(self.declaration.places)

    def counts(self, outcome: Outcome) -> Counts:
        order = outcome.order
        if order is None:
            raise MissingTally(_("this contract needs the order in which the seats went out"),
                               ("order",))
        if sorted(order) != list(range(self.players)):
            raise TallyError(_("the order of going out must name each of the {players} seats "
                               "once").format(players=self.players))
        return Counts.of_one(self.players, order=order)

    def settle(self, counts: Counts, stock: Stock = 0) -> Settlement:
        import numpy as np

        table = np.asarray(self.declaration.places, dtype=np.int64)
        return Settlement(table.take(counts.place_of()))

    def explain(self, outcome: Outcome, counts: Counts, settled: Settlement,
                stock: int = 0) -> tuple[str, ...]:
        order = outcome.order or ()
        table = self.declaration.places
        return tuple(
            _("Seat {seat} went out {place}: {points} (places by going out, {rule}).").format(
                seat=seat, place=ordinal_word(place + 1),
                points=points(table[place]) if table[place] else "0", rule=self.cite())
            for place, seat in enumerate(order))

    def score_total(self) -> int | None:
        return sum(self.declaration.places)

    def amount_bound(self) -> int:
        return sum(abs(p) for p in self.declaration.places)

