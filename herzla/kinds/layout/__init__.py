"""Deals played by laying cards out in rows: the reference engine (:class:`LayoutHand`), the
seat's view (:class:`LayoutView`), the move marks (:func:`mark`) and the kind (:data:`LAYOUT`),
registered by the facade (``herzla/__init__.py``).
"""

from herzla.kinds.layout.engine import LayoutHand
from herzla.kinds.layout.kind import LAYOUT, LayoutKind, row_keys
from herzla.kinds.layout.marks import mark
from herzla.kinds.layout.view import LayoutView

__all__ = ["LAYOUT", "LayoutHand", "LayoutKind", "LayoutView", "mark", "row_keys"]
