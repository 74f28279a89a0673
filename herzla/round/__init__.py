"""One deal in progress and what it carries to the next: :class:`Round` (the bidding, the play
through the one hand interface, the score), :class:`Carry` and :class:`Place` (the stock, the
dealer, the partie's place and its contract, the totals and a match's count), and the bidding's
end (:func:`resolve`, :func:`settled`)."""

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

__all__ = ["Carry", "Place", "Round", "dealer_of", "fixed_contract", "partie_length",
           "partie_of", "resolve", "settled"]
