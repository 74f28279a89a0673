"""What ``herzla advise`` prints: each choice's estimates as a table, then the recommendation in a
player's words (what the choice is worth with strong players at every seat, by how much it beats
the next, and the bounds double dummy and the heuristic set around it)."""

from __future__ import annotations

from collections.abc import Mapping

from herzla.analysis.estimate import Estimate
from herzla.contracts import TrickContract

__all__ = ["WAY_NAMES", "cents_text", "report_lines"]

#: each way's name in the report's rows
WAY_NAMES = {"strong": "strong", "double_dummy": "double dummy", "heuristic": "heuristic"}


def cents_text(x: float) -> str:
    """Cents with a sign and one decimal (no signed zero)."""
    return f"{x:+.1f}" if round(x, 1) else "0.0"


def _row(choice: str, way: str, e: Estimate) -> str:
    if e.p_made is None or e.p_made_ci95 is None:
        made = f"{'':>6} {'':>13}"
    else:
        lo, hi = e.p_made_ci95
        made = f"{e.p_made:>6.1%} {f'{lo:.1%}..{hi:.1%}':>13}"
    ci = f"{cents_text(e.ci95[0])}..{cents_text(e.ci95[1])}"
    return f"{choice:<7} {way:<13} {made} {cents_text(e.mean):>8} {ci:>16} {e.samples:>6,}"


def _made(e: Estimate, count: bool = False) -> str:
    """", made in 33% of the (24) deals" where the contract is made or lost."""
    if e.p_made is None:
        return f" over {e.samples:,} deals" if count else ""
    return f", made in {e.p_made:.0%} of {f'{e.samples:,}' if count else 'the'} deals"


def _bounds(contract: TrickContract, ways: Mapping[str, Estimate]) -> str:
    """The double-dummy and heuristic figures of a choice, as the bounds they are."""
    parts = []
    dd = ways.get("double_dummy")
    if dd is not None:
        against = "" if contract.needs_declarer else ", the three others playing against you"
        parts.append(f"with every card seen by every player (double dummy{against}) "
                     f"{cents_text(dd.mean)}{_made(dd, count=True)}")
    h = ways["heuristic"]
    parts.append(f"at a table of weak players (the heuristic at every seat) "
                 f"{cents_text(h.mean)}{_made(h)}")
    return (f"Its bounds: {'; '.join(parts)}. A real table sees less than double dummy and "
            f"plays better than the heuristic.")


def _advice(model: str, contracts: Mapping[str, TrickContract],
            choices: Mapping[str, Mapping[str, Estimate]], best: str,
            margin: tuple[str, float, tuple[float, float]] | None) -> list[str]:
    e = choices[best]["strong"]
    title = contracts[best].title
    lo, hi = e.ci95
    worth = (f"with strong players at every seat ({model} playing all four hands) "
             f"{title} is worth {cents_text(e.mean)} cents to you on average (95% interval "
             f"{cents_text(lo)}..{cents_text(hi)}){_made(e)}.")
    if margin is None:
        return [f"Only {best} was weighed: {worth} There was nothing to compare it with.",
                _bounds(contracts[best], choices[best])]
    other, diff, (dlo, dhi) = margin
    verdict = (f"a clear difference over {e.samples:,} deals" if dlo > 0 else
               f"too close to call over {e.samples:,} deals: more samples would tell")
    out = [f"Recommendation: {best}. {worth[0].upper()}{worth[1:]}",
           f"That is {cents_text(diff)} cents a hand more than {contracts[other].title} (95% "
           f"interval of the difference {cents_text(dlo)}..{cents_text(dhi)}), {verdict}.",
           _bounds(contracts[best], choices[best])]
    weak = max(choices, key=lambda c: choices[c]["heuristic"].mean)
    if weak != best and choices[weak]["heuristic"].mean > choices[best]["heuristic"].mean:
        out.append(f"Against weak players {contracts[weak].title} would pay more "
                   f"({cents_text(choices[weak]['heuristic'].mean)}); against strong players "
                   f"it pays {cents_text(choices[weak]['strong'].mean)}.")
    return out


def report_lines(game: str, seat: int, dealer: int, stock: int, cards: str, unseen: int,
                 samples: int, seed: int, model: str, contracts: Mapping[str, TrickContract],
                 choices: Mapping[str, Mapping[str, Estimate]], best: str,
                 margin: tuple[str, float, tuple[float, float]] | None) -> list[str]:
    """The lines of the report: the hand, the table of estimates, the advice."""
    out = [f"{game}, seat {seat} holds {cards}; dealer seat {dealer}, stock {stock}c",
           f"{samples:,} sampled deals of the {unseen} unseen cards, seed {seed}; strong play: "
           f"{model} at every seat",
           "",
           f"{'choice':<7} {'play':<13} {'made':>6} {'95% CI':>13} {'cents':>8} "
           f"{'95% CI':>16} {'deals':>6}"]
    for c, ways in choices.items():
        for way, name in WAY_NAMES.items():
            if way in ways:
                out.append(_row(c, name, ways[way]))
    out.append("")
    out.extend(_advice(model, contracts, choices, best, margin))
    return out
