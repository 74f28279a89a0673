"""One deal in progress and what it carries to the next: :class:`Round` (the bidding, the play
through the one hand interface, the score), :class:`Carry` and :class:`Place` (the stock, the
dealer, the partie's place and its contract, the totals and a match's count), the bidding's
end (:func:`resolve`, :func:`settled`), and who plays what, where (:class:`Seating`, and
:func:`make_contract`, the one way to make a contract from its id and a declarer)."""

from herzla.round.bidding import resolve, settled
from herzla.round.place import (
    Carry,
    Place,
    dealer_of,
    fixed_contract,
    partie_length,
    partie_of,
)
from herzla.round.play import Round
from herzla.round.seating import Seated, Seating, make_contract

__all__ = ["Carry", "Place", "Round", "Seated", "Seating", "dealer_of", "fixed_contract",
           "make_contract", "partie_length", "partie_of", "resolve", "settled"]
