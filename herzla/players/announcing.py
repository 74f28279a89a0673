"""The bidding heuristic: the announcement of a seat from its own hand, and the contract the
announcements settle on (its rules are told with the other heuristics' in
:mod:`herzla.players.heuristic`).

>>> from herzla.contracts import contract_class
>>> from herzla.cards import mask_of, parse_cards
>>> normal = contract_class("herzla", "normal")()
>>> announce(mask_of(parse_cards("C9 SJ S8 HJ HT H8 DJ D8")), normal)
'beddl'
"""

from __future__ import annotations

import functools

from herzla.cards import Card, Pack, Rank, RankOrder, Suit, cards_of
from herzla.contracts import Contract, EarlyEnd, contract_class, game_of
from herzla.round import resolve, settled

__all__ = ["announce", "bidding_contracts", "resolve", "settled", "sure_winners", "top_ranks",
           "wants_to_avoid"]


def top_ranks(contract: Contract, count: int = 3) -> tuple[Rank, ...]:
    """The ``count`` highest ranks of the contract's pack in its rank order."""
    return _suits_high_to_low(contract.pack(), contract.rank_order())[1][:count]


@functools.lru_cache(maxsize=32)
def _suits_high_to_low(pack: Pack, order: RankOrder
                       ) -> tuple[tuple[tuple[int, ...], ...], tuple[Rank, ...]]:
    """Per suit, the pack's cards (bits) from the highest down; and the pack's ranks so."""
    present = {c.rank for c in pack.cards}
    ranks = tuple(r for r in order.high_to_low if r in present)
    suits = tuple(tuple(Card(s, r).bit for r in order.high_to_low if Card(s, r) in pack)
                  for s in Suit)
    return suits, ranks


def sure_winners(hand: int, contract: Contract) -> int:
    """The cards sure to win their tricks once the seat has the lead, added up over the suits.

    In a suit: the unbroken run of top cards from the highest rank down; or the whole holding
    when that run is at least as long as the other seats' cards of the suit (they are gone after
    as many rounds, the worst case being one seat holding them all).
    """
    total = 0
    for bits in _suits_high_to_low(contract.pack(), contract.rank_order())[0]:
        held = sum(1 for b in bits if hand & b)
        run = 0
        for b in bits:
            if not hand & b:
                break
            run += 1
        total += held if run >= min(held, len(bits) - held) else run
    return total


def bidding_contracts(contract: Contract) -> list[type[Contract]]:
    """The contract classes the game's bidding chooses between, in code order (the first is the
    one played when nobody announces)."""
    game = game_of(contract)
    return [contract_class(game.id, i) for i in game.bidding]


def wants_to_avoid(cls: type[Contract]) -> bool:
    """Whether a declarer's contract asks the declarer to win no trick (else every trick)."""
    return getattr(cls, "early_end", None) is EarlyEnd.DECLARER_WINS


def announce(hand: int, contract: Contract, forehand: bool = True) -> str:
    """The bidding heuristic's announcement for one hand: a contract id of the game's bidding,
    or ``pass``.

    A contract whose declarer must win no trick (Beddl) without any card of the three highest
    ranks; one whose declarer must win every trick (Mord) when every card is a sure winner
    (:func:`sure_winners`) and the seat leads to the first trick or holds every suit (else the
    first trick may be led in a suit it lacks).  The first that fits, in code order.
    """
    cards = cards_of(hand)
    tops = top_ranks(contract)
    no_top = not any(c.rank in tops for c in cards)
    all_sure = (sure_winners(hand, contract) == len(cards)
                and (forehand or len({c.suit for c in cards}) == 4))
    for cls in bidding_contracts(contract)[1:]:
        if no_top if wants_to_avoid(cls) else all_sure:
            return cls.id
    return "pass"
