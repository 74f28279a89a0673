"""The kind of deal played in tricks, as the layers above the engines ask it
(:class:`herzla.kinds.KindOfDeal`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from herzla.cards import Card
from herzla.hand import Hand, Move, Trick, TrickPlay
from herzla.i18n import _, ngettext
from herzla.kinds import OnTable, Plane, Replayed
from herzla.kinds.tricks.engine import TrickHand
from herzla.kinds.tricks.view import TrickView

__all__ = ["TRICKS", "TrickKind"]


class TrickKind:
    """Deals played in tricks: each seat plays a card to the trick, the trick's winner leads the
    next."""

    name = "tricks"
    engine = TrickHand

    @property
    def words(self) -> str:
        return _("trick deal")

    def view(self, hand: Any, uniform: int, stock: int = 0,
             announcements: tuple[str, ...] = ()) -> TrickView:
        return TrickView.of(hand, uniform, stock, announcements)

    def written(self, hand: Hand, move: Move) -> str:
        return str(move)

    def shown(self, hand: Hand) -> Replayed:
        state = cast(TrickPlay, hand)
        contract = state.contract
        per_hand = contract.tricks_per_hand
        tricks = tuple(state.tricks)
        if state.trick:  # the trick in progress comes last, without a winner
            tricks = (*tricks, Trick(state.leader, tuple(state.trick), None))
        done = len(state.tricks)
        lines = []
        if not state.over:
            lines.append(ngettext("The hand is not complete: {done} of {n} trick played.",
                                  "The hand is not complete: {done} of {n} tricks played.",
                                  per_hand).format(done=done, n=per_hand))
        elif done < per_hand:
            lines.append(_("The hand ended early after trick {done} ({title}: {rule}; "
                           "{cite}).").format(done=done, title=contract.title,
                                              rule=contract.describe(), cite=contract.cite()))
        return Replayed(tricks=tricks, captured=tuple(state.captured), lines=tuple(lines))

    def report(self, shown: Replayed) -> list[str]:
        out = []
        for i, t in enumerate(shown.tricks or (), 1):
            cards = " ".join(map(str, t.cards))
            if t.winner is None:
                line = _("  trick {k}: seat {leader} leads {cards} (in progress)")
            else:
                line = _("  trick {k}: seat {leader} leads {cards} -> seat {winner}")
            out.append(line.format(k=i, leader=t.leader, cards=cards, winner=t.winner))
        return out

    def json(self, shown: Replayed) -> dict[str, Any]:
        return {"tricks": [t.to_dict() for t in shown.tricks or ()], "order": None}

    def table(self, hand: Hand) -> OnTable:
        state = cast(TrickPlay, hand)
        tricks = [(t.leader, t.cards) for t in state.tricks]
        if state.trick:
            tricks.append((state.leader, tuple(state.trick)))
        return OnTable(tuple(state.hands), tuple(tricks), state.leader, tuple(state.trick),
                     tuple(state.captured))

    def rows(self, contract: Any) -> tuple[int, ...]:
        return ()

    def planes(self, players: int, cards: int, contracts: Sequence[Any]) -> list[Plane]:
        n, c = players, cards
        return [("trick", (n, c), 0, 1), ("leader", (n,), 0, 1), ("winning", (n,), 0, 1),
                ("captured", (n, c), 0, 1), ("tricks_won", (n,), 0, 1)]

    def observe(self, hand: Hand, blocks: Mapping[str, tuple[int, tuple[int, ...]]],
                cards: Sequence[Card], rel: Callable[[int], int], rows: list[tuple[int, int]],
                at: list[int], values: list[float]) -> None:
        state = cast(TrickPlay, hand)
        n = state.players
        c = len(cards)
        in_trick = [0] * n
        for i, card in enumerate(state.trick):
            in_trick[(state.leader + i) % n] |= card.bit
        trick, captured = blocks["trick"][0], blocks["captured"][0]
        won = blocks["tricks_won"][0]
        per_deal = state.contract.tricks_per_hand
        for s in range(n):
            r = rel(s)
            rows.append((trick + r * c, in_trick[s]))
            rows.append((captured + r * c, state.captured[s]))
            at.append(won + r)
            values.append(state.won[s] / per_deal)
        at.append(blocks["leader"][0] + rel(state.leader))
        values.append(1)
        winner = state.current_winner()
        if winner is not None and not state.over:
            at.append(blocks["winning"][0] + rel(winner))
            values.append(1)


#: the kind (the facade registers it)
TRICKS = TrickKind()
