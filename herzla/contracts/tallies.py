"""Tallies: the score of a hand from what each seat took, without a full hand record.

This is the scoring-disputes lookup behind ``herzla score``: it checks that the tallies add up
(tricks, captured cards, hearts, the last trick, the order of going out) and hands them to the
contract's scoring hook as an :class:`~herzla.contracts.Outcome`.  It plays nothing, so it sits
beside the contracts it reads, not among the engines (herzla 0.2 called it ``herzla.tally``).

>>> from herzla.contracts import contract_class
>>> contract = contract_class("herzla", "normal")(4)
>>> score_tallies(contract, hearts=[0, 3, 5, 0]).scores
(40, -30, -50, 40)
>>> score_tallies(contract, tricks=[3, 3, 2, 1])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
herzla.contracts.vocabulary.TallyError: the tricks won add up to 9, but herzla with 4 players ...
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from herzla.cards import HEARTS_MASK, Card, CardError, cards_of, parse_cards
from herzla.contracts import UnknownContract, contract_class, game_of
from herzla.contracts.base import (
    Contract,
    HandScore,
    MissingTally,
    Outcome,
    TallyError,
)
from herzla.contracts.renege import renege_score
from herzla.counting import read_whole
from herzla.i18n import _
from herzla.limits import LimitError, check_carried_stock, whole_number
from herzla.options import OptionError
from herzla.quote import quote

__all__ = ["SCORE_ERRORS", "TallyScore", "numbers_of", "score_hand", "score_tallies"]


def _check_stock(contract: Contract, stock: int) -> None:
    """TallyError for a stock beyond the limit, or one where the game has none."""
    try:
        check_carried_stock(stock)
    except LimitError as exc:
        raise TallyError(str(exc)) from None
    if stock and not contract.has_stock:
        raise TallyError(_('{game} has no stock').format(
                             game=contract.game))


def _renege(contract: Contract, seat: int, stock: int, *, order: Sequence[int] | None,
            left: Sequence[int] | None, aside: Sequence[Card] | None,
            others: dict[str, object]) -> HandScore:
    """The ruling on an established renege by ``seat``, from a tally."""
    n = contract.players
    given = [name for name, value in others.items() if value is not None]
    if given:
        raise TallyError(_('a renege ends the hand: give no {given} with it (only order, left '
                             'and aside)').format(
                             given=given[0]))
    _check_stock(contract, stock)
    layout = "order" in contract.tallies  # scored by the order of going out
    if not layout and (order is not None or left is not None):
        raise TallyError(_('{game} {id} is a trick deal: order and left are tallies of a '
                             'layout deal').format(
                             game=contract.game, id=contract.id))
    if order is not None and (len(set(order)) != len(order)
                              or any(not 0 <= s < n for s in order)):
        raise TallyError(_('order: the seats already out, each a seat from 0 to {value} '
                           'once').format(
                             value=n - 1))
    dealt = None
    if aside is not None:
        pack = contract.pack()
        if len(aside) != contract.leftovers or len(set(aside)) != len(aside):
            raise TallyError(_('aside: {game} with {n} players lays {leftovers} cards '
                               'aside').format(
                                 game=contract.game, n=n, leftovers=contract.leftovers))
        for card in aside:
            if card not in pack:
                raise TallyError(_('{card} is not in the {name} pack').format(
                                     card=card, name=pack.name))
        dealt = pack.mask & ~sum(c.bit for c in aside)
    return renege_score(contract, seat, game_of(contract).lowest_wins, stock, dealt=dealt,
                        out=tuple(order or ()), left=left)


def score_tallies(
    contract: Contract,
    *,
    tricks: Sequence[int] | None = None,
    hearts: Sequence[int] | None = None,
    captured: Sequence[Sequence[Card]] | None = None,
    last_winner: int | None = None,
    order: Sequence[int] | None = None,
    made: bool | None = None,
    stock: int = 0,
    renege: int | None = None,
    aside: Sequence[Card] | None = None,
    left: Sequence[int] | None = None,
) -> HandScore:
    """Check the tallies against each other and the pack, then score them.

    ``renege``: the seat whose established renege ended the hand; the table's ``renege`` option
    rules on it (herzla rules renege) from nothing but ``order`` (layout deals: the seats
    already out), ``left`` (the cards each seat still held) and ``aside`` (the cards lying
    aside, where some do and they count).
    """
    n = contract.players
    seats = range(n)
    if renege is not None:
        return _renege(contract, renege, stock, order=order, left=left, aside=aside,
                       others=dict(tricks=tricks, hearts=hearts, captured=captured,
                                   last_winner=last_winner, made=made))
    for name, given in (("aside", aside), ("left", left)):
        if given is not None:
            raise TallyError(_("{name} is a tally of a renege only (give the renege's "
                               "seat)").format(
                                 name=name))

    def per_seat(name: str, values: Sequence[object] | None) -> None:
        if values is not None and len(values) != n:
            raise TallyError(_('{name}: give one value per seat ({n} seats), not {count}').format(
                                 name=name, n=n, count=len(values)))

    per_seat("tricks", tricks)
    per_seat("hearts", hearts)
    per_seat("captured", captured)
    _check_stock(contract, stock)
    if "order" in contract.tallies:  # the seats went out in an order
        if tricks is not None or hearts is not None or captured is not None:
            raise TallyError(_('{game} {id} is a layout deal: give the order of going out, not '
                                 'tricks or cards').format(
                                 game=contract.game, id=contract.id))
        if order is None:
            raise MissingTally(_("this contract needs the order in which the seats went out"),
                               ("order",))
        if sorted(order) != list(seats):
            raise TallyError(_('the order of going out must name each of the {n} seats once, not '
                                 '{items}').format(
                                 n=n, items=' '.join(map(str, order))))
        return contract.score(Outcome(n, order=tuple(order)), stock)
    if order is not None:
        raise TallyError(_('{game} {id} is a trick deal: there is no order of going out').format(
                             game=contract.game, id=contract.id))
    per_hand = contract.hand_size
    pack = contract.pack()
    if tricks is not None:
        if min(tricks) < 0:
            raise TallyError(_("a seat cannot win fewer than 0 tricks"))
        if sum(tricks) > per_hand or (made is None and not contract.needs_declarer
                                      and sum(tricks) != per_hand):
            raise TallyError(_('the tricks won add up to {total}, but {game} with {n} players has '
                                 '{per_hand} tricks').format(
                                 total=sum(tricks), game=contract.game, n=n, per_hand=per_hand))
    masks: tuple[int, ...] | None = None
    if captured is not None:
        owner: dict[Card, int] = {}
        out = []
        for seat, cards in enumerate(captured):
            m = 0
            for card in cards:
                if card not in pack:
                    raise TallyError(_('{card} is not in the {name} pack').format(
                                         card=card, name=pack.name))
                if card in owner:
                    first = owner[card]
                    who = (_("seats {first} and {seat}") if first != seat
                           else _("seat {seat} twice")).format(first=first, seat=seat)
                    raise TallyError(_('{card} is captured by {who}').format(
                                         card=card, who=who))
                owner[card] = seat
                m |= card.bit
            if tricks is not None and m.bit_count() > tricks[seat] * n:
                raise TallyError(_('seat {seat} won {tricks} tricks, so it cannot have captured '
                                     '{bit_count} cards').format(
                                     seat=seat, tricks=tricks[seat], bit_count=m.bit_count()))
            out.append(m)
        masks = tuple(out)
        if hearts is not None:
            got = tuple((m & HEARTS_MASK).bit_count() for m in masks)
            if tuple(hearts) != got:
                raise TallyError(_('the hearts given ({items}) do not match the captured cards '
                                     '({items2})').format(
                                     items=" ".join(map(str, hearts)),
                                     items2=" ".join(map(str, got))))
    heart_counts = tuple(hearts) if hearts is not None else None
    if heart_counts is not None:
        total = len(cards_of(pack.mask & HEARTS_MASK))
        if min(heart_counts) < 0:
            raise TallyError(_("a seat cannot capture fewer than 0 hearts"))
        if sum(heart_counts) > total:
            raise TallyError(_('the hearts captured add up to {total}; the pack has '
                               '{total2}').format(
                                 total=sum(heart_counts), total2=total))
        if tricks is not None:
            for s in seats:
                if heart_counts[s] > tricks[s] * n:
                    raise TallyError(_('seat {s} won {tricks} tricks, so it cannot have captured '
                                         '{heart_counts} hearts').format(
                                         s=s, tricks=tricks[s], heart_counts=heart_counts[s]))
    if last_winner is not None:
        if not 0 <= last_winner < n:
            raise TallyError(_('seat {last_winner} is not a seat (seats are 0 to {value})').format(
                                 last_winner=last_winner, value=n - 1))
        if tricks is not None and tricks[last_winner] == 0:
            raise TallyError(_('seat {last_winner} won no trick, so it cannot have won the '
                               'last').format(
                                 last_winner=last_winner))
    outcome = Outcome(
        n,
        captured=masks,
        tricks=tuple(tricks) if tricks is not None else None,
        hearts=heart_counts,
        last_winner=last_winner,
        declarer=contract.declarer,
        made=made,
    )
    return contract.score(outcome, stock)


#: what :func:`score_hand` raises for input that cannot be scored (each a ValueError whose
#: message is one line naming the problem)
SCORE_ERRORS = (UnknownContract, OptionError, TallyError, CardError, LimitError)


@attrs.frozen(slots=True)
class TallyScore:
    """A hand scored from its tallies (:func:`score_hand`): the contract and its score."""

    contract: Contract
    score: HandScore

    def to_dict(self) -> dict[str, Any]:
        """What ``herzla score --json`` answers."""
        c, s = self.contract, self.score
        return {"game": c.game, "contract": c.id, "players": c.players,
                "scores": list(s.scores), "stock": s.stock if c.has_stock else None,
                "events": list(s.events), "explanation": list(s.explanation)}


def numbers_of(text: str, what: str) -> list[int]:
    """The whole numbers of a text a person typed, one per seat (``"2,3,1,2"``, ``"2 3 1 2"``);
    TallyError names ``what`` and the text.

    >>> numbers_of("0, 3,5 0", "hearts")
    [0, 3, 5, 0]
    """
    parts = text.replace(",", " ").split()
    if any(len(p) > 20 for p in parts):
        raise TallyError(_('{what} {given}: a number is too long').format(
                             what=what, given=quote(text)))
    numbers = [read_whole(p, signed=True, digits=20) for p in parts]
    if None in numbers:
        raise TallyError(_('{what} {given}: write whole numbers, one per seat, e.g. '
                           '2,3,1,2').format(
                             what=what, given=quote(text)))
    return [n for n in numbers if n is not None]


def _numbers(name: str, values: object) -> list[int] | None:
    if values is None:
        return None
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence):
        raise TallyError(_('{name}: give a list of whole numbers, one per seat, not '
                           '{given}').format(
                             name=name, given=quote(values)))
    return [whole_number(v, name, TallyError) for v in values]


def _cards(values: object) -> list[list[Card]] | None:
    """Each seat's captured cards: a text of card codes (``"HA H7"``; ``"-"`` or ``""`` for
    none) or a list of codes or cards."""
    if values is None:
        return None
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Sequence):
        raise TallyError(_('captured: give the cards of each seat, one entry per seat, not '
                             '{given}').format(
                             given=quote(values)))
    out: list[list[Card]] = []
    for seat in values:
        if isinstance(seat, str):
            out.append([] if seat.strip() in ("-", "") else parse_cards(seat))
        elif isinstance(seat, Sequence) and not isinstance(seat, bytes):
            out.append([c if isinstance(c, Card) else parse_cards(_code(c))[0] for c in seat])
        else:
            raise TallyError(_('captured: {given} is not a list of cards').format(
                                 given=quote(seat)))
    return out


def _code(value: object) -> str:
    if not isinstance(value, str) or len(value.split()) != 1:
        raise TallyError(_('captured: {given} is not a card code').format(
                             given=quote(value)))
    return value


def score_hand(
    game: str,
    contract: str,
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    declarer: int | None = None,
    tricks: Sequence[int] | None = None,
    hearts: Sequence[int] | None = None,
    captured: Sequence[str | Sequence[Card | str]] | None = None,
    last_winner: int | None = None,
    order: Sequence[int] | None = None,
    made: bool | None = None,
    stock: int = 0,
    renege: int | None = None,
    left: Sequence[int] | None = None,
    aside: str | Sequence[Card | str] | None = None,
) -> TallyScore:
    """Score one hand of ``game``'s ``contract`` from its tallies, as ``herzla score`` does:
    the contract built (``players`` seats, default the game's usual; ``options`` by name;
    ``declarer`` for the contracts that have one), the values checked (they may come from JSON:
    whole numbers, lists of them, each seat's captured cards as codes), then
    :func:`score_tallies`.

    Raises :class:`~herzla.contracts.UnknownContract`, :class:`~herzla.options.OptionError`,
    :class:`~herzla.contracts.TallyError` (:class:`~herzla.contracts.MissingTally` naming the
    tallies the contract needs; its message names the contract), :class:`~herzla.cards.CardError`,
    :class:`~herzla.limits.LimitError`: each a ValueError with one line naming the problem.

    >>> score_hand("herzla", "normal", hearts=[0, 3, 5, 0], stock=80).to_dict()["scores"]
    [80, -30, -50, 80]
    """
    cls = contract_class(game, contract)
    if declarer is not None and not cls.needs_declarer:
        raise OptionError(_('{game} {id} has no declarer').format(
                              game=cls.game, id=cls.id))
    if made is not None and not isinstance(made, bool):
        raise TallyError(_('made: give true or false, not {given}').format(
                             given=quote(made)))
    if options is not None and not isinstance(options, Mapping):
        raise OptionError(_('options: give an object of option names and values, not '
                            '{given}').format(
                              given=quote(options)))
    built = cls(players, options, declarer)
    try:
        result = score_tallies(
            built, tricks=_numbers("tricks", tricks), hearts=_numbers("hearts", hearts),
            captured=_cards(captured),
            last_winner=None if last_winner is None else whole_number(
                last_winner, "the last trick's winner", TallyError),
            order=_numbers("order", order), made=made,
            stock=whole_number(stock, "stock", TallyError),
            renege=None if renege is None else whole_number(renege, "renege", TallyError),
            left=_numbers("left", left), aside=_aside(aside))
    except MissingTally as exc:  # the contract named, as the caller gave no record of it
        named = str(exc).replace(_("this contract"), f"{built.game} {built.id}", 1)
        raise MissingTally(named, exc.needs) from None
    return TallyScore(built, result)


def _aside(values: object) -> list[Card] | None:
    """The cards lying aside: a text of card codes or a list of codes or cards."""
    if values is None:
        return None
    if isinstance(values, str):
        return parse_cards(values)
    if isinstance(values, (bytes, Mapping)) or not isinstance(values, Sequence):
        raise TallyError(_('aside: give the cards lying aside, not {given}').format(
                             given=quote(values)))
    return [c if isinstance(c, Card) else parse_cards(_code(c))[0] for c in values]
