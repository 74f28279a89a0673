"""The evening: one game, named players, deal after deal, and what carries from one to the next.

>>> e = Evening.new("herzla", ["Anna", "Berni", "Carla", "Done"])
>>> e = e.add({"hearts": [0, 3, 5, 0]}).add({"hearts": [2, 2, 2, 2]})
>>> e.totals, e.stock
((20, -50, -70, 20), 80)
>>> e = e.add({"hearts": [1, 1, 6, 0]})
>>> e.totals, e.stock, e.next_dealer
((10, -60, -130, 180), 0, 2)
>>> e = e.edit(3, {"hearts": [0, 1, 0, 7]}).undo().undo()
>>> e.totals, e.stock, len(e.deals), e.revision
((20, -50, -70, 20), 80, 2, 6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.contracts import Sheet, get_game, known_options
from herzla.display import render
from herzla.evening.deal import Deal, Place
from herzla.evening.entry import Entry
from herzla.evening.errors import EveningError
from herzla.evening.names import check_names, find_game, seat_of
from herzla.evening.run import Run, Sitting
from herzla.evening.settle import Payment, settle
from herzla.evening.stats import PlayerStats, statistics
from herzla.i18n import _
from herzla.limits import LimitError, check_stock
from herzla.options import OptionError, given_options
from herzla.quote import quote
from herzla.records import Record
from herzla.support.kept import check_kept

__all__ = ["MAX_DEALS", "MAX_UNDO", "Change", "Evening"]

#: the most deals an evening takes by :meth:`Evening.add` (a list read as a score sheet may
#: hold more)
MAX_DEALS = 5000
#: how many changes :meth:`Evening.undo` can take back, the latest first
MAX_UNDO = 100


@attrs.frozen(slots=True)
class Change:
    """A change :meth:`Evening.undo` can take back: ``add`` (of deal ``k``), ``edit`` (of deal
    ``k``; ``entry`` the one it replaced) or ``drop`` (of deal ``k``; ``entry`` the one
    dropped)."""

    kind: str
    k: int
    entry: Entry | None = None

    def describe(self) -> str:
        text = {"add": _("deal {k} added"), "edit": _("deal {k} edited"),
                "drop": _("deal {k} dropped")}[self.kind]
        return text.format(k=self.k)


def _entry(entry: Entry | Mapping[str, Any]) -> Entry:
    if isinstance(entry, Entry):
        return entry
    return Entry.from_json(entry)


@attrs.frozen(slots=True)
class Evening:
    """An evening (an immutable value): build one with :meth:`new`, :meth:`from_json` or
    :func:`herzla.evening.read_session`; each change (:meth:`add`, :meth:`edit`, :meth:`drop`,
    :meth:`undo`) answers a new evening with every deal after the change recomputed.

    ``options`` holds the options given (typed); ``start_stock`` and ``first_dealer`` what the
    evening starts with; ``entries`` the deals as entered, ``history`` the changes
    :meth:`undo` takes back (latest last); ``revision`` grows by one with every change;
    ``sheet``: a list of hand records read as a score sheet (see :func:`read_session`).
    ``deals`` are the entries scored, in order.
    """

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]
    start_stock: int
    first_dealer: int
    entries: tuple[Entry, ...] = ()
    history: tuple[Change, ...] = ()
    revision: int = 0
    sheet: bool = False
    deals: tuple[Deal, ...] = attrs.field(default=(), eq=False, repr=False)

    # -- making one ---------------------------------------------------------------------------
    @classmethod
    def new(cls, game: str, players: Sequence[str], options: Mapping[str, Any] | None = None,
            stock: int = 0, dealer: int | str | None = None) -> Evening:
        """A new evening of ``game`` (its name, any case) for ``players`` (their names, one per
        seat, seat 0 first), with the rule ``options`` (by name; values typed or as text),
        ``stock`` cents in the stock (games with a stock) and the first deal dealt by
        ``dealer`` (a name or a seat number; None: the last seat)."""
        game = find_game(game)
        names = check_names(players)
        g = get_game(game)
        n = len(names)
        classes = g.contract_classes()
        playable = [c for c in classes if c.player_count_problem(n) is None]
        needed = classes[:g.partie] if g.partie else classes[:1]
        problem = next((c.player_count_problem(n) for c in needed
                        if c.player_count_problem(n)), None)
        if problem or not playable:
            counts = _(" or ").join(map(str, g.player_counts()))
            if problem:
                raise EveningError(_("{problem} (give {counts} players)").format(
                    problem=problem, counts=counts))
            raise EveningError(_("no contract of {game} is played by {n} (give {counts} "
                                 "players)").format(game=game, n=n, counts=counts))
        if options is not None and not isinstance(options, Mapping):
            raise EveningError(_("options: give an object of option names and values, not "
                                 "{options}").format(options=quote(options)))
        try:
            typed = given_options(g.options, options, f" for {game}")
            for c in playable:
                c(n, known_options(c, typed), 0 if c.needs_declarer else None)
        except OptionError as exc:
            raise EveningError(str(exc)) from None
        if isinstance(stock, bool) or not isinstance(stock, int):
            raise EveningError(_("stock: give a whole number of cents, not {stock}").format(
                stock=quote(stock)))
        try:
            check_stock(stock)
        except LimitError as exc:
            raise EveningError(str(exc)) from None
        if stock and not g.has_stock:
            raise EveningError(_("{game} has no stock").format(game=game))
        first = n - 1 if dealer is None else seat_of(dealer, names, "dealer")
        return cls._made(game, names, typed, stock, first)

    @classmethod
    def _made(cls, game: str, players: tuple[str, ...], options: Mapping[str, Any], stock: int,
              dealer: int, entries: Sequence[Entry] = (), history: Sequence[Change] = (),
              revision: int = 0, sheet: bool = False,
              deals: Sequence[Deal] | None = None) -> Evening:
        """An evening of these parts, its deals scored (or ``deals``, already scored)."""
        if deals is None:
            run = Run(Sitting.of(game, tuple(players), dict(options), stock, dealer, sheet))
            for entry in entries:
                run.push(entry)
            deals = run.deals
            entries = [d.entry for d in deals]
        return cls(game, tuple(players), dict(options), stock, dealer, tuple(entries),
                   tuple(history)[-MAX_UNDO:], revision, sheet, tuple(deals))

    def table(self) -> Sitting:
        return Sitting.of(self.game, self.players, dict(self.options), self.start_stock,
                          self.first_dealer, self.sheet)

    def _with(self, entries: Sequence[Entry], change: Change | None, keep: int) -> Evening:
        """This evening with ``entries``, the first ``keep`` deals as they are, the rest
        scored again; ``change`` is added to the history (None: undo, which takes the last
        one off)."""
        run = Run(self.table(), self.deals[:keep])
        for entry in entries[keep:]:
            run.push(entry)
        history = self.history[:-1] if change is None else (*self.history, change)
        return self._made(self.game, self.players, self.options, self.start_stock,
                          self.first_dealer, [d.entry for d in run.deals], history,
                          self.revision + 1, self.sheet, run.deals)

    def _k(self, k: object) -> int:
        if isinstance(k, bool) or not isinstance(k, int):
            raise EveningError(_("a deal is named by its number from 1, not {k}").format(
                k=quote(k)))
        if not 1 <= k <= len(self.entries):
            has = (_("deals 1 to {n}").format(n=len(self.entries)) if len(self.entries) > 1
                   else _("deal 1") if self.entries else _("no deal yet"))
            raise EveningError(_("there is no deal {k} (the evening has {has})").format(
                k=quote(k), has=has))
        return k

    # -- changing it --------------------------------------------------------------------------
    def add(self, entry: Entry | Mapping[str, Any]) -> Evening:
        """The evening with ``entry`` (an :class:`Entry`, or its JSON) as the next deal."""
        if len(self.entries) >= MAX_DEALS:
            raise EveningError(_("an evening holds at most {max_deals} deals").format(
                max_deals=MAX_DEALS))
        e = _entry(entry)
        k = len(self.entries) + 1
        return self._with([*self.entries, e], Change("add", k), len(self.entries))

    def edit(self, k: int, entry: Entry | Mapping[str, Any]) -> Evening:
        """The evening with deal ``k`` (from 1) replaced by ``entry``; every deal after it is
        scored again."""
        k = self._k(k)
        e = _entry(entry)
        entries = list(self.entries)
        before = entries[k - 1]
        entries[k - 1] = e
        return self._with(entries, Change("edit", k, before), k - 1)

    def drop(self, k: int) -> Evening:
        """The evening without deal ``k`` (from 1); every deal after it is scored again (and
        must still fit its new place)."""
        k = self._k(k)
        entries = list(self.entries)
        gone = entries.pop(k - 1)
        return self._with(entries, Change("drop", k, gone), k - 1)

    def undo(self) -> Evening:
        """The evening before its last change (add, edit or drop; EveningError if none is
        left to take back)."""
        if not self.history:
            raise EveningError(_("there is no change to take back"))
        last = self.history[-1]
        entries = list(self.entries)
        if last.kind == "add":
            entries.pop(last.k - 1)
        elif last.kind == "edit":
            assert last.entry is not None
            entries[last.k - 1] = last.entry
        else:
            assert last.entry is not None
            entries.insert(last.k - 1, last.entry)
        return self._with(entries, None, last.k - 1)

    # -- what it holds ------------------------------------------------------------------------
    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's total over the deals counted."""
        return self.deals[-1].totals if self.deals else (0,) * len(self.players)

    @property
    def stock(self) -> int | None:
        """The stock after the last deal (None: a game without a stock)."""
        if not get_game(self.game).has_stock:
            return None
        return self.deals[-1].stock if self.deals else self.start_stock

    def _run(self) -> Run:
        return Run(self.table(), self.deals)

    @property
    def over(self) -> bool:
        """Whether the evening has come to its end (a match over): no deal may follow."""
        return self._run().over

    @property
    def finished(self) -> bool:
        """Whether the evening stands at an end: a partie complete (every partie, in a game
        with one), the match over, or (a session) every deal scored; and no deal unscored."""
        run = self._run()
        if not self.deals or not run.counting:
            return False
        if run.kind is Sheet.PARTIE:
            # the next deal starts a partie, and the last one was played (not redealt)
            return not self.deals[-1].redeal and run.place().hand == 0
        if run.kind is Sheet.MATCH:
            return run.over
        return True

    @property
    def next_place(self) -> Place | None:
        """Where the next deal stands: its number, dealer, partie and hand of the partie, the
        contract the partie fixes, the stock carried in (None: the evening is over)."""
        run = self._run()
        return None if run.over else run.place()

    @property
    def next_dealer(self) -> int | None:
        """The seat that deals next (None: the evening is over)."""
        run = self._run()
        return None if run.over else run.place().dealer

    @property
    def next_contract(self) -> str | None:
        """The contract the next deal must be (the partie's next hand, a game's only
        contract), or None when the table chooses it (or the evening is over)."""
        run = self._run()
        return None if run.over else run.place().contract

    def winners(self) -> tuple[str, ...] | None:
        """The players with the best total by the game's rule (the highest, or the fewest
        points where the game says so; equal totals share), once the evening is
        :attr:`finished`; else None."""
        if not self.finished:
            return None
        totals = self.totals
        best = (min if get_game(self.game).lowest_wins else max)(totals)
        return tuple(p for p, t in zip(self.players, totals, strict=True) if t == best)

    def settlement(self) -> tuple[Payment, ...]:
        """Who pays whom (a game with a stock, in cents): as few payments as can settle the
        totals, each player's payments (what it pays less what it is paid) adding up to minus
        its total; what the stock gained or lost over the evening is paid to or by the stock,
        which stays on the table.  EveningError for a game without money (see
        :meth:`winners`)."""
        if not get_game(self.game).has_stock:
            raise EveningError(_("{game} is not played for money: see its winners").format(
                game=self.game))
        stock = self.stock or 0
        return settle(self.players, self.totals, stock - self.start_stock)

    def statistics(self) -> tuple[PlayerStats, ...]:
        """What each player did over the evening (:class:`PlayerStats`), seat 0 first."""
        return statistics(self)

    def records(self) -> tuple[Record, ...]:
        """The hand records of the record entries, each with its place's dealer, options and
        the stock carried in (as they were scored)."""
        return tuple(d.result.record for d in self.deals if d.result is not None)

    def seat(self, who: int | str) -> int:
        """The seat ``who`` names (a player's name, any case, or a seat number)."""
        return seat_of(who, self.players, "seat")

    # -- as JSON ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The evening as ``herzla pad show --json`` writes it (the Evening page of the docs)."""
        g = get_game(self.game)
        run = self._run()
        nxt = None
        if not run.over:
            p = run.place()
            nxt = {"k": p.k, "dealer": p.dealer, "contract": p.contract, "partie": p.partie}
        out: dict[str, Any] = {
            "game": self.game,
            "players": list(self.players),
            "options": dict(self.options),
            "start": {"dealer": self.first_dealer,
                      "stock": self.start_stock if g.has_stock else None},
            "revision": self.revision,
            "deals": [d.to_dict() for d in self.deals],
            "totals": list(self.totals),
            "stock": self.stock,
            "next": nxt,
            "finished": self.finished,
        }
        if g.has_stock:
            out["settlement"] = [p.to_dict() for p in self.settlement()]
        else:
            winners = self.winners()
            out["winners"] = list(winners) if winners is not None else None
        out["statistics"] = [s.to_dict() for s in self.statistics()]
        return out

    def to_json(self) -> dict[str, Any]:
        """The evening as its file holds it (:mod:`herzla.evening.storage`)."""
        return evening_to_json(self)

    @classmethod
    def from_json(cls, obj: object) -> Evening:
        """The evening a file holds (parsed JSON); EveningError names what is wrong, in one
        line (not an evening; written by a later herzla; an entry that does not fit)."""
        return evening_from_json(obj)

    def report(self) -> str:
        """The evening as ``herzla pad show`` prints it (also ``str``)."""
        from herzla.evening.text import report

        return report(self)

    def __str__(self) -> str:
        return self.report()

    def __repr__(self) -> str:
        n = len(self.deals)
        unit = "c" if get_game(self.game).has_stock else ""
        totals = ", ".join(f"{p} {t:+d}{unit}" if t else f"{p} 0{unit}"
                           for p, t in zip(self.players, self.totals, strict=True))
        stock = f", stock {self.stock}c" if self.stock is not None else ""
        return (f"<Evening {self.game}, {n} deal{'' if n == 1 else 's'}: {totals}{stock}>")

    def _repr_svg_(self) -> str | None:
        """A notebook shows the running totals (:func:`herzla.draw.evening.evening_svg`)."""
        return render("Evening", "svg", self)


# -- the file format (herzla.evening.storage reads and writes the files) ----------------------
#: what the file's ``format`` says
FORMAT = "herzla-evening"
#: the version this herzla writes, and the latest it reads
VERSION = 1
_KEYS = ("format", "version", "game", "players", "options", "stock", "dealer", "revision",
         "sheet", "deals", "undo")


def _change_json(change: Change) -> dict[str, Any]:
    out: dict[str, Any] = {"change": change.kind, "k": change.k}
    if change.entry is not None:
        out["entry"] = change.entry.to_json()
    return out


def evening_to_json(evening: Evening) -> dict[str, Any]:
    """The file's object of ``evening``."""
    out: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "game": evening.game,
        "players": list(evening.players), "options": dict(evening.options),
        "stock": evening.start_stock, "dealer": evening.first_dealer,
        "revision": evening.revision,
    }
    if evening.sheet:
        out["sheet"] = True
    out["deals"] = [e.to_json() for e in evening.entries]
    out["undo"] = [_change_json(c) for c in evening.history]
    return out


def _whole(obj: Mapping[str, Any], key: str, default: int) -> int:
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise EveningError(_("{key} must be a whole number from 0, not {value}").format(
            key=key, value=quote(value)))
    return value


def _change(obj: object, i: int) -> Change:

    where = f"undo[{i}]"
    if not isinstance(obj, Mapping) or set(obj) - {"change", "k", "entry"}:
        raise EveningError(_('{where}: a change is {{"change": ..., "k": ..., "entry": '
                             "...}}, not {obj}").format(where=where, obj=quote(obj)))
    kind = obj.get("change")
    if kind not in ("add", "edit", "drop"):
        raise EveningError(_("{where}: the change is add, edit or drop, not {kind}").format(
            where=where, kind=quote(kind)))
    k = _whole(obj, "k", 0)
    entry = None
    if kind != "add":
        if "entry" not in obj:
            raise EveningError(_("{where}: an {kind} keeps the entry it changed").format(
                where=where, kind=kind))
        try:
            entry = Entry.from_json(obj["entry"])
        except EveningError as exc:
            raise EveningError(_("{where}: {exc}").format(where=where, exc=exc)) from None
    return Change(kind, k, entry)


def _check_undo(history: list[Change], entries: int) -> None:
    """The changes must take the evening back step by step: each ``k`` a deal there is."""
    count = entries
    for i in reversed(range(len(history))):
        c = history[i]
        top = count if c.kind != "drop" else count + 1
        if not 1 <= c.k <= top or (c.kind == "add" and c.k != count):
            raise EveningError(_("undo[{i}]: there is no deal {k} to take back").format(i=i, k=c.k))
        count += {"add": -1, "edit": 0, "drop": 1}[c.kind]


def evening_from_json(obj: object) -> Evening:
    """The evening of a file's object (see the module notes)."""
    check_kept(obj, kind="evening", format=FORMAT, version=VERSION, keys=_KEYS,
               error=EveningError)
    assert isinstance(obj, Mapping)
    for key in ("game", "players"):
        if key not in obj:
            raise EveningError(_("the evening has no {key}").format(key=quote(key)))
    raw_deals = obj.get("deals", [])
    raw_undo = obj.get("undo", [])
    for key, value in (("deals", raw_deals), ("undo", raw_undo)):
        if not isinstance(value, list):
            raise EveningError(_("{key} must be a list, not {value}").format(
                key=key, value=quote(value)))
    if len(raw_deals) > MAX_DEALS and not obj.get("sheet"):
        raise EveningError(_("the evening has {n_raw_deals} deals; an evening holds at most "
                             "{max_deals}").format(n_raw_deals=len(raw_deals), max_deals=MAX_DEALS))
    options = obj.get("options") or {}
    if not isinstance(options, Mapping):
        raise EveningError(_("options must be an object, not {options}").format(
            options=quote(options)))
    sheet = obj.get("sheet", False)
    if not isinstance(sheet, bool):
        raise EveningError(_("sheet is true or false, not {sheet}").format(sheet=quote(sheet)))
    base = Evening.new(obj["game"], obj["players"], options, _whole(obj, "stock", 0))
    dealer = obj.get("dealer", len(base.players) - 1)
    first = seat_of(dealer, base.players, "dealer")
    entries = []
    for i, raw in enumerate(raw_deals):
        try:
            entries.append(Entry.from_json(raw))
        except EveningError as exc:
            raise EveningError(_("deals[{i}] (deal {i2}): {exc}").format(
                i=i, i2=i + 1, exc=exc)) from None
    history = [_change(c, i) for i, c in enumerate(raw_undo[-MAX_UNDO:])]
    _check_undo(history, len(entries))
    return Evening._made(base.game, base.players, base.options, base.start_stock, first,
                         entries, history, _whole(obj, "revision", 0), sheet)
