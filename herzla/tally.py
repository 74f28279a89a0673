"""Tallies: the score of a hand from what each seat took, without a full hand record.

This is the scoring-disputes lookup behind ``herzla score``: it checks that the tallies add up
(tricks, captured cards, hearts, the last trick, the order of going out) and hands them to the
contract's scoring hook as an :class:`~herzla.contracts.Outcome`.

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

from collections.abc import Sequence

from herzla.cards import HEARTS_MASK, Card, cards_of
from herzla.contracts import game_of
from herzla.contracts.base import (
    Contract,
    DealKind,
    HandScore,
    MissingTally,
    Outcome,
    TallyError,
)
from herzla.contracts.renege import renege_score
from herzla.limits import LimitError, check_stock

__all__ = ["score_tallies"]


def _renege(contract: Contract, seat: int, stock: int, *, order: Sequence[int] | None,
            left: Sequence[int] | None, aside: Sequence[Card] | None,
            others: dict[str, object]) -> HandScore:
    """The ruling on an established renege by ``seat``, from a tally."""
    n = contract.players
    given = [name for name, value in others.items() if value is not None]
    if given:
        raise TallyError(f"a renege ends the hand: give no {given[0]} with it (only order, "
                         f"left and aside)")
    try:
        check_stock(stock)
    except LimitError as exc:
        raise TallyError(str(exc)) from None
    if stock and not contract.has_stock:
        raise TallyError(f"{contract.game} has no stock")
    layout = contract.kind is DealKind.LAYOUT
    if not layout and (order is not None or left is not None):
        raise TallyError(f"{contract.game} {contract.id} is a trick deal: order and left are "
                         f"tallies of a layout deal")
    if order is not None and (len(set(order)) != len(order)
                              or any(not 0 <= s < n for s in order)):
        raise TallyError(f"order: the seats already out, each a seat from 0 to {n - 1} once")
    dealt = None
    if aside is not None:
        pack = contract.pack()
        if len(aside) != contract.leftovers or len(set(aside)) != len(aside):
            raise TallyError(f"aside: {contract.game} with {n} players lays "
                             f"{contract.leftovers} cards aside")
        for card in aside:
            if card not in pack:
                raise TallyError(f"{card} is not in the {pack.name} pack")
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
            raise TallyError(f"{name} is a tally of a renege only (give the renege's seat)")

    def per_seat(name: str, values: Sequence[object] | None) -> None:
        if values is not None and len(values) != n:
            raise TallyError(f"{name}: give one value per seat ({n} seats), not {len(values)}")

    per_seat("tricks", tricks)
    per_seat("hearts", hearts)
    per_seat("captured", captured)
    try:
        check_stock(stock)
    except LimitError as exc:
        raise TallyError(str(exc)) from None
    if stock and not contract.has_stock:
        raise TallyError(f"{contract.game} has no stock")
    if contract.kind is DealKind.LAYOUT:
        if tricks is not None or hearts is not None or captured is not None:
            raise TallyError(f"{contract.game} {contract.id} is a layout deal: give the order of "
                             f"going out, not tricks or cards")
        if order is None:
            raise MissingTally("this contract needs the order in which the seats went out",
                               ("order",))
        if sorted(order) != list(seats):
            raise TallyError(f"the order of going out must name each of the {n} seats once, "
                             f"not {' '.join(map(str, order))}")
        return contract.score(Outcome(n, order=tuple(order)), stock)
    if order is not None:
        raise TallyError(f"{contract.game} {contract.id} is a trick deal: there is no order of "
                         f"going out")
    per_hand = contract.hand_size
    pack = contract.pack()
    if tricks is not None:
        if min(tricks) < 0:
            raise TallyError("a seat cannot win fewer than 0 tricks")
        if sum(tricks) > per_hand or (made is None and not contract.needs_declarer
                                      and sum(tricks) != per_hand):
            raise TallyError(f"the tricks won add up to {sum(tricks)}, but {contract.game} with "
                             f"{n} players has {per_hand} tricks")
    masks: tuple[int, ...] | None = None
    if captured is not None:
        owner: dict[Card, int] = {}
        out = []
        for seat, cards in enumerate(captured):
            m = 0
            for card in cards:
                if card not in pack:
                    raise TallyError(f"{card} is not in the {pack.name} pack")
                if card in owner:
                    first = owner[card]
                    who = f"seats {first} and {seat}" if first != seat else f"seat {seat} twice"
                    raise TallyError(f"{card} is captured by {who}")
                owner[card] = seat
                m |= card.bit
            if tricks is not None and m.bit_count() > tricks[seat] * n:
                raise TallyError(f"seat {seat} won {tricks[seat]} tricks, so it cannot have "
                                 f"captured {m.bit_count()} cards")
            out.append(m)
        masks = tuple(out)
        if hearts is not None:
            got = tuple((m & HEARTS_MASK).bit_count() for m in masks)
            if tuple(hearts) != got:
                raise TallyError(f"the hearts given ({' '.join(map(str, hearts))}) do not match "
                                 f"the captured cards ({' '.join(map(str, got))})")
    heart_counts = tuple(hearts) if hearts is not None else None
    if heart_counts is not None:
        total = len(cards_of(pack.mask & HEARTS_MASK))
        if min(heart_counts) < 0:
            raise TallyError("a seat cannot capture fewer than 0 hearts")
        if sum(heart_counts) > total:
            raise TallyError(f"the hearts captured add up to {sum(heart_counts)}; the pack has "
                             f"{total}")
        if tricks is not None:
            for s in seats:
                if heart_counts[s] > tricks[s] * n:
                    raise TallyError(f"seat {s} won {tricks[s]} tricks, so it cannot have "
                                     f"captured {heart_counts[s]} hearts")
    if last_winner is not None:
        if not 0 <= last_winner < n:
            raise TallyError(f"seat {last_winner} is not a seat (seats are 0 to {n - 1})")
        if tricks is not None and tricks[last_winner] == 0:
            raise TallyError(f"seat {last_winner} won no trick, so it cannot have won the last")
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
