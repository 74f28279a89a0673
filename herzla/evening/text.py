"""The evening as text for the people at the table (``herzla pad show``): the deals with each
player's score and the stock, the totals, what comes next, the settlement or the winners, and
each player's statistics."""

from __future__ import annotations

from typing import Protocol

from herzla.contracts import get_game
from herzla.evening.deal import Deal, named
from herzla.evening.errors import EveningError
from herzla.evening.settle import Payment
from herzla.evening.stats import EveningFacts, PlayerStats
from herzla.i18n import N_, _, ngettext, pgettext
from herzla.records import signed
from herzla.round import Place
from herzla.support.words import cent_sign


class _Evening(EveningFacts, Protocol):
    """What the text reads of an evening (:class:`herzla.evening.Evening`, which writes its
    own text with it, :meth:`~herzla.evening.Evening.report`)."""

    @property
    def stock(self) -> int | None: ...
    @property
    def over(self) -> bool: ...
    @property
    def next_place(self) -> Place | None: ...
    def winners(self) -> tuple[str, ...] | None: ...
    def settlement(self) -> tuple[Payment, ...]: ...
    def statistics(self) -> tuple[PlayerStats, ...]: ...

__all__ = ["deal_line", "deal_report", "kind_of", "next_line", "next_sentence", "outcome_lines",
           "report", "stats_line", "totals_line"]


def _contract(d: Deal, e: _Evening) -> str:
    if d.declarer is None:
        return d.contract.id
    return f"{d.contract.id} ({e.players[d.declarer]})"


def _unit(e: _Evening) -> str:
    return cent_sign() if get_game(e.game).has_stock else ""


#: the events a deal's kind names, as a person says them (an event not here is written as
#: its code reads)
_EVENTS = {"all-hearts": N_("all hearts"), "schleichermord": N_("schleichermord"),
           "renege": N_("renege"), "redeal": N_("redeal"), "contract-made": N_("contract made"),
           "contract-lost": N_("contract lost"), "no-void": N_("no void"),
           "one-void": N_("one void"), "two-void": N_("two void"),
           "stock-paid": N_("stock paid")}


#: the sheets and the hands of a partie, as the sentences name them
_NOT_OVER = {"session": N_("The session is not over yet."),
             "match": N_("The match is not over yet.")}
_NEXT_IN_PARTIE = {
    "deal": N_("next: deal {k} (deal {hand} of partie {partie}){what}, dealt by {dealer}"),
    "round": N_("next: deal {k} (round {hand} of partie {partie}){what}, dealt by {dealer}")}


def kind_of(d: Deal) -> str:
    """What kind of deal it was, by its events: ``all hearts``, ``schleichermord``, ``renege``
    (empty for a deal without one)."""
    return ", ".join(_(_EVENTS[event]) if event in _EVENTS else event.replace("-", " ")
                     for event in d.events)


def deal_report(e: _Evening, k: int) -> str:
    """Deal ``k`` (from 1) explained, as ``herzla pad show FILE K`` prints it: its line, its
    kind, what was entered, and every amount with its rule, the seats called by the players'
    names (EveningError: no such deal)."""
    if not 1 <= k <= len(e.deals):
        has = _("deals 1 to {n}").format(n=len(e.deals)) if e.deals else _("no deal yet")
        raise EveningError(_("the evening has no deal {k} (it has {has})").format(k=k, has=has))
    d = e.deals[k - 1]
    out = [deal_line(e, d)]
    if kind_of(d):
        out.append(_("kind: {kind}").format(kind=kind_of(d)))
    entry = d.entry.to_json()
    if not d.entry.is_record:
        out.append(_("entered: {what}").format(what=", ".join(
            f"{key} {_entered(v)}" for key, v in entry.items() if key != "contract")))
    else:
        out.append(_("entered as a hand record"))
    out += [f"  {named(x, e.players)}" for x in d.explanation]
    return "\n".join(out)


def _entered(value: object) -> str:
    if isinstance(value, list):
        return ",".join(_entered(v) for v in value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def deal_line(e: _Evening, d: Deal) -> str:
    """``deal 2 (dealt by Anna), normal: Anna +40c, ...; stock 0c``."""
    unit = _unit(e)
    head = _("deal {k} (dealt by {dealer}), {contract}").format(
        k=d.k, dealer=e.players[d.dealer], contract=_contract(d, e))
    if d.scores is None:
        return f"{head}: {_unscored(d)}"
    scores = ", ".join(f"{p} {signed(v)}{unit}" for p, v in zip(e.players, d.scores,
                                                                   strict=True))
    stock = _("; stock {stock}").format(stock=_cents(d.stock)) if d.stock is not None else ""
    return f"{head}: {scores}{stock}"


def _cents(value: int | None) -> str:
    """An amount of the stock: ``40c``."""
    return f"{value}{cent_sign()}"


def _unscored(d: Deal) -> str:
    res = d.result
    if res is not None and res.illegal is not None:
        return _("illegal at play {play} ({rule})").format(play=res.illegal.index + 1,
                                                           rule=res.illegal.rule)
    return _("not complete")


def totals_line(e: _Evening) -> str:
    """``totals: Anna +40c, ...; stock 0c``."""
    unit = _unit(e)
    totals = ", ".join(f"{p} {signed(v)}{unit}" for p, v in zip(e.players, e.totals,
                                                                   strict=True))
    stock = _("; stock {stock}").format(stock=_cents(e.stock)) if e.stock is not None else ""
    return _("totals: {totals}").format(totals=totals) + stock


def next_line(e: _Evening) -> str:
    """What comes next: the next deal's number, dealer and contract, or the end."""
    if e.over:
        return _("The match is over: no deal follows.")
    place = e.next_place
    assert place is not None
    g = get_game(e.game)
    what = f", {place.contract}" if place.contract is not None and g.partie else ""
    dealer = e.players[place.dealer]
    if g.partie:
        sentence = _NEXT_IN_PARTIE.get(g.hand_name)
        if sentence is None:  # a game of its own naming its hands otherwise
            return (f"next: deal {place.k} ({g.hand_name} {place.hand + 1} of partie "
                    f"{place.partie}){what}, dealt by {dealer}")
        return _(sentence).format(k=place.k, hand=place.hand + 1, partie=place.partie,
                                  what=what, dealer=dealer)
    return _("next: deal {k}{what}, dealt by {dealer}").format(k=place.k, what=what,
                                                                dealer=dealer)


def next_sentence(e: _Evening) -> str:
    """:func:`next_line` as a sentence begins, its first letter capital (``Next: deal 2, dealt
    by Anna``), without its full stop: the reader ends it (once)."""
    line = next_line(e).removesuffix(".")
    return line[0].upper() + line[1:]


def outcome_lines(e: _Evening) -> list[str]:
    """The settlement (a game for money) or the winners."""
    g = get_game(e.game)
    if g.has_stock:
        pays = e.settlement()
        out = [f"{p}." for p in pays] or [_("Nobody owes anybody anything.")]
        if e.stock:
            out.append(_("The stock of {stock} stays on the table for the next deal.").format(
                stock=_cents(e.stock)))
        return out
    winners = e.winners()
    if winners is None:
        if not e.deals:
            return []
        if g.partie:
            return [_("The partie is not over yet.")]
        return [_(_NOT_OVER.get(str(g.sheet), _NOT_OVER["match"]))]
    total = e.totals[e.players.index(winners[0])]
    if len(winners) > 1:
        return [_("Winners: {names} with {total} (equal totals share the win).").format(
            names=", ".join(winners), total=signed(total))]
    return [_("Winner: {names} with {total}.").format(names=winners[0], total=signed(total))]


def stats_line(e: _Evening, s: PlayerStats) -> str:
    """One player's statistics in words."""
    unit = _unit(e)
    parts = [ngettext("won {won} of {n} deal", "won {won} of {n} deals", s.deals).format(
        won=s.won, n=s.deals)]
    if s.voids is not None:
        parts.append(ngettext("{n} void", "{n} voids", s.voids).format(n=s.voids))
    for title, d in s.declared.items():
        parts.append(_("{title} made {made}, lost {lost}").format(title=title, made=d.made,
                                                                  lost=d.lost))
    if s.stock_collected:
        parts.append(_("{amount} from the stock").format(amount=_cents(s.stock_collected)))
    if s.best is not None and s.worst is not None:
        parts.append(_("best {best}, worst {worst}").format(best=signed(s.best) + unit,
                                                            worst=signed(s.worst) + unit))
    return f"{s.name}: " + "; ".join(parts)


def report(e: _Evening) -> str:
    """The whole evening as ``herzla pad show`` prints it."""
    g = get_game(e.game)
    unit = _unit(e)
    n = len(e.players)
    out = [ngettext("{game} evening, {n} player: {names}", "{game} evening, {n} players: {names}",
                    n).format(game=e.game, n=n, names=", ".join(e.players))]
    cells = [[signed(v) + unit for v in d.scores] for d in e.deals if d.scores is not None]
    cells.append([signed(v) + unit for v in e.totals])
    width = max(7, *(len(p) + 2 for p in e.players),
                *(len(c) + 2 for row in cells for c in row))
    dealer_w = max(6, *(len(p) for p in e.players)) + 2
    names = [_contract(d, e) + (f": {kind_of(d)}" if kind_of(d) else "") for d in e.deals]
    contract_w = max(8, *(len(c) for c in names), 5) + 2
    has_stock = e.stock is not None
    dealer, contract = pgettext("column", "dealer"), pgettext("column", "contract")
    stock = pgettext("column", "stock")
    head = (f"{'#':>3}  {dealer:<{dealer_w}}{contract:<{contract_w}}"
            + "".join(f"{p:>{width}}" for p in e.players)
            + (f"{stock:>{width}}" if has_stock else ""))
    out.append(head)
    partie = None
    for d, name in zip(e.deals, names, strict=True):
        if g.partie and d.place.partie != partie and d.place.partie != 1:
            out.append(f"{'':>3}  " + _("partie {partie}").format(partie=d.place.partie))
        partie = d.place.partie
        line = f"{d.k:>3}  {e.players[d.dealer]:<{dealer_w}}{name:<{contract_w}}"
        if d.scores is None:
            out.append(f"{line}{_unscored(d)}")
            continue
        line += "".join(f"{signed(v) + unit:>{width}}" for v in d.scores)
        if has_stock:
            line += f"{_cents(d.stock):>{width}}"
        out.append(line)
    label = pgettext("row", "total")
    total = f"{'':>3}  {label:<{dealer_w + contract_w}}" + "".join(
        f"{signed(v) + unit:>{width}}" for v in e.totals)
    if has_stock:
        total += f"{_cents(e.stock):>{width}}"
    out.append(total)
    out.append(next_sentence(e) + ".")
    out += outcome_lines(e)
    if e.deals:
        out.append(_("Statistics (a deal is won by the best score in it, ties included):"))
        out += [f"  {stats_line(e, s)}" for s in e.statistics()]
    return "\n".join(out)
