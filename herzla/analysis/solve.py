"""``herzla.analysis.solve``: the exact double-dummy value of the position a hand record reaches.

Every seat sees every card and plays perfectly.  In Beddl and Mord the declarer tries to make the
contract and the defenders together try to break it; in every other deal seat ``S`` gets the
best score it can guarantee when all the others play against it ("paranoid"), scored by the
contract's own scorer (cents in Herzla, with the record's stock and options; points elsewhere;
in the children's Herzla points are penalties, so lower is better).  What was captured before
the position counts.  The search is in :mod:`herzla.analysis`; the Analysis page of the docs
explains it.

>>> from herzla.records import read_record
>>> import json
>>> rec = read_record(json.load(open("docs/examples/herzla-beddl-lost.json")))
>>> res = solve(rec.to_json() | {"plays": []})
>>> res.made, res.value, res.seat
(False, -240, 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import attrs

from herzla.analysis.search.frames import on_own_stack
from herzla.analysis.search.scoring import AdditiveScore, BooleanScore, trick_score
from herzla.analysis.search.trick_search import TrickSearch
from herzla.cards import Card, mask_of
from herzla.contracts import LayoutContract, TrickContract, game_of
from herzla.contracts.renege import Ruling
from herzla.display import render
from herzla.hand import Hand
from herzla.i18n import N_, _, ngettext
from herzla.kinds import kind_of
from herzla.kinds.layout import LayoutHand, mark
from herzla.kinds.tricks import TrickHand
from herzla.quote import quote
from herzla.records import IllegalPlay, Record, read_record, replay
from herzla.support.words import capital, localized

if TYPE_CHECKING:  # the layout search is imported by the layout solver, where it runs
    from herzla.analysis.search.layout import LayoutSearch

__all__ = ["IllegalPlayError", "Searcher", "SolveError", "SolveResult", "searcher", "solve",
           "unit_of"]


class SolveError(ValueError):
    """A position the solver cannot answer, with the problem named in one sentence."""


class IllegalPlayError(SolveError):
    """The record has an illegal play; ``illegal`` names it as ``herzla replay`` does, and
    ``ruling`` is the ruling on it where it is a renege (:mod:`herzla.contracts.renege`)."""

    def __init__(self, illegal: IllegalPlay, ruling: Ruling | None = None) -> None:
        super().__init__(_("{where}, {card} by seat {seat}, is illegal: {message} (rule "
                           "{rule})").format(where=illegal.where(), card=illegal.card,
                                             seat=illegal.seat, message=illegal.message,
                                             rule=illegal.rule))
        self.illegal = illegal
        self.ruling = ruling

    def __reduce__(self) -> tuple[type[IllegalPlayError], tuple[IllegalPlay, Ruling | None]]:
        return (type(self), (self.illegal, self.ruling))  # it pickles (worker answers)

    def to_dict(self) -> dict[str, Any]:
        """The JSON answer for the record: the illegal play and the ruling, as ``replay``."""
        return {"illegal": self.illegal.to_dict(),
                "ruling": None if self.ruling is None else self.ruling.to_dict()}

    def lines(self) -> list[str]:
        """The text answer: the illegal play, then the ruling, if any."""
        ill = self.illegal
        out = [_("{where}, {card} by seat {seat}, is illegal: {message} (rule {rule}).").format(
            where=capital(ill.where()), card=ill.card, seat=ill.seat, message=ill.message,
            rule=ill.rule)]
        if self.ruling is not None:
            out += self.ruling.explanation
        return out


def unit_of(game: str, contract: str) -> str:
    """What a deal's scores count: ``cents`` (a deal with a stock), ``penalty points`` (a game
    where the lowest total wins) or ``points``."""
    from herzla.contracts import contract_class, get_game

    if contract_class(game, contract).has_stock:
        return N_("cents")
    return N_("penalty points") if get_game(game).lowest_wins else N_("points")


@attrs.frozen(slots=True)
class SolveResult:
    """The answer of :func:`solve`; ``to_dict()`` is the ``herzla solve --json`` object."""

    game: str
    contract: str
    players: int
    seat: int
    to_move: int | None
    value: int
    made: bool | None
    line: tuple[str, ...]
    plays: Mapping[str, int] | None
    nodes: int
    elapsed: float
    complete: bool = False
    #: the record solved, for :meth:`report` (not compared, not in the JSON)
    record: Record | None = attrs.field(default=None, eq=False, repr=False)

    def unit(self) -> str:
        """What ``value`` counts: ``cents``, ``points`` or ``penalty points``."""
        return unit_of(self.game, self.contract)

    def __repr__(self) -> str:
        where = "complete" if self.complete else f"seat {self.to_move} to play"
        verdict = "" if self.made is None else f"{'made' if self.made else 'lost'}, "
        return (f"<SolveResult {self.game} {self.contract}, {where}: {verdict}seat {self.seat} "
                f"{self.value:+d} {self.unit()}>")

    def report(self, record: Record | None = None) -> str:
        """The text ``herzla solve`` prints (also ``str(result)``): the line of best play trick
        by trick with the seat of each card and the trick's winner (layout deals: every lay and
        pass by seat), read from the record solved (or ``record``); as one row of moves for a
        result that has no record."""
        record = record if record is not None else self.record
        unit = self.unit()
        value, said = localized(f"{self.value:+d}"), _(unit)
        lines: list[str] = [ngettext("{game} {contract}, {n} player", "{game} {contract}, {n} "
                                     "players", self.players).format(
            game=self.game, contract=self.contract, n=self.players)]
        if self.complete:
            lines.append(_("The hand is complete: seat {seat} scored {value} {unit}.").format(
                seat=self.seat, value=value, unit=said))
            return "\n".join(lines)
        lines[0] += _("; seat {seat} to play").format(seat=self.to_move)
        if self.made is not None:
            text = (_("Double dummy: the contract is made; seat {seat} scores {value} {unit}.")
                    if self.made else
                    _("Double dummy: the contract is lost; seat {seat} scores {value} {unit}."))
            lines.append(text.format(seat=self.seat, value=value, unit=said))
        else:
            text = (_("Double dummy, every other seat against seat {seat}: seat {seat} scores "
                      "{value} {unit} (lower is better).") if unit == "penalty points" else
                    _("Double dummy, every other seat against seat {seat}: seat {seat} scores "
                      "{value} {unit} (higher is better)."))
            lines.append(text.format(seat=self.seat, value=value, unit=said))
        if record is None:
            lines.append(_("Best play: {line}").format(line=" ".join(self.line)))
        else:
            from herzla.analysis.steps import line_text

            lines.append(_("Best play:"))
            lines.extend("  " + x for x in line_text(record, self.line))
        if self.plays is not None:
            parts = ", ".join(f"{k} {localized(f'{v:+d}')}" if v else f"{k} 0"
                              for k, v in self.plays.items())
            if self.seat == self.to_move:
                text = _("Each play of seat {seat}: {parts}")
            else:
                text = _("Each play of seat {seat}, valued in seat {owner}'s {unit}: {parts}")
            lines.append(text.format(seat=self.to_move, owner=self.seat, unit=said, parts=parts))
        lines.append(_("({n} positions searched)").format(n=localized(f"{self.nodes:,}")))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.report()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game, "contract": self.contract, "players": self.players,
            "seat": self.seat, "to_move": self.to_move, "value": self.value, "made": self.made,
            "line": list(self.line),
        }
        if self.plays is not None:
            out["plays"] = dict(self.plays)
        out["nodes"] = self.nodes
        out["elapsed_s"] = round(self.elapsed, 3)
        return out

    def _repr_html_(self) -> str | None:
        """A notebook shows the value, the line and the plays as tables."""
        return render("SolveResult", "html", self)


def solve(record: Record | Mapping[str, Any], seat: int | None = None,
          plays: bool = False) -> SolveResult:
    """Solve the position ``record`` reaches after its plays.

    ``seat``: the seat whose score is optimised (needed except in Beddl and Mord, where it
    defaults to the declarer and only says whose score ``value`` is).  ``plays``: also give the
    exact value of every legal play of the seat to move.  Raises
    :class:`herzla.records.RecordError` for a malformed record, :class:`IllegalPlayError` for
    an illegal play and :class:`SolveError` for a missing or wrong seat.
    """
    start = time.perf_counter()
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise SolveError(_("seat must be a whole number, not {seat}").format(seat=quote(seat)))
    if not isinstance(plays, bool):
        raise SolveError(_("plays is true or false, not {plays}").format(plays=quote(plays)))
    rec = read_record(record)
    result = replay(rec)
    if result.illegal is not None:
        raise IllegalPlayError(result.illegal, result.ruling)
    declarer = _searchable(rec)
    state = _position(rec)
    if seat is None:
        if declarer is None:
            raise SolveError(_("{game} {contract_id} is solved for one seat against the "
                               "others: give the seat (0 to {players})").format(
                game=rec.game, contract_id=rec.contract_id, players=rec.players - 1))
        seat = declarer
    if not 0 <= seat < rec.players:
        raise SolveError(_("seat {seat} is not a seat of {players} players "
                           "(seats 0 to {players2})").format(
            seat=seat, players=rec.players, players2=rec.players - 1))
    if result.complete:
        assert result.score is not None
        made = None
        if declarer is not None:
            made = "contract-made" in result.score.events
        return SolveResult(rec.game, rec.contract_id, rec.players, seat, None,
                           result.score.scores[seat], made, (), {} if plays else None, 0,
                           time.perf_counter() - start, complete=True, record=rec)
    solver = _solver(rec, seat)  # _searchable(rec) has read the contract
    # the search, the line and the plays' values on one stretch of the frame stack (frames.py)
    value, line, values = on_own_stack(_answer, solver, state, plays)
    return SolveResult(rec.game, rec.contract_id, rec.players, seat, state.turn,
                       solver.score(value), solver.made(value), tuple(line), values,
                       solver.nodes, time.perf_counter() - start, record=rec)


def _answer(solver: Searcher, state: Hand, plays: bool
            ) -> tuple[int, list[str], dict[str, int] | None]:
    """The value of ``state``, a line of best play and, with ``plays``, each play's value."""
    value = solver.exact(state)
    line = solver.line(state, value)
    return value, line, solver.play_values(state) if plays else None


def _searchable(rec: Record) -> int | None:
    """The declarer whose contract the search is of (Beddl, Mord), else None; SolveError for a
    contract the search cannot read."""
    contract = rec.contract
    hooks = [h for h in type(contract).own_hooks() if h in ("banned", "ends_early")]
    if hooks:
        raise SolveError(_("the contract {contract} plays by a {hooks}() of its own, "
                           "which the solver cannot search; it reads declared rules only").format(
            contract=contract.key(), hooks=hooks[0]))
    try:
        return contract.declarer if _is_boolean(rec) else None
    except NotImplementedError as exc:
        raise SolveError(str(exc)) from None


def searcher(rec: Record, seat: int) -> Searcher:
    """The search :func:`solve` runs on the positions of ``rec``'s deal, valued for ``seat``
    (one table for them all: ``herzla.review`` asks it position after position).  Raises
    SolveError for a contract the search cannot read."""
    _searchable(rec)
    return _solver(rec, seat)


def _solver(rec: Record, seat: int) -> Searcher:
    contract = rec.contract
    sign = -1 if game_of(contract).lowest_wins else 1
    make = _SOLVERS.get(str(contract.kind))
    if make is None:
        raise SolveError(_("the solver cannot search a {kind}").format(
            kind=kind_of(contract).words))
    return make(rec, contract, seat, sign)


def _is_boolean(rec: Record) -> bool:
    """Whether the search values made or lost (a declarer's contract)."""
    return _solver(rec, 0).boolean


def _position(rec: Record) -> Hand:
    """The hand after the record's (legal) plays."""
    return rec.start(played=True)


class Searcher:
    """What :func:`solve` and :func:`herzla.review` ask of a search: values in the search's
    orientation (maximised; :meth:`score` turns one into the seat's score)."""

    search: TrickSearch | LayoutSearch
    #: values are made (1) or lost (0), scored by the seat's score for each
    boolean = False

    @property
    def nodes(self) -> int:
        return self.search.nodes

    def exact(self, state: Any, guess: int | None = None) -> int:
        """The exact value of ``state`` (MTD(f) from ``guess``, by default the search's own)."""
        raise NotImplementedError

    def value(self, state: Any, alpha: int, beta: int) -> int:
        """The value of ``state``, fail-soft within ``(alpha, beta)``."""
        raise NotImplementedError

    def maxing(self, state: Any) -> bool:
        """Whether the seat to move is the maximiser."""
        raise NotImplementedError

    def children(self, state: Any) -> list[tuple[list[str], Any]]:
        """The plays of the seat to move in the search's order (the likely best first), as
        groups of plays of one value (equivalent cards) with the position after the group's
        first; :meth:`in_order` puts plays in the order of :meth:`play_values`."""
        raise NotImplementedError

    def score(self, value: int) -> int:
        raise NotImplementedError

    def made(self, value: int) -> bool | None:
        return None

    def line(self, state: Any, value: int) -> list[str]:
        raise NotImplementedError

    def play_values(self, state: Any) -> dict[str, int]:
        raise NotImplementedError

    def in_order(self, labels: list[str]) -> list[str]:
        """Plays in the order :meth:`play_values` names them."""
        return labels


class _TrickSolver(Searcher):
    def __init__(self, rec: Record, contract: TrickContract, seat: int, sign: int) -> None:
        self.contract = contract
        self.stock = rec.stock
        self.sc = trick_score(contract, rec.stock, [mask_of(h) for h in rec.hands])
        self.seat = seat
        self.sign = sign
        self.search: TrickSearch = TrickSearch(contract, self.sc, seat, sign)
        self.boolean = isinstance(self.sc, BooleanScore)

    def _offset(self, st: TrickHand) -> int:
        """What the position's past adds (additive scorers: the search values the future)."""
        sc = self.sc
        if isinstance(sc, AdditiveScore):
            return self.sign * sc.of_tally(self.seat, st.captured, st.won, None)
        return 0

    def _terminal(self, st: TrickHand) -> int:
        sc = self.sc
        if isinstance(sc, BooleanScore):
            won = [t.winner for t in st.tricks if t.winner is not None]
            return 0 if self.search.declared.ended(won) else 1
        scores = self.contract.score(st.outcome(), self.stock).scores
        return self.sign * scores[self.seat]

    def value(self, st: TrickHand, alpha: int, beta: int) -> int:
        if st.over:
            return self._terminal(st)
        off = self._offset(st)
        return off + self.search.value(st, alpha - off, beta - off)

    def exact(self, state: TrickHand, guess: int | None = None) -> int:
        if state.over:
            return self._terminal(state)
        off = self._offset(state)
        return off + self.search.exact(state, 0 if guess is None else guess - off)

    def score(self, value: int) -> int:
        sc = self.sc
        if isinstance(sc, BooleanScore):
            return (sc.made if value else sc.lost)[self.seat]
        return self.sign * value

    def made(self, value: int) -> bool | None:
        return bool(value) if isinstance(self.sc, BooleanScore) else None

    def maxing(self, st: TrickHand) -> bool:
        sc = self.sc
        return st.turn == (sc.declarer if isinstance(sc, BooleanScore) else self.seat)

    def line(self, state: TrickHand, value: int) -> list[str]:
        st = state.copy()
        out: list[str] = []
        while not st.over:
            maxing = self.maxing(st)
            for index in self.search.moves(st):
                card = Card.from_index(index)
                st._play(card)
                ok = (self.value(st, value - 1, value) >= value if maxing
                      else self.value(st, value, value + 1) <= value)
                if ok:
                    out.append(str(card))
                    break
                st.undo()
            else:  # pragma: no cover - the value is that of one of the children
                raise AssertionError("no play reaches the position's value")
        return out

    def children(self, state: TrickHand) -> list[tuple[list[str], TrickHand]]:
        """In the search's order (the likely best first)."""
        first = {c: i for i, c in enumerate(reversed(self.search.moves(state)))}
        out = []
        for members in sorted(self.search.classes(state).values(),
                              key=lambda run: -max(first.get(m, -1) for m in run)):
            st = state.copy()
            st._play(Card.from_index(members[0]))
            out.append(([str(Card.from_index(m)) for m in members], st))
        return out

    def in_order(self, labels: list[str]) -> list[str]:
        return sorted(labels, key=lambda c: Card.from_str(c).index)

    def play_values(self, state: TrickHand) -> dict[str, int]:
        out: dict[str, int] = {}
        for _rep, members in sorted(self.search.classes(state).items()):
            st = state.copy()
            st._play(Card.from_index(members[0]))
            v = self.score(self.exact(st))
            for m in members:
                out[str(Card.from_index(m))] = v
        return {k: out[k] for k in sorted(out, key=lambda c: Card.from_str(c).index)}


class _LayoutSolver(Searcher):
    def __init__(self, contract: LayoutContract, seat: int, sign: int) -> None:
        from herzla.analysis.search.layout import LayoutSearch

        self.sign = sign
        self.search: LayoutSearch = LayoutSearch(contract, seat, sign)

    def exact(self, state: LayoutHand, guess: int | None = None) -> int:
        return self.search.exact(state, 0 if guess is None else guess)

    def value(self, state: LayoutHand, alpha: int, beta: int) -> int:
        return self.search.value(state, alpha, beta)

    def maxing(self, state: LayoutHand) -> bool:
        return state.turn == self.search.seat

    def children(self, state: LayoutHand) -> list[tuple[list[str], LayoutHand]]:
        lays = state.lays()
        if not lays:
            st = state.copy()
            st._pass_turn()
            return [(["pass"], st)]
        out = []
        for lay in lays:
            st = state.copy()
            text = mark(st, lay)
            st._play(lay)
            out.append(([text], st))
        return out

    def score(self, value: int) -> int:
        return self.sign * value

    def line(self, state: LayoutHand, value: int) -> list[str]:
        st = state.copy()
        out: list[str] = []
        while not st.over:
            maxing = st.turn == self.search.seat
            for move in self.search.moves(st):
                text = "pass" if move is None else mark(st, move)
                if move is None:
                    st._pass_turn()
                else:
                    st._play(move)
                ok = (self.search.value(st, value - 1, value) >= value if maxing
                      else self.search.value(st, value, value + 1) <= value)
                if ok:
                    out.append(text)
                    break
                st.undo()
            else:  # pragma: no cover
                raise AssertionError("no move reaches the position's value")
        return out

    def play_values(self, state: LayoutHand) -> dict[str, int]:
        return {labels[0]: self.score(self.search.exact(st))
                for labels, st in self.children(state)}



def _layout_solver(rec: Record, contract: Any, seat: int, sign: int) -> Searcher:
    return _LayoutSolver(contract, seat, sign)


#: a question of kind, the solver's one: each search reads its engine's own state (the tricks and
#: what they captured, the rows), so each kind of deal has its own (a kind without one is not
#: searched)
_SOLVERS: dict[str, Callable[[Record, Any, int, int], Searcher]] = {
    "tricks": _TrickSolver, "layout": _layout_solver}
