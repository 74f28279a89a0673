"""What one seat may know when it decides: the *views* an engine hands a policy.

A view holds the seat's own hand, every card played (laid) so far and by whom, the announcements,
the table (contract, options, dealer, stock) and the legal moves; never another seat's cards.
Each kind of deal builds its own from its engine's state (:class:`herzla.kinds.tricks.TrickView`,
:class:`herzla.kinds.layout.LayoutView`), so a policy cannot read the deal; :class:`BidView` is
the bidding's; :func:`view_of` makes the view of any hand's seat to move (its kind's), and
:func:`herzla.players.policy.decide_move` asks a policy for its move on it.

``uniform`` is the move's 32-bit random number from the simulation's seeded stream (the random
policy's choice; any policy may draw its randomness from it, which keeps a run reproducible).

>>> import herzla
>>> domino = herzla.deal_record("herzeln", "domino", 4, seed=3).start()
>>> view = view_of(domino, uniform=0)
>>> type(view).__name__, view.seat, [str(m) for m in view.legal_moves()]
('LayoutView', 0, ['CJ+', 'SJ+'])
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, overload

import attrs

from herzla.contracts import Contract
from herzla.hand import Hand
from herzla.kinds import kind_of
from herzla.kinds.layout import LayoutHand, LayoutView
from herzla.kinds.tricks import TrickHand, TrickView, shown_voids

__all__ = ["BidView", "LayoutView", "TrickView", "as_view", "shown_voids", "trick_view",
           "view_of", "views_of"]


@attrs.frozen(slots=True)
class BidView:
    """A seat's view when it announces: its hand and the announcements before it.

    ``contract`` is the contract played when nobody announces (its game's bidding names the
    others); ``announcements`` are those of the seats before it, from forehand.
    """

    contract: Contract
    seat: int
    hand: int
    dealer: int
    announcements: tuple[str, ...] = ()
    uniform: int = 0

    @property
    def players(self) -> int:
        return self.contract.players

    @property
    def forehand(self) -> bool:
        """Whether the seat leads to the first trick (it announces first)."""
        return self.seat == (self.dealer + 1) % self.contract.players

    @property
    def options(self) -> Mapping[str, Any]:
        return self.contract.opts


#: where a view made without a uniform draws one: seeded from the system's randomness once
_UNIFORMS = random.Random()


def view_of(hand: Hand, uniform: int | None = None, stock: int = 0,
            announcements: tuple[str, ...] = ()) -> TrickView | LayoutView:
    """The view of the seat to move in ``hand``, whatever the deal (``stock`` and the bidding's
    ``announcements`` matter only in trick deals).  ``uniform`` None (the default) draws the
    move's uniform from a stream seeded from the system's randomness, so that ``random`` plays
    a random card; the engines hand their seeded uniforms instead."""
    if uniform is None:
        uniform = _UNIFORMS.getrandbits(32)
    make = _VIEW_OF.get(type(hand))
    if make is None:  # the first hand of its engine: its kind's view, kept by the engine's type
        make = _VIEW_OF[type(hand)] = kind_of(hand).view
    view: TrickView | LayoutView = make(hand, uniform, stock, announcements)
    return view


#: each engine's kind's view (asked at every move, so looked up once for each engine)
_VIEW_OF: dict[type, Callable[..., Any]] = {}


def views_of(view: TrickView | LayoutView) -> tuple[TrickView | None, LayoutView | None]:
    """``(view, None)`` for a trick deal's view, ``(None, view)`` for a layout deal's (and
    ``(None, None)`` for another kind's, which such a policy plays by its legal moves alone):
    what a policy whose rules differ by kind (the heuristic's, ``net``, ``pimc``, ``expert``,
    the OpenSpiel bot, each playing the tricks its own way) asks."""
    # the policies' one question of kind: a policy's rules for the tricks read the tricks, its
    # rules for the rows the rows
    if isinstance(view, TrickView):
        return view, None
    return None, view if isinstance(view, LayoutView) else None


def trick_view(view: TrickView | LayoutView) -> TrickView | None:
    """``view`` where it is a trick deal's, else None (:func:`views_of`)."""
    return views_of(view)[0]


#: the views a policy is handed (a hand stands for one: :func:`as_view`)
_VIEWS = (TrickView, LayoutView)


@overload
def as_view(state: TrickView | TrickHand) -> TrickView: ...
@overload
def as_view(state: LayoutView | LayoutHand) -> LayoutView: ...
def as_view(state: TrickView | LayoutView | Hand) -> TrickView | LayoutView:
    """A view as it is; a hand stands for the view of its seat to move (:func:`view_of`)."""
    return state if isinstance(state, _VIEWS) else view_of(state, 0)
