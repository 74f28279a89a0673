"""What ``herzla advise`` prints: each choice's estimates as a table, then the recommendation in a
player's words (what the choice is worth with strong players at every seat, by how much it beats
the next, and the bounds double dummy and the heuristic set around it)."""

from __future__ import annotations

from collections.abc import Mapping

from herzla.analysis.estimate import Estimate
from herzla.contracts import TrickContract
from herzla.contracts.words import tr
from herzla.i18n import N_, _, pgettext
from herzla.support.words import cent_sign, localized

__all__ = ["WAY_NAMES", "cents_text", "report_lines"]


#: each way's name in the report's rows (translated where the rows are written)
WAY_NAMES = {"strong": N_("strong"), "double_dummy": N_("double dummy"),
             "heuristic": N_("heuristic")}


def cents_text(x: float) -> str:
    """Cents with a sign and one decimal (no signed zero)."""
    return localized(f"{x:+.1f}" if round(x, 1) else "0.0")


def _row(choice: str, way: str, e: Estimate, width: int) -> str:
    if e.p_made is None or e.p_made_ci95 is None:
        made = f"{'':>6} {'':>13}"
    else:
        lo, hi = e.p_made_ci95
        made = (f"{localized(f'{e.p_made:.1%}'):>6} "
                f"{localized(f'{lo:.1%}') + '..' + localized(f'{hi:.1%}'):>13}")
    ci = f"{cents_text(e.ci95[0])}..{cents_text(e.ci95[1])}"
    return (f"{choice:<7} {way:<{width}} {made} {cents_text(e.mean):>8} {ci:>16} "
            f"{localized(f'{e.samples:,}'):>6}")


def _share(p: float) -> str:
    return localized(f"{p:.0%}")


def _bounds(contract: TrickContract, ways: Mapping[str, Estimate]) -> list[str]:
    """The double-dummy and heuristic figures of a choice, as the bounds they are."""
    out = []
    dd = ways.get("double_dummy")
    if dd is not None:
        if dd.p_made is not None:
            out.append(_("With every card seen by every player (double dummy) it is worth "
                         "{mean}, made in {share} of {deals} deals.").format(
                mean=cents_text(dd.mean), share=_share(dd.p_made),
                deals=localized(f"{dd.samples:,}")))
        else:
            out.append(_("With every card seen by every player (double dummy, the three others "
                         "playing against you) it is worth {mean} over {deals} deals.").format(
                mean=cents_text(dd.mean), deals=localized(f"{dd.samples:,}")))
    h = ways["heuristic"]
    if h.p_made is not None:
        out.append(_("At a table of weak players (the heuristic at every seat) it is worth "
                     "{mean}, made in {share} of the deals.").format(
            mean=cents_text(h.mean), share=_share(h.p_made)))
    else:
        out.append(_("At a table of weak players (the heuristic at every seat) it is worth "
                     "{mean}.").format(mean=cents_text(h.mean)))
    if dd is not None:
        out.append(_("These are its bounds: a real table sees less than double dummy and plays "
                     "better than the heuristic."))
    return [" ".join(out)]


def _worth(model: str, title: str, e: Estimate) -> str:
    fields = {"model": model, "title": title, "mean": cents_text(e.mean),
              "low": cents_text(e.ci95[0]), "high": cents_text(e.ci95[1])}
    if e.p_made is None:
        return _("With strong players at every seat ({model} playing all four hands) {title} "
                 "is worth {mean} cents to you on average (95% interval {low}..{high})."
                 ).format(**fields)
    return _("With strong players at every seat ({model} playing all four hands) {title} is "
             "worth {mean} cents to you on average (95% interval {low}..{high}), made in "
             "{share} of the deals.").format(share=_share(e.p_made), **fields)


def _advice(model: str, contracts: Mapping[str, TrickContract],
            choices: Mapping[str, Mapping[str, Estimate]], best: str,
            margin: tuple[str, float, tuple[float, float]] | None) -> list[str]:
    e = choices[best]["strong"]
    worth = _worth(model, tr(contracts[best].title), e)
    if margin is None:
        return [_("Only {choice} was weighed: there was nothing to compare it with.").format(
                    choice=best), worth, *_bounds(contracts[best], choices[best])]
    other, diff, (dlo, dhi) = margin
    fields = {"diff": cents_text(diff), "title": tr(contracts[other].title),
              "low": cents_text(dlo), "high": cents_text(dhi),
              "deals": localized(f"{e.samples:,}")}
    if dlo == dhi == 0:
        than = _("It is worth the same on every deal as the next best choice, {title}."
                 ).format(**fields)
    elif dlo > 0:
        than = _("That is {diff} cents a hand more than the next best choice, {title} (95% "
                 "interval of the difference {low}..{high}): a clear difference over {deals} "
                 "deals.").format(**fields)
    else:
        than = _("That is {diff} cents a hand more than the next best choice, {title} (95% "
                 "interval of the difference {low}..{high}): too close to call over {deals} "
                 "deals; more samples would tell.").format(**fields)
    out = [_("Recommendation: {choice}.").format(choice=best) + " " + worth, than,
           *_bounds(contracts[best], choices[best])]
    weak = max(choices, key=lambda c: choices[c]["heuristic"].mean)
    if weak != best and choices[weak]["heuristic"].mean > choices[best]["heuristic"].mean:
        out.append(_("Against weak players {title} would pay more ({weak}); against strong "
                     "players it pays {strong}.").format(
            title=tr(contracts[weak].title), weak=cents_text(choices[weak]["heuristic"].mean),
            strong=cents_text(choices[weak]["strong"].mean)))
    return out


def report_lines(game: str, seat: int, dealer: int, stock: int, cards: str, unseen: int,
                 samples: int, seed: int, model: str, contracts: Mapping[str, TrickContract],
                 choices: Mapping[str, Mapping[str, Estimate]], best: str,
                 margin: tuple[str, float, tuple[float, float]] | None) -> list[str]:
    """The lines of the report: the hand, the table of estimates, the advice."""
    names = {way: _(name) for way, name in WAY_NAMES.items()}
    width = max(13, *(len(n) for n in names.values()))
    ci95, deals = pgettext("column", "95% CI"), pgettext("column", "deals")
    choice, play = pgettext("column", "choice"), pgettext("column", "play")
    made, cents = pgettext("column", "made"), pgettext("column", "cents")
    out = [_("{game}, seat {seat} holds {cards}; dealer seat {dealer}, stock {stock}").format(
               game=game, seat=seat, cards=cards, dealer=dealer, stock=f"{stock}{cent_sign()}"),
           _("{samples} sampled deals of the {unseen} unseen cards, seed {seed}; strong play: "
             "{model} at every seat").format(samples=localized(f"{samples:,}"), unseen=unseen,
                                             seed=seed, model=model),
           "",
           f"{choice:<7} {play:<{width}} {made:>6} {ci95:>13} {cents:>8} {ci95:>16} "
           f"{deals:>6}"]
    for c, ways in choices.items():
        for way, name in names.items():
            if way in ways:
                out.append(_row(c, name, ways[way], width))
    out.append("")
    out.extend(_advice(model, contracts, choices, best, margin))
    return out
