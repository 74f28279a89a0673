"""The root of herzla's own errors: :class:`HerzlaError`.

Every error herzla raises for a reason of its own (a move the rules refuse, a score asked for
before the hand is over, a record that is not one) can be caught as a ``HerzlaError``; each
concrete error also derives from the built-in error it has always been (most are
``ValueError``s), so code written against either keeps working.
"""

from __future__ import annotations

__all__ = ["HerzlaError"]


class HerzlaError(Exception):
    """The base class of herzla's own errors."""
