"""Reneges: what an established renege costs, read from each contract's declaration.

A renege (a revoke) is a play that breaks a rule of play the seat could have kept: not following
suit when able, a heart led or discarded under a ban, a pass while able to lay, a layout card that
fits nowhere.  A card the seat does not hold, or a play after the end, is an error of the record,
not a renege.  Once play has gone on past it the renege is *established*, and the table's option
``renege`` settles it:

- ``penalty``: the hand ends at the renege.  In a deal with a declarer's contract (Beddl, Mord) a
  renege by the declarer loses the contract and one by a defender makes it.  In a layout deal the
  offender takes the last place, the seats already out keep theirs, and the others take the
  places between, fewest cards left first (equal counts in playing order from the offender's
  left).  In every other deal the offender scores the deal's whole stake against it (the sum of
  what every counting card and trick of the deal is worth: :meth:`TrickContract.whole_stake`),
  into the stock where the game has one; nobody else scores.
- ``redeal``: the hand does not count; the stock stays as it was.
- ``none``: no ruling.

Nothing here names a contract: each amount comes from the declaration (the card values, the
points per trick, the early end, the places) or from a contract's own ``whole_stake``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from herzla.contracts.base import Contract, HandScore, LayoutContract, TrickContract
from herzla.contracts.vocabulary import HAND_OVER, NOT_IN_HAND, MissingTally, TallyError
from herzla.contracts.words import cents, points, seat_word, tr
from herzla.hand import Outcome
from herzla.i18n import N_, _, ngettext
from herzla.options import Option

__all__ = ["RENEGE_OPTION", "Ruling", "is_renege", "places_after", "renege_option",
           "renege_score", "renege_text"]

#: the table's option: how an established renege is settled (every game lists it)
RENEGE_OPTION = Option(
    "renege", "penalty", ("penalty", "redeal", "none"),
    doc=N_("an established renege is settled by a penalty, the hand is dealt again, or it is not "
        "ruled on"), rule="renege", names=("renonce",))

#: the rules whose breach is an error of the record, not a renege
RECORD_ERRORS = frozenset({NOT_IN_HAND.id, HAND_OVER.id})


def is_renege(rule: str) -> bool:
    """Whether breaking ``rule`` (an illegal-play rule id) is a renege."""
    return rule not in RECORD_ERRORS


def renege_option(contract: Contract) -> str:
    """The table's ``renege`` option (``penalty`` where a plug-in game lists none)."""
    return str(contract.opts.get("renege", RENEGE_OPTION.default))


@attrs.frozen(slots=True)
class Ruling:
    """The ruling on a record's first illegal play, when it is a renege.

    ``established``: play went on past it.  Established: ``scores`` and ``stock`` as a replay's
    (the stock after the hand, games with a stock), ``events`` and ``explanation``; ``legal`` is
    None.  Corrected (not established): the card goes back, no penalty: ``scores`` and
    ``stock`` are None and ``legal`` lists what the seat could have played instead, as a record
    writes it.
    """

    seat: int
    established: bool
    option: str
    scores: tuple[int, ...] | None
    stock: int | None
    events: tuple[str, ...]
    legal: tuple[str, ...] | None
    explanation: tuple[str, ...]
    rule: str = "renege"

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "seat": self.seat, "established": self.established,
                "option": self.option,
                "scores": None if self.scores is None else list(self.scores),
                "stock": self.stock, "events": list(self.events),
                "legal": None if self.legal is None else list(self.legal),
                "explanation": list(self.explanation)}


def places_after(offender: int, players: int, out: Sequence[int],
                 left: Sequence[int] | None) -> tuple[int, ...]:
    """A layout deal's order of going out after an established renege by ``offender``: the
    seats in ``out`` keep their places, the offender is last, and the others go between, fewest
    cards ``left`` first, equal counts in playing order from the offender's left."""
    if offender in out:
        raise TallyError(_("{seat} is already out and cannot renege").format(
            seat=seat_word(offender)))
    rest = [(offender + k) % players for k in range(1, players)]
    rest = [s for s in rest if s not in out]
    if len(rest) > 1:
        if left is None:
            raise TallyError(_("placing the seats after a renege needs the cards each seat "
                               "still held (left)"))
        if len(left) != players or min(left) < 0:
            raise TallyError(_("left: give the cards each of the {n} seats still held").format(
                n=players))
        rest.sort(key=lambda s: left[s])  # a stable sort keeps the playing order of ties
    return (*out, *rest, offender)


def renege_score(contract: Contract, offender: int, lowest_wins: bool, stock: int = 0, *,
                 dealt: int | None = None, out: Sequence[int] = (),
                 left: Sequence[int] | None = None) -> HandScore:
    """The settlement of an established renege by seat ``offender`` (the table's ``renege``
    option: ``penalty`` or ``redeal``).

    ``dealt`` is the cards dealt (a bit set; default the whole pack, which is right wherever no
    card lies aside), ``out`` the seats already out and ``left`` the cards each seat still held
    (layout deals).  ``lowest_wins``: the game's scores are penalty points.  TallyError names what
    is missing or wrong.
    """
    n = contract.players
    if not 0 <= offender < n:
        raise TallyError(_("seat {seat} is not a seat (seats are 0 to {last})").format(
            seat=offender, last=n - 1))
    option = renege_option(contract)
    stock_after = stock if contract.has_stock else None
    cite = f"{contract.game}/renege"
    if option == "none":
        raise TallyError(_("the table plays renege=none: a renege is not ruled on; score the "
                           "hand as it was played"))
    if option == "redeal":
        said = (_("Seat {seat} reneged: the hand does not count and the same dealer deals "
                  "again; nobody scores, the stock stays as it was (rule {rule}; option "
                  "renege=redeal).") if contract.has_stock else
                _("Seat {seat} reneged: the hand does not count and the same dealer deals "
                  "again; nobody scores (rule {rule}; option renege=redeal)."))
        return HandScore((0,) * n, stock_after, ("renege", "redeal"), (
            said.format(seat=offender, rule=cite),))
    if isinstance(contract, LayoutContract):
        if left is not None:
            _check_left(contract, offender, out, left)
        order = places_after(offender, n, out, left)
        result = contract.score(Outcome(n, order=order), stock)
        return HandScore(result.scores, result.stock, ("renege", *result.events), (
            _("Seat {seat} reneged and takes the last place; {placed} (rule {rule}; option "
              "renege=penalty).").format(seat=offender, placed=_placed(out, order, offender),
                                         rule=cite), *result.explanation))
    assert isinstance(contract, TrickContract)
    declared = contract.declaration
    if declared.early_end is not None and contract.declarer is not None:
        made = offender != contract.declarer
        result = contract.score(Outcome(n, declarer=contract.declarer, made=made), stock)
        said = (_("Seat {seat}, the declarer, reneged: a renege by the declarer loses "
                  "{contract}, one by a defender makes it (rule {rule}; option renege=penalty).")
                if not made else
                _("Seat {seat}, a defender, reneged: a renege by the declarer loses {contract}, "
                  "one by a defender makes it (rule {rule}; option renege=penalty)."))
        return HandScore(result.scores, result.stock, ("renege", *result.events), (
            said.format(seat=offender, contract=tr(contract.title), rule=cite),
            *result.explanation))
    if dealt is None and contract.leftovers and any(v.points for v in declared.values):
        raise MissingTally(ngettext(
            "with {players} players {n} card lies aside, and the renege's stake counts only the "
            "cards dealt",
            "with {players} players {n} cards lie aside, and the renege's stake counts only the "
            "cards dealt", contract.leftovers).format(players=n, n=contract.leftovers),
            ("aside",))
    stake = contract.whole_stake(contract.pack().mask if dealt is None else dealt)
    against = stake if lowest_wins else -stake
    scores = tuple(against if s == offender else 0 for s in range(n))
    if contract.has_stock:
        assert stock_after is not None
        stock_after += stake
        said = _("Seat {seat} reneged and pays {amount} to the stock, the deal's whole stake "
                 "({stake}); nobody else pays or receives (rule {rule}; option renege=penalty).")
    else:
        said = _("Seat {seat} reneged and scores {amount}, the deal's whole stake ({stake}); "
                 "nobody else scores (rule {rule}; option renege=penalty).")
    return HandScore(scores, stock_after, ("renege",), (said.format(
        seat=offender, amount=cents(stake) if contract.has_stock else
        points(against) if against else "0", stake=contract.stake_text(), rule=cite),))


def _check_left(contract: Contract, offender: int, out: Sequence[int],
                left: Sequence[int]) -> None:
    """TallyError for cards left that no hand of the deal can have held at a renege: more than
    a hand, a seat already out holding cards, a seat still in (the offender among them) holding
    none."""
    n, size = contract.players, contract.hand_size
    if len(left) != n:
        raise TallyError(_("left: give the cards each of the {n} seats still held").format(n=n))
    for s, k in enumerate(left):
        if not 0 <= k <= size:
            raise TallyError(_("left: {seat} cannot have held {k} cards (a hand of {game} "
                               "{contract} with {n} players is {size} cards)").format(
                seat=seat_word(s), k=k, game=contract.game, contract=contract.id, n=n,
                size=size))
        if s in out and k:
            raise TallyError(_("left: {seat} is already out (order), so it held no card, "
                               "not {k}").format(seat=seat_word(s), k=k))
        if s not in out and not k:
            said = (_("left: {seat} reneged, so it still held a card, not 0") if s == offender
                    else _("left: {seat} is not out yet (order), so it still held a card, "
                           "not 0"))
            raise TallyError(said.format(seat=seat_word(s)))


def _placed(out: Sequence[int], order: Sequence[int], offender: int) -> str:
    kept = ngettext("seat {seats} keeps its place; ", "seats {seats} keep their places; ",
                    len(out)).format(seats=", ".join(map(str, out))) if out else ""
    rest = [s for s in order if s not in out and s != offender]
    between = (_("seat {seat} goes between").format(seat=rest[0]) if len(rest) == 1 else
               _("seats {seats} go between, fewest cards left first").format(
                   seats=", ".join(map(str, rest))) if rest else _("nobody goes between"))
    return kept + between


def renege_text(contract: Contract, lowest_wins: bool) -> str:
    """What an established renege costs in ``contract`` under ``renege=penalty``, in words."""
    title = tr(contract.title)
    if isinstance(contract, LayoutContract):
        return _("{contract}: the offender takes the last place; seats already out keep theirs "
                 "and the others go between, fewest cards left first.").format(contract=title)
    assert isinstance(contract, TrickContract)
    if contract.declaration.early_end is not None and contract.declarer is not None:
        return _("{contract}: a renege by the declarer loses the contract, one by a defender "
                 "makes it.").format(contract=title)
    stake = contract.whole_stake(contract.pack().mask)
    aside = ngettext(" (less what lies aside with {n} leftover card)",
                     " (less what lies aside with {n} leftover cards)",
                     contract.leftovers).format(n=contract.leftovers) if contract.leftovers else ""
    if contract.has_stock:
        what = _("the offender pays {amount}{aside} to the stock").format(amount=cents(stake),
                                                                           aside=aside)
    elif lowest_wins:
        what = ngettext("the offender scores {n} penalty point{aside}",
                        "the offender scores {n} penalty points{aside}", stake).format(
            n=stake, aside=aside)
    else:
        what = _("the offender scores {points}{aside}").format(points=points(-stake),
                                                               aside=aside)
    return _("{contract}: {what}, the deal's whole stake ({stake}).").format(
        contract=title, what=what, stake=contract.stake_text())
