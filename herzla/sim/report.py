"""The text report of a simulation: the table ``herzla simulate`` prints (``SimResult.report()``,
``str(result)``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from herzla.i18n import _
from herzla.sim.intervals import T_FROM, Z95, wilson
from herzla.sim.plan import Mode, Plan
from herzla.sim.spec import counts_hearts_as_points
from herzla.sim.stats import DealTally, PartieTally, SessionTally, Summary


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
    return f"{x:+,.{decimals}f}" if x else f"{0:.{decimals}f}"


def _int(x: int) -> str:
    return f"{x:+,d}" if x else "0"


def _unsigned(x: float, decimals: int = 3) -> str:
    return f"{x:,.{decimals}f}"


def _seat_table(summaries: Sequence[Summary], extra_head: str = "",
                extra: Sequence[str] = (), signed: bool = True) -> list[str]:
    """One line per seat: mean, std, 95% CI, min, max (``signed``: scores, with their signs;
    else counts)."""
    num = _signed if signed else _unsigned
    whole = _int if signed else (lambda x: f"{x:,d}")
    lines = [f"{'seat':>4} {'mean':>10} {'std':>9} {'95% CI of the mean':>23} "
             f"{'min':>7} {'max':>7}{extra_head}"]
    for s, st in enumerate(summaries):
        ci = "-" if st.ci95 is None else f"{num(st.ci95[0])} .. {num(st.ci95[1])}"
        lines.append(f"{s:>4} {num(st.mean):>10} {st.std:>9,.3f} {ci:>23} "
                     f"{whole(st.min):>7} {whole(st.max):>7}{extra[s] if extra else ''}")
    return lines


def _rate(count: int, total: int) -> str:
    """A rate and its Wilson 95% interval: ``  7.50% [2.58%, 19.86%]``."""
    ci = wilson(count, total)
    if ci is None:
        return f"{'-':>8} {'':>17}"
    return f"{count / total:>8.2%} {f'[{ci[0]:.2%}, {ci[1]:.2%}]':>17}"  # numbers only


def _rate_inline(count: int, total: int) -> str:
    """A rate and its Wilson 95% interval inside a sentence: ``7.50%, 95% CI 2.58% .. 19.86%``."""
    ci = wilson(count, total)
    if ci is None:
        return "-"
    return _("{rate}, 95% CI {low} .. {high}").format(rate=f"{count / total:.2%}",
                                                      low=f"{ci[0]:.2%}", high=f"{ci[1]:.2%}")


def _rate_head() -> str:
    """The heads of a rate's columns: the rate and its interval."""
    rate, interval = _("rate"), _("95% CI")
    return f"{rate:>8} {interval:>17}"


def _events_table(events: dict[str, int], total: int, what: str) -> list[str]:
    if not events:
        return ["Events: none"]
    width = max(12, *(len(k) for k in events))
    lines = [f"{'event':<{width}} {what:>12} {_rate_head()}"]
    for name, count in events.items():
        lines.append(f"{name:<{width}} {count:>12,} {_rate(count, total)}")
    return lines


def _stats_note() -> str:
    """What the table's statistics are, said under it."""
    return _("std: the sample standard deviation; 95% CI of the mean: mean ± {z}·std/√n "
             "(Student's t below {n} values,\nnone for one); 95% CI of a rate: the Wilson "
             "score interval").format(z=Z95, n=T_FROM)

_CHECK_TEXT = {
    "zero-sum": "the players and the stock sum to 0 in every hand",
    "hand-total": "every hand adds up to its contract's fixed total",
    "partie-total": "every partie adds up to its fixed total",
    "evening-zero-sum": "the players and the stock sum to 0 over every evening",
}


def _checks_lines(checks: dict[str, int], unit_name: str) -> list[str]:
    out = []
    for name, bad in checks.items():
        text = _CHECK_TEXT.get(name, name)
        out.append(f"Check: {text}: " + ("ok" if not bad else
                                          f"FAILED in {bad:,} {unit_name}"))
    return out


def _options_text(options: dict[str, Any]) -> str:
    if not options:
        return "default rules"
    return "options " + ", ".join(
        f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in options.items())


def _hand_lines(res: _Result, t: DealTally, hand: str, hands: str) -> list[str]:
    """The hearts captured, the contracts bid, the events and the checks of the hands counted
    in ``t`` (``hand``, ``hands``: what they are called)."""
    spec = res.plan.specs[0]
    out: list[str] = []
    hearts = t.hearts_summaries()
    if hearts is not None and counts_hearts_as_points(spec):
        out.append("")
        out.append(f"Hearts captured per {hand} and seat:")
        out += _seat_table(hearts, signed=False)
    if t.contracts is not None:
        c = t.contracts
        total = sum(c.hands)
        out.append("")
        made_rate, interval = _("made rate"), _("95% CI")
        out.append(f"{'contract':<12} {hands:>12} {_rate_head()} {'made':>10} "
                   f"{made_rate:>9} {interval:>17} {'lost':>10}")
        for code, name in enumerate(c.names):
            made = (f"{c.made[code]:>10,} {_rate(c.made[code], c.hands[code])} "
                    f"{c.lost[code]:>10,}" if code else "")
            out.append(f"{name:<12} {c.hands[code]:>12,} {_rate(c.hands[code], total)} "
                       f"{made}".rstrip())
    out.append("")
    out += _events_table(t.events_json(), t.hands, hands)
    out += _checks_lines(res.checks(), hands if hands == "hands" else f"{hands} or evenings")
    return out


def _session_head(res: _Result) -> list[str]:
    p = res.plan
    spec = p.specs[0]
    n = p.players
    what = (f"{p.game} {spec.contract_id} every deal" if p.mode is Mode.CONTRACT else
            f"{p.game}, each deal's contract chosen by the bidding")
    decl = ""
    if spec.declarer is not None:
        fixed = len({s.declarer for s in p.specs}) == 1 and p.session > 1
        decl = f", declarer seat {spec.declarer}" if fixed else ", declared by each deal's forehand"
    rotation = ", the deal passing clockwise" if p.session > 1 else ""
    return [f"{what}{decl}, {n} players: evenings of {p.session:,} deals, the first dealt by "
            f"seat {spec.dealer}{rotation}",
            f"{p.hands:,} evenings, policy {spec.policy}, seed {p.seed}, "
            f"{_options_text(dict(spec.options))}, stock {p.stock or 0:,}c at the start of each "
            f"evening"]


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
    wins = [f" {w:>9,} {_rate(w, pt.parties)}" for w in pt.wins]
    return _seat_table([h.summary() for h in pt.seats], f" {'wins':>9} {_rate_head()}", wins)


def _session_lines(res: _Result, unit: str) -> list[str]:
    p = res.plan
    st = res.session
    assert st is not None
    ev = st.evenings
    out = [f"Evening total per seat, in {unit} (the highest balance wins; equal best totals "
           f"share the win):"]
    out += _win_table(ev)
    out.append(f"Shared wins: {ev.shared_wins:,} evenings "
               f"({_rate_inline(ev.shared_wins, ev.parties)}) ended in a tie for first place; "
               f"each tied seat counts a win.")
    out.append("")
    for what, h in (("Stock at the end of the evening", st.stock_end),
                    ("Highest stock of the evening", st.stock_peak)):
        x = h.summary()
        out.append(f"{what}: mean {x.mean:,.3f}c, std {x.std:,.3f}, median "
                   f"{h.percentile(50):,}c, 95th percentile {h.percentile(95):,}c, max "
                   f"{x.max:,}c")
    means = st.stock_means()
    out.append("Mean stock after deal " + ", ".join(
        f"{k:,}: {means[k - 1]:,.2f}c" for k in _checkpoints(p.session)))
    out.append(f"Evenings in which a deal paid the stock out: {st.stock_paid:,} "
               f"({_rate_inline(st.stock_paid, st.count)})")
    out += _hand_lines(res, st.hands, "deal", "deals")
    return out


def report(res: _Result) -> str:
    """The table ``herzla simulate`` prints: the run, the per-seat statistics, the events, the
    checks and how long it took."""
    p = res.plan
    spec = p.specs[0]
    n = p.players
    unit = "cents" if p.stock is not None else "points"
    policy = f"policy {spec.policy}"
    out: list[str] = []
    if p.session:
        out += _session_head(res)
    elif p.mode is Mode.PARTIE:
        rotation = ("the deal passes clockwise after each deal"
                    if len({s.dealer for s in p.specs}) > 1 else "one dealer for the partie")
        out.append(f"{p.game} partie of {len(p.specs)} deals, {n} players, first dealer seat "
                   f"{spec.dealer} ({rotation})")
        out.append(f"{p.hands:,} parties, {policy}, seed {p.seed}, "
                   f"{_options_text(dict(spec.options))}")
    else:
        what = f"{p.game} {spec.contract_id}" if p.mode is Mode.CONTRACT else (
            f"{p.game}, contract chosen by the bidding each hand")
        decl = f", declarer seat {spec.declarer}" if spec.declarer is not None else ""
        out.append(f"{what}{decl}, {n} players, dealer seat {spec.dealer}, forehand seat "
                   f"{(spec.dealer + 1) % n}")
        stock = f", stock {p.stock}c before each hand" if p.stock is not None else ""
        out.append(f"{p.hands:,} hands, {policy}, seed {p.seed}, "
                   f"{_options_text(dict(spec.options))}{stock}")
    out.append("")

    if res.session is not None:
        out += _session_lines(res, unit)
    elif res.deal is not None:
        t = res.deal
        out.append(f"Score per hand and seat, in {unit}:")
        out += _seat_table(t.seat_summaries())
        if t.stock is not None:
            st = t.stock.summary()
            if st.min == st.max == p.stock:
                out.append(f"The stock stays at {st.min:,}c.")
            else:
                out.append(f"Stock after the hand: mean {st.mean:,.3f}c, std {st.std:,.3f}, "
                           f"min {st.min:,}c, max {st.max:,}c")
        out += _hand_lines(res, t, "hand", "hands")
    else:
        pt = res.partie
        assert pt is not None
        out.append(f"Partie total per seat, in {unit} (equal best totals share the win):")
        out += _win_table(pt)
        out.append(f"Shared wins: {pt.shared_wins:,} parties "
                   f"({_rate_inline(pt.shared_wins, pt.parties)}) ended in a tie for first "
                   f"place; each tied seat counts a win.")
        out.append("")
        out.append("Mean score per deal and seat:")
        width = max(len(s.contract_id or "") for s in p.specs)
        head = (f"{'#':>2}  {'deal':<{width}} {'dealer':>6}"
                + "".join(f"{'seat ' + str(s):>10}" for s in range(n)) + f"{'total':>10}")
        out.append(head)
        for i, (s, d) in enumerate(zip(p.specs, pt.deals, strict=True)):
            means = [h.summary().mean for h in d.seats]
            tot = d.total.summary().mean
            out.append(f"{i + 1:>2}  {s.contract_id:<{width}} {s.dealer:>6}"
                       + "".join(f"{_signed(m):>10}" for m in means) + f"{_signed(tot):>10}")
        means = [h.summary().mean for h in pt.seats]
        out.append(f"{'':>2}  {'partie':<{width}} {'':>6}"
                   + "".join(f"{_signed(m):>10}" for m in means)
                   + f"{_signed(pt.total.summary().mean):>10}")
        counted = [(i, s, d) for i, (s, d) in enumerate(zip(p.specs, pt.deals, strict=True))
                   if d.hearts_summaries() is not None]
        if counted:
            out.append("")
            out.append("Mean hearts captured per deal and seat (the trick deals):")
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
    procs = "1 process" if jobs == 1 else f"{jobs} processes"
    if res.cluster is not None:
        procs = f"{jobs} dask worker{'s' if jobs != 1 else ''} at {res.cluster}"
    what = ("" if p.deals == 1 and not p.session else
            f" ({_many(p.hands, p.unit)} of {_many(p.deals, 'deals')})" if p.session else
            f" ({_many(p.hands, 'parties')})")
    out.append(f"{_stats_note()}.")
    out.append(f"{_many(played, 'hands')}{what} in {res.elapsed:,.2f} s "
               f"({res.hands_per_s:,.0f} hands/s, {procs}).")
    return "\n".join(out)


def _many(n: int, words: str) -> str:
    """``1 evening``, ``2 evenings``: ``words`` (a plural in s) as ``n`` of them say it."""
    return f"{n:,} {words if n != 1 else words.removesuffix('s')}"
