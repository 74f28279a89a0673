"""The policy interface: a player that chooses a seat's announcement and its cards from a view.

A policy subclasses :class:`Policy` and writes :meth:`Policy.card` (trick deals) and, where it
plays layout deals, :meth:`Policy.lay`; :meth:`Policy.announce` defaults to the bidding
heuristic.  Its parameters are attrs fields with defaults (``pimc[samples=32]`` sets one); a
policy without fields has none.  A policy may offer a batch form for the numpy engine
(:meth:`Policy.batch_form`); without one the batch engine hands its deals to the reference
engine.

>>> import attrs
>>> from herzla.players.views import TrickView
>>> @attrs.frozen
... class Lowest(Policy):
...     name = "lowest"
...     def card(self, view: TrickView) -> Card:
...         return view.legal_plays[0]
>>> Lowest().spec()
'lowest'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from herzla.cards import Card
from herzla.layout import Lay
from herzla.names import did_you_mean, find_name
from herzla.players.views import BidView, LayoutView, TrickView
from herzla.quote import quote

if TYPE_CHECKING:
    from herzla.sim.batch_forms import BatchForm

__all__ = ["Policy", "PolicyError"]


class PolicyError(ValueError):
    """A policy that cannot be named or built, with the problem in one sentence."""


class Policy:
    """The base class of every policy (built-in or a plug-in's)."""

    #: the policy's name, as ``--policy`` takes it
    name: ClassVar[str] = ""

    def announce(self, view: BidView) -> str:
        """The seat's announcement: a contract id of its game's bidding, or ``pass``.  The
        default is the bidding heuristic (:func:`herzla.players.heuristic.announce`)."""
        from herzla.players.heuristic import announce

        return announce(view.hand, view.contract, view.forehand)

    def card(self, view: TrickView) -> Card:
        """The card the seat plays (one of ``view.legal_plays``)."""
        raise NotImplementedError(f"the policy {self.spec()} plays no trick deals")

    def lay(self, view: LayoutView) -> Lay | None:
        """The seat's lay (one of ``view.legal_moves()``), or None to pass (only when it has
        none).  The default lays the first legal move."""
        moves = view.legal_moves()
        return moves[0] if moves else None

    def batch_form(self) -> BatchForm | None:
        """The policy written for the numpy batch engine, or None (the reference engine plays)."""
        return None

    # -- parameters -------------------------------------------------------------------------
    @classmethod
    def parameters(cls) -> dict[str, Any]:
        """The policy's parameters and their defaults (its attrs fields)."""
        if not attrs.has(cls):
            return {}
        return {f.name: f.default for f in attrs.fields(cls)
                if f.default is not attrs.NOTHING}

    def with_params(self, given: Mapping[str, str]) -> Policy:
        """A copy with parameters set from text (``samples=32``); PolicyError names a parameter
        the policy does not have or a value that is not of its type."""
        known = self.parameters()
        values: dict[str, Any] = {}
        for given_key, text in given.items():
            key = find_name(given_key, known) or given_key
            if key not in known:
                have = ", ".join(known) or "none"
                raise PolicyError(f"the policy {self.name or type(self).__name__} has no "
                                  f"parameter {quote(given_key)} "
                                  f"({did_you_mean(given_key, known)}its parameters: {have})")
            kind = type(known[key])
            try:
                if kind is bool:
                    if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                        raise ValueError(text)
                    values[key] = text.lower() in ("true", "1", "yes")
                else:
                    values[key] = kind(text)
            except ValueError:
                what = {int: "a whole number", float: "a number", bool: "true or false"}.get(
                    kind, kind.__name__)
                raise PolicyError(f"parameter {key} of the policy {self.name}: {quote(text)} "
                                  f"is not {what}") from None
        if not values:
            return self
        try:
            return attrs.evolve(self, **values)  # type: ignore[misc]
        except (TypeError, ValueError) as exc:
            raise PolicyError(f"the policy {self.name}: {exc}") from None

    def spec(self) -> str:
        """The policy as ``--policy`` names it, with the parameters that differ from their
        defaults."""
        name = self.name or f"{type(self).__module__}:{type(self).__qualname__}"
        if not attrs.has(type(self)):
            return name
        changed = [f"{k}={getattr(self, k)}" for k, d in self.parameters().items()
                   if getattr(self, k) != d]
        return f"{name}[{','.join(changed)}]" if changed else name
