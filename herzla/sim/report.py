"""The text report of a simulation: the table ``herzla simulate`` prints (``SimResult.report()``,
``str(result)``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from herzla.i18n import DEFAULT, N_, _, current, ngettext, pgettext
from herzla.sim.intervals import T_FROM, Z95, wilson
from herzla.sim.plan import Mode, Plan
from herzla.sim.spec import counts_hearts_as_points
from herzla.sim.stats import DealTally, PartieTally, SessionTally, Summary
from herzla.support.words import localized


class _Result(Protocol):
    """What the report reads of a simulation's result (:class:`herzla.sim.runner.SimResult`,
    which writes its report with it)."""

    @property
    def plan(self) -> Plan: ...
    @property
    def deal(self) -> DealTally | None: ...
    @property
    def partie(self) -> PartieTally | None: ...
    @property
    def session(self) -> SessionTally | None: ...
    @property
    def elapsed(self) -> float: ...
    @property
    def processes(self) -> int: ...
    @property
    def cluster(self) -> str | None: ...
    @property
    def hands_played(self) -> int: ...
    @property
    def hands_per_s(self) -> float: ...
    def checks(self) -> dict[str, int]: ...

__all__ = ["report"]


# -- the table --------------------------------------------------------------------------------

def _signed(x: float, decimals: int = 3) -> str:
    return localized(f"{x:+,.{decimals}f}" if x else f"{0:.{decimals}f}")


def _int(x: int) -> str:
    return localized(f"{x:+,d}" if x else "0")


def _unsigned(x: float, decimals: int = 3) -> str:
    return localized(f"{x:,.{decimals}f}")


def _count(x: int) -> str:
    return localized(f"{x:,}")


#: what the report counts, as its lines name it
_UNITS = {"hands": N_("hands"), "deals": N_("deals"), "parties": N_("parties"),
          "evenings": N_("evenings"), "deals or evenings": N_("deals or evenings"),
          "hands or parties": N_("hands or parties")}


def _unit(words: str) -> str:
    return _(_UNITS.get(words, words))


def _seat_table(summaries: Sequence[Summary], extra_head: str = "",
                extra: Sequence[str] = (), signed: bool = True) -> list[str]:
    """One line per seat: mean, std, 95% CI, min, max (``signed``: scores, with their signs;
    else counts)."""
    num = _signed if signed else _unsigned
    whole = _int if signed else _count
    seat, mean, std = (pgettext("column", "seat"), pgettext("column", "mean"),
                       pgettext("column", "std"))
    ci95, low, high = (pgettext("column", "95% CI of the mean"), pgettext("column", "min"),
                       pgettext("column", "max"))
    lines = [f"{seat:>4} {mean:>10} {std:>9} {ci95:>23} {low:>7} {high:>7}{extra_head}"]
    for s, st in enumerate(summaries):
        ci = "-" if st.ci95 is None else f"{num(st.ci95[0])} .. {num(st.ci95[1])}"
        lines.append(f"{s:>4} {num(st.mean):>10} {_unsigned(st.std):>9} {ci:>23} "
                     f"{whole(st.min):>7} {whole(st.max):>7}{extra[s] if extra else ''}")
    return lines


def _rate(count: int, total: int) -> str:
    """A rate and its Wilson 95% interval: ``  7.50% [2.58%, 19.86%]``."""
    ci = wilson(count, total)
    if ci is None:
        return f"{'-':>8} {'':>17}"
    interval = "[" + localized(f"{ci[0]:.2%}") + "; " + localized(f"{ci[1]:.2%}") + "]"
    if current() == DEFAULT:
        interval = f"[{ci[0]:.2%}, {ci[1]:.2%}]"
    return f"{localized(f'{count / total:.2%}'):>8} {interval:>17}"


def _rate_inline(count: int, total: int) -> str:
    """A rate and its Wilson 95% interval inside a sentence: ``7.50%, 95% CI 2.58% .. 19.86%``."""
    ci = wilson(count, total)
    if ci is None:
        return "-"
    return _("{rate}, 95% CI {low} .. {high}").format(
        rate=localized(f"{count / total:.2%}"), low=localized(f"{ci[0]:.2%}"),
        high=localized(f"{ci[1]:.2%}"))


def _rate_head() -> str:
    rate, ci95 = pgettext("column", "rate"), pgettext("column", "95% CI")
    return f"{rate:>8} {ci95:>17}"


def _events_table(events: dict[str, int], total: int, what: str) -> list[str]:
    if not events:
        return [_("Events: none")]
    width = max(12, *(len(k) for k in events))
    event = pgettext("column", "event")
    lines = [f"{event:<{width}} {_unit(what):>12} {_rate_head()}"]
    for name, count in events.items():
        lines.append(f"{name:<{width}} {_count(count):>12} {_rate(count, total)}")
    return lines


_STATS_NOTE = N_("std: the sample standard deviation; 95% CI of the mean: mean ± {z}·std/√n "
                 "(Student's t below {t_from} values,\nnone for one); 95% CI of a rate: the "
                 "Wilson score interval")

_CHECK_TEXT = {
    "zero-sum": N_("the players and the stock sum to 0 in every hand"),
    "hand-total": N_("every hand adds up to its contract's fixed total"),
    "partie-total": N_("every partie adds up to its fixed total"),
    "evening-zero-sum": N_("the players and the stock sum to 0 over every evening"),
}


def _checks_lines(checks: dict[str, int], unit_name: str) -> list[str]:
    out = []
    for name, bad in checks.items():
        text = _(_CHECK_TEXT[name]) if name in _CHECK_TEXT else name
        if not bad:
            out.append(_("Check: {text}: ok").format(text=text))
        else:
            out.append(_("Check: {text}: FAILED in {bad} {units}").format(
                text=text, bad=_count(bad), units=_unit(unit_name)))
    return out


def _options_text(options: dict[str, Any]) -> str:
    if not options:
        return _("default rules")
    return _("options {options}").format(options=", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items()))


def _hand_lines(res: _Result, t: DealTally, hand: str, hands: str) -> list[str]:
    """The hearts captured, the contracts bid, the events and the checks of the hands counted
    in ``t`` (``hand``, ``hands``: what they are called)."""
    spec = res.plan.specs[0]
    out: list[str] = []
    hearts = t.hearts_summaries()
    if hearts is not None and counts_hearts_as_points(spec):
        out.append("")
        out.append(_("Hearts captured per hand and seat:") if hand == "hand" else
                   _("Hearts captured per deal and seat:"))
        out += _seat_table(hearts, signed=False)
    if t.contracts is not None:
        c = t.contracts
        total = sum(c.hands)
        out.append("")
        contract, made_ = pgettext("column", "contract"), pgettext("column", "made")
        made_rate, ci95 = pgettext("column", "made rate"), pgettext("column", "95% CI")
        lost_ = pgettext("column", "lost")
        out.append(f"{contract:<12} {_unit(hands):>12} {_rate_head()} {made_:>10} "
                   f"{made_rate:>9} {ci95:>17} {lost_:>10}")
        for code, name in enumerate(c.names):
            made = (f"{_count(c.made[code]):>10} {_rate(c.made[code], c.hands[code])} "
                    f"{_count(c.lost[code]):>10}" if code else "")
            out.append(f"{name:<12} {_count(c.hands[code]):>12} {_rate(c.hands[code], total)} "
                       f"{made}".rstrip())
    out.append("")
    out += _events_table(t.events_json(), t.hands, hands)
    out += _checks_lines(res.checks(), hands if hands == "hands" else "deals or evenings")
    return out


def _session_head(res: _Result) -> list[str]:
    p = res.plan
    spec = p.specs[0]
    n = p.players
    what = (_("{game} {contract} every deal").format(game=p.game, contract=spec.contract_id)
            if p.mode is Mode.CONTRACT else
            _("{game}, each deal's contract chosen by the bidding").format(game=p.game))
    decl = ""
    if spec.declarer is not None:
        fixed = len({s.declarer for s in p.specs}) == 1 and p.session > 1
        decl = (_(", declarer seat {seat}").format(seat=spec.declarer) if fixed
                else _(", declared by each deal's forehand"))
    rotation = _(", the deal passing clockwise") if p.session > 1 else ""
    return [_("{what}{decl}, {n} players: evenings of {deals} deals, the first dealt by seat "
              "{dealer}{rotation}").format(what=what, decl=decl, n=n, deals=_count(p.session),
                                           dealer=spec.dealer, rotation=rotation),
            _("{evenings} evenings, policy {policy}, seed {seed}, {options}, stock {stock}c at "
              "the start of each evening").format(
                evenings=_count(p.hands), policy=spec.policy, seed=p.seed,
                options=_options_text(dict(spec.options)), stock=_count(p.stock or 0))]


def _checkpoints(deals: int) -> list[int]:
    """The deals after which the report shows the mean stock: 1, 2, 5, 10, 20, 50, ... and
    the last."""
    out = []
    step = 1
    while step <= deals:
        out += [k for k in (step, 2 * step, 5 * step) if k <= deals]
        step *= 10
    return sorted({*out, deals})


def _win_table(pt: PartieTally) -> list[str]:
    """The seats' statistics of partie (evening) totals, with their wins and win rates."""
    wins = [f" {_count(w):>9} {_rate(w, pt.parties)}" for w in pt.wins]
    head = pgettext("column", "wins")
    return _seat_table([h.summary() for h in pt.seats], f" {head:>9} {_rate_head()}", wins)


def _session_lines(res: _Result, unit: str) -> list[str]:
    p = res.plan
    st = res.session
    assert st is not None
    ev = st.evenings
    out = [_("Evening total per seat, in {unit} (the highest balance wins; equal best totals "
             "share the win):").format(unit=_(unit))]
    out += _win_table(ev)
    out.append(_("Shared wins: {n} evenings ({rate}) ended in a tie for first place; each tied "
                 "seat counts a win.").format(n=_count(ev.shared_wins),
                                              rate=_rate_inline(ev.shared_wins, ev.parties)))
    out.append("")
    for what, h in ((N_("Stock at the end of the evening"), st.stock_end),
                    (N_("Highest stock of the evening"), st.stock_peak)):
        x = h.summary()
        out.append(_("{what}: mean {mean}c, std {std}, median {median}c, 95th percentile "
                     "{p95}c, max {max}c").format(
            what=_(what), mean=_unsigned(x.mean), std=_unsigned(x.std),
            median=_count(h.percentile(50)), p95=_count(h.percentile(95)), max=_count(x.max)))
    means = st.stock_means()
    out.append(_("Mean stock after deal {means}").format(means=", ".join(
        f"{_count(k)}: {_unsigned(means[k - 1], 2)}c" for k in _checkpoints(p.session))))
    out.append(_("Evenings in which a deal paid the stock out: {n} ({rate})").format(
        n=_count(st.stock_paid), rate=_rate_inline(st.stock_paid, st.count)))
    out += _hand_lines(res, st.hands, "deal", "deals")
    return out


def report(res: _Result) -> str:
    """The table ``herzla simulate`` prints: the run, the per-seat statistics, the events, the
    checks and how long it took."""
    p = res.plan
    spec = p.specs[0]
    n = p.players
    unit = N_("cents") if p.stock is not None else N_("points")
    policy = _("policy {policy}").format(policy=spec.policy)
    out: list[str] = []
    if p.session:
        out += _session_head(res)
    elif p.mode is Mode.PARTIE:
        rotation = (_("the deal passes clockwise after each deal")
                    if len({s.dealer for s in p.specs}) > 1 else _("one dealer for the partie"))
        out.append(_("{game} partie of {deals} deals, {n} players, first dealer seat {dealer} "
                     "({rotation})").format(game=p.game, deals=len(p.specs), n=n,
                                            dealer=spec.dealer, rotation=rotation))
        out.append(_("{n} parties, {policy}, seed {seed}, {options}").format(
            n=_count(p.hands), policy=policy, seed=p.seed,
            options=_options_text(dict(spec.options))))
    else:
        what = p.game + " " + str(spec.contract_id) if p.mode is Mode.CONTRACT else (
            _("{game}, contract chosen by the bidding each hand").format(game=p.game))
        decl = (_(", declarer seat {seat}").format(seat=spec.declarer)
                if spec.declarer is not None else "")
        out.append(_("{what}{decl}, {n} players, dealer seat {dealer}, forehand seat "
                     "{forehand}").format(what=what, decl=decl, n=n, dealer=spec.dealer,
                                          forehand=(spec.dealer + 1) % n))
        stock = (_(", stock {stock}c before each hand").format(stock=p.stock)
                 if p.stock is not None else "")
        out.append(_("{n} hands, {policy}, seed {seed}, {options}{stock}").format(
            n=_count(p.hands), policy=policy, seed=p.seed,
            options=_options_text(dict(spec.options)), stock=stock))
    out.append("")

    if res.session is not None:
        out += _session_lines(res, unit)
    elif res.deal is not None:
        t = res.deal
        out.append(_("Score per hand and seat, in {unit}:").format(unit=_(unit)))
        out += _seat_table(t.seat_summaries())
        if t.stock is not None:
            st = t.stock.summary()
            if st.min == st.max == p.stock:
                out.append(_("The stock stays at {stock}c.").format(stock=_count(st.min)))
            else:
                out.append(_("Stock after the hand: mean {mean}c, std {std}, min {min}c, max "
                             "{max}c").format(mean=_unsigned(st.mean), std=_unsigned(st.std),
                                              min=_count(st.min), max=_count(st.max)))
        out += _hand_lines(res, t, "hand", "hands")
    else:
        pt = res.partie
        assert pt is not None
        out.append(_("Partie total per seat, in {unit} (equal best totals share the "
                     "win):").format(unit=_(unit)))
        out += _win_table(pt)
        out.append(_("Shared wins: {n} parties ({rate}) ended in a tie for first place; each "
                     "tied seat counts a win.").format(n=_count(pt.shared_wins),
                                                       rate=_rate_inline(pt.shared_wins,
                                                                         pt.parties)))
        out.append("")
        out.append(_("Mean score per deal and seat:"))
        width = max(len(s.contract_id or "") for s in p.specs)
        deal, dealer = pgettext("column", "deal"), pgettext("column", "dealer")
        seats = [_("seat {seat}").format(seat=s) for s in range(n)]
        total_label = pgettext("row", "total")
        head = (f"{'#':>2}  {deal:<{width}} {dealer:>6}"
                + "".join(f"{seat:>10}" for seat in seats)
                + f"{total_label:>10}")
        out.append(head)
        for i, (s, d) in enumerate(zip(p.specs, pt.deals, strict=True)):
            means = [h.summary().mean for h in d.seats]
            tot = d.total.summary().mean
            out.append(f"{i + 1:>2}  {s.contract_id:<{width}} {s.dealer:>6}"
                       + "".join(f"{_signed(m):>10}" for m in means) + f"{_signed(tot):>10}")
        means = [h.summary().mean for h in pt.seats]
        label = pgettext("row", "partie")
        out.append(f"{'':>2}  {label:<{width}} {'':>6}"
                   + "".join(f"{_signed(m):>10}" for m in means)
                   + f"{_signed(pt.total.summary().mean):>10}")
        counted = [(i, s, d) for i, (s, d) in enumerate(zip(p.specs, pt.deals, strict=True))
                   if d.hearts_summaries() is not None]
        if counted:
            out.append("")
            out.append(_("Mean hearts captured per deal and seat (the trick deals):"))
            out.append(head)
            for i, s, d in counted:
                per_seat = d.hearts_summaries()
                assert per_seat is not None and d.hearts_total is not None
                out.append(f"{i + 1:>2}  {s.contract_id:<{width}} {s.dealer:>6}"
                           + "".join(f"{_unsigned(x.mean):>10}" for x in per_seat)
                           + f"{_unsigned(d.hearts_total.summary().mean):>10}")
        events = {}
        for s, d in zip(p.specs, pt.deals, strict=True):
            events.update({f"{s.contract_id}: {k}": v for k, v in d.events_json().items()})
        out.append("")
        out += _events_table(events, pt.parties, "parties")
        out += _checks_lines(res.checks(), "hands or parties")
    out.append("")
    played = res.hands_played
    jobs = res.processes
    procs = ngettext("{n} process", "{n} processes", jobs).format(n=jobs)
    if res.cluster is not None:
        procs = ngettext("{n} dask worker at {cluster}", "{n} dask workers at {cluster}",
                         jobs).format(n=jobs, cluster=res.cluster)
    what = ("" if p.deals == 1 and not p.session else
            _(" ({units} of {deals})").format(units=_many(p.hands, p.unit),
                                               deals=_many(p.deals, "deals"))
            if p.session else f" ({_many(p.hands, 'parties')})")
    out.append(_(_STATS_NOTE).format(z=Z95, t_from=T_FROM) + ".")
    out.append(_("{played}{what} in {elapsed} s ({rate} hands/s, {procs}).").format(
        played=_many(played, "hands"), what=what, elapsed=_unsigned(res.elapsed, 2),
        rate=_unsigned(res.hands_per_s, 0), procs=procs))
    return "\n".join(out)


#: ``1 evening``, ``2 evenings``: each count the report says, singular and plural
_MANY: dict[str, Callable[[int], str]] = {
    "hands": lambda n: ngettext("{n} hand", "{n} hands", n),
    "deals": lambda n: ngettext("{n} deal", "{n} deals", n),
    "parties": lambda n: ngettext("{n} partie", "{n} parties", n),
    "evenings": lambda n: ngettext("{n} evening", "{n} evenings", n)}


def _many(n: int, words: str) -> str:
    """``1 evening``, ``2 evenings``: ``words`` (a plural in s) as ``n`` of them say it."""
    said = _MANY.get(words)
    if said is None:
        return f"{_count(n)} {words if n != 1 else words.removesuffix('s')}"
    return said(n).format(n=_count(n))
