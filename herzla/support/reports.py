"""The texts of ``herzla score`` and ``herzla replay`` for people, in the current language
(:mod:`herzla.i18n`): a hand's score and a record's replay, each seat's score, the stock, the
explanation and the ruling."""

from __future__ import annotations

from typing import Any

from herzla.contracts import Contract
from herzla.hand import HandScore
from herzla.i18n import _, ngettext
from herzla.kinds import kind_of
from herzla.support.words import cent_sign, seat_scores

__all__ = ["replay_report", "score_report"]


def score_report(contract: Contract, result: HandScore) -> str:
    """The text ``herzla score`` prints: the contract, each seat's score, the stock and the
    explanation of one hand's score."""
    unit = cent_sign() if contract.has_stock else ""
    out = [ngettext("{game} {contract}, {n} player", "{game} {contract}, {n} players",
                    contract.players).format(game=contract.game, contract=contract.id,
                                             n=contract.players),
           _("Scores: {scores}").format(scores=seat_scores(result.scores, unit))]
    if contract.has_stock:
        out.append(_("Stock: {stock}").format(stock=f"{result.stock}{cent_sign()}"))
    out += [f"- {line}" for line in result.explanation]
    return "\n".join(out)


def replay_report(result: Any) -> str:
    """The text ``herzla replay`` prints for one record (``result``, a
    :class:`herzla.records.ReplayResult`)."""
    r = result.record
    unit = cent_sign() if r.contract.has_stock else ""
    head = ngettext("{game} {contract}, {n} player, dealer seat {dealer}, forehand seat "
                    "{forehand}", "{game} {contract}, {n} players, dealer seat {dealer}, "
                    "forehand seat {forehand}", r.players).format(
        game=r.game, contract=r.contract_id, n=r.players, dealer=r.dealer, forehand=r.forehand)
    if r.declarer is not None:
        head += _(", declarer seat {declarer}").format(declarer=r.declarer)
    out = [head]
    out += kind_of(r.contract).report(result.shown)
    status = _("complete") if result.complete else _("not complete")
    if result.illegal is not None:
        status = _("illegal {where}, rule {rule}").format(where=result.illegal.where(),
                                                          rule=result.illegal.rule)
    out.append(_("Status: {status}").format(status=status))
    if result.scores is not None:
        out.append(_("Scores: {scores}").format(scores=seat_scores(result.scores, unit)))
    if result.stock is not None:
        out.append(_("Stock: {stock}").format(stock=f"{result.stock}{cent_sign()}"))
    if result.score is not None and result.score.events:
        out.append(_("Events: {events}").format(events=", ".join(result.score.events)))
    out += [f"- {line}" for line in result.explanation]
    ruling = result.ruling
    if ruling is not None:
        if ruling.established:
            out.append(_("Ruling: the renege is established (option renege={option})").format(
                option=ruling.option))
        else:
            out.append(_("Ruling: the renege is corrected, no penalty"))
        if ruling.scores is not None:
            out.append(_("Scores by the ruling: {scores}").format(
                scores=seat_scores(ruling.scores, unit)))
        if ruling.stock is not None:
            out.append(_("Stock by the ruling: {stock}c").format(stock=ruling.stock))
        out += [f"- {line}" for line in ruling.explanation]
    return "\n".join(out)
