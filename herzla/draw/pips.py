"""The suits' signs as one SVG sprite for a page: each suit of each pack a ``<symbol>``
(``suit-french-2`` is the French heart, ``suit-german-0`` the Eichel's acorn), drawn as the
pictures of :mod:`herzla.draw.svg` draw them, for a page's cards to show with ``<use>``: a
card on a page is its suit's sign and its rank, never letters that read as another card's code.

>>> sprite = pip_sprite()
>>> sprite.count("<symbol"), 'id="suit-german-3"' in sprite
(8, True)
"""

from __future__ import annotations

from herzla.cards import Suit
from herzla.draw.faces import Faces
from herzla.draw.svg import _suit_shape

__all__ = ["pip_id", "pip_sprite"]


def pip_id(suit: Suit, faces: Faces) -> str:
    """The id of ``suit``'s sign in the sprite: ``suit-german-1`` (Gras)."""
    return f"suit-{faces.value}-{int(suit)}"


def pip_sprite() -> str:
    """Every suit's sign of both packs, as an ``<svg>`` of ``<symbol>``s that shows nothing
    itself (a page hides it by its class, ``pips``)."""
    symbols = "".join(f'<symbol id="{pip_id(s, f)}" viewBox="0 0 100 100">{_suit_shape(s, f)}'
                      f"</symbol>" for f in Faces for s in Suit)
    return (f'<svg class="pips" aria-hidden="true" '
            f'focusable="false" width="0" height="0">{symbols}</svg>')
