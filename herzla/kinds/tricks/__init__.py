"""Deals played in tricks: the reference engine (:class:`TrickHand`), the seat's view
(:class:`TrickView`) and the kind (:data:`TRICKS`, registered by the facade).
"""

from herzla.hand import Illegal, Trick
from herzla.kinds.tricks.engine import TrickHand
from herzla.kinds.tricks.kind import TRICKS, TrickKind
from herzla.kinds.tricks.view import TrickView, shown_voids

__all__ = ["TRICKS", "Illegal", "Trick", "TrickHand", "TrickKind", "TrickView", "shown_voids"]
