"""The built-in policy ``net``: strong play at simulator speed, a small learned model
(:mod:`herzla.players.netmodel`) whose weights ship in the package.

It plays each trick deal's card by the model; in a game or contract the model was not trained on
(:attr:`NetPolicy.trained`), and in layout deals, it plays as the heuristic and its
:meth:`~NetPolicy.explain` says so.  It announces with the bidding heuristic.  Its batch form is
:data:`herzla.sim.batch.NET` (named by :class:`NetForm`): the same features and the same exact
whole-number arithmetic on many hands at once, so both engines choose the same cards.
``tools/train_net.py`` writes the weights; the Policies page of the docs says what it learned from
and how to retrain it, for a plug-in contract too.

Parameters: ``weights`` (default: the shipped model), a path to another ``.npz`` the training
script wrote.
"""

from __future__ import annotations

import attrs
import numpy as np

from herzla.cards import Card, cards_of
from herzla.hand import Move
from herzla.i18n import _
from herzla.players.builtin import explain_heuristic
from herzla.players.heuristic import heuristic_card, heuristic_move
from herzla.players.netmodel import (
    SCORE_UNIT,
    ContractRead,
    Model,
    Seen,
    card_features,
    choose_slots,
    load_model,
    read_contract,
)
from herzla.players.policy import BuiltinForm, Hint, Policy
from herzla.players.views import LayoutView, TrickView, trick_view

__all__ = ["NetForm", "NetPolicy", "seen_of"]


def _as_heuristic(view: TrickView | LayoutView) -> Hint:
    h = explain_heuristic(view)
    return Hint(h.move, reason=_("the learned player was not taught {game} {contract}: it plays "
                                 "as a plain player ({reason})").format(
        game=view.contract.game, contract=view.contract.id, reason=h.reason))


@attrs.frozen(slots=True)
class NetForm(BuiltinForm):
    """Names the net's batch form (:data:`herzla.sim.batch.NET`), with the model's file."""

    weights: str = ""


def seen_of(view: TrickView, read: ContractRead) -> Seen:
    """What the seat of ``view`` has seen, in the model's slots (one row)."""
    P = view.players
    me = view.seat
    st = view.contract.rank_order().strength
    played = 0
    won = [0] * P
    tricks = [0] * P
    voids = [0] * P
    for t in view.tricks:
        if t.winner is not None:
            won[t.winner] |= sum(c.bit for c in t.cards)
            tricks[t.winner] += 1
    for s, suits in enumerate(view.voids()):
        for suit in suits:
            voids[s] |= 1 << int(suit)
    for _seat, c in view.plays():
        played |= c.bit
    top = 0
    if view.trick:
        led = view.trick[0].suit
        best = max((c for c in view.trick if c.suit == led), key=lambda c: st[c.rank])
        top = best.bit
    decl = view.contract.declarer
    winner = -1 if view.winner is None else (view.winner - me) % P

    def one(x: int) -> np.ndarray:
        return np.array([read.mask(x)], dtype=np.uint64)

    def ints(x: int) -> np.ndarray:
        return np.array([x], dtype=np.int64)

    return Seen(one(view.hand), one(view.legal), one(played),
                one(sum(c.bit for c in view.trick)), one(top), ints(len(view.trick)),
                ints(len(view.tricks)),
                [one(won[(me + r) % P]) for r in range(P)],
                [ints(tricks[(me + r) % P]) for r in range(P)],
                [ints(voids[(me + r) % P]) for r in range(P)],
                ints(winner), ints(-1 if decl is None else (decl - me) % P))


@attrs.frozen(slots=True)
class NetPolicy(Policy):
    """Each legal card scored by the model, the best played (see the module notes)."""

    name = "net"

    weights: str = attrs.field(default="")

    @weights.validator
    def _check_weights(self, _attr: object, value: str) -> None:
        if not value:
            return
        try:
            load_model(value)
        except (OSError, ValueError, KeyError, EOFError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise ValueError(_("cannot read the model {value}: {reason} (a file "
                               "tools/train_net.py wrote)").format(
                value=value, reason=reason)) from None

    def model(self) -> Model:
        return load_model(self.weights or None)

    def trained(self, view: TrickView) -> bool:
        """Whether the model was trained on the view's game and contract."""
        return self.model().knows(read_contract(view.contract))

    def move(self, view: TrickView | LayoutView) -> Move:
        own = trick_view(view)
        return heuristic_move(view) if own is None else Move(self._card(own))

    def _card(self, view: TrickView) -> Card:
        legal = view.legal
        if legal & (legal - 1) == 0:
            return cards_of(legal)[0]
        read = read_contract(view.contract)
        model = self.model()
        if not model.knows(read):
            return heuristic_card(view)
        slot = int(choose_slots(model, seen_of(view, read), read)[0])
        for c in cards_of(legal):
            if read.slots[c.index] == slot:
                return c
        raise AssertionError("the model chose no legal card")  # pragma: no cover

    def scores(self, view: TrickView) -> dict[Card, float] | None:
        """Each legal card's score under the model (higher is better; the units of its hint),
        or None in a contract the model was not trained on."""
        read = read_contract(view.contract)
        model = self.model()
        if not model.knows(read):
            return None
        x = card_features(seen_of(view, read), read)
        q = model.scores(x)
        by_slot = {int(a): float(b) for a, b in zip(x.s, q, strict=True)}
        return {c: by_slot[read.slots[c.index]] / SCORE_UNIT for c in cards_of(view.legal)}

    def unit(self, view: TrickView) -> float | None:
        """What one unit of :meth:`scores` is worth in the view's game (cents, penalty
        points; the higher the better), as the training fitted it on its teacher's values;
        None where it fitted none (or the model was not trained on the contract)."""
        read = read_contract(view.contract)
        model = self.model()
        return model.unit(read) if model.knows(read) else None

    def explain(self, view: TrickView | LayoutView) -> Hint:
        """The card with each legal card's score under the model; where it plays as the
        heuristic (layout deals, a contract it was not trained on), the heuristic's rule and
        that it does so."""
        own = trick_view(view)
        scores = None if own is None else self.scores(own)
        if own is None or scores is None:
            return _as_heuristic(view)
        values = {str(c): v for c, v in scores.items()}
        return Hint(Move(self._card(own)), values, _(
            "the learned player's score of each legal card (higher is better; a learned "
            "preference, not cents)"), _("the legal card the learned player scores highest"))

    def batch_form(self) -> NetForm | None:
        cls = type(self)
        if all(getattr(cls, n) is getattr(NetPolicy, n)
               for n in ("announce", "move")):
            return NetForm(self.weights)
        return None

