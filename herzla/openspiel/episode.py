"""One episode: the deal, the bidding and the play of one hand, without OpenSpiel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from herzla.cards import Card, cards_of
from herzla.contracts import Contract
from herzla.hand import PASS as PASS_MOVE
from herzla.hand import Hand, Move
from herzla.openspiel.actions import CARD_ACTIONS, CODEC, LOWER, PASS, bid_actions
from herzla.openspiel.engine import (
    Shown,
    sorted_codes,
    table_of,
)
from herzla.openspiel.setup import Setup
from herzla.round import Round


class HandState:
    """The state of one hand.  Copies are cheap; pickles hold only the setup and the actions.

    ``round`` is the deal once dealt (a :class:`herzla.round.Round`: the bidding, the play
    through the one hand interface, the score), None while the cards are being dealt."""

    __slots__ = ("setup", "actions", "dealt", "round", "moves", "_left")

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.actions: list[int] = []
        self.dealt: list[int] = [0] * setup.players
        self.round: Round | None = None
        self.moves: list[int] = []
        self._left = setup.pack

    @property
    def rules(self) -> Contract | None:  # None while the bidding has not settled it
        return self.setup.rules if self.round is None else self.round.contract

    @property
    def engine(self) -> Hand | None:  # the hand being played (None before the play)
        return None if self.round is None else self.round.hand

    @property
    def bids(self) -> tuple[str, ...]:
        return () if self.round is None else self.round.bids

    # -- phases -----------------------------------------------------------------------------
    @property
    def dealing(self) -> bool:
        return self.round is None

    @property
    def bidding(self) -> bool:
        return self.round is not None and self.round.bidding

    @property
    def over(self) -> bool:
        return self.round is not None and self.round.over

    @property
    def plays(self) -> list[str]:
        """The moves of the play as a hand record writes them."""
        return [] if self.round is None else [str(m) for m in self.round.moves]

    def seat_to_deal(self) -> int:
        return (self.setup.forehand + len(self.actions)) % self.setup.players

    def turn(self) -> int | None:
        """The seat to move; None at a chance node or at the end."""
        return None if self.round is None else self.round.turn

    # -- moves ------------------------------------------------------------------------------
    def chance_cards(self) -> list[int]:
        return [c.index for c in cards_of(self._left)]

    def legal(self) -> dict[int, Move | str]:
        """The legal actions of the seat to move, each with its move (or announcement): a card,
        or a card laid at the upper end or the only end it fits; ``LOWER +`` a card laid at the
        lower end where it fits both; the pass."""
        if self.engine is None:
            return dict(bid_actions(self.setup.game)) if self.bidding else {}
        out: dict[int, Move | str] = dict(CODEC.of_moves(self.engine.legal_moves()))
        return out

    def apply(self, action: int) -> None:
        if self.dealing:
            if not (0 <= action < CARD_ACTIONS and self._left >> action & 1):
                raise ValueError(f"chance outcome {action} is not a card left to deal")
            self.dealt[self.seat_to_deal()] |= 1 << action
            self._left &= ~(1 << action)
            self.actions.append(action)
            if len(self.actions) == self.setup.cards_dealt:
                self._start()
            return
        legal = self.legal()
        if action not in legal:
            raise ValueError(self._why_illegal(action))
        move = legal[action]
        self.actions.append(action)
        assert self.round is not None
        if isinstance(move, str):
            self.round.announce(move)
            return
        self.moves.append(action)
        self.round.play(move)

    def _start(self) -> None:
        s = self.setup
        self.round = Round(s.rules or s.base, self.dealt, s.dealer, s.stock,
                           bidding=s.rules is None, early=True,
                           make=lambda cid, declarer: s.seating.contract_for(cid, declarer))

    def _why_illegal(self, action: int) -> str:
        if self.over:
            return "the hand is over"
        if self.engine is None:
            said = ", ".join(f"{w} {a}" for a, w in bid_actions(self.setup.game).items())
            return f"action {action} is not an announcement ({said})"
        if 0 <= action < LOWER:
            card = Card.from_index(action)
            bad = self.engine.check(card)
            return bad.message if bad is not None else f"{card} is not a legal move"
        if LOWER <= action < PASS:
            card = Card.from_index(action - LOWER)
            return f"{card}- is not legal: {card} does not fit both ends of its row"
        if action == PASS:
            if not self.engine.contract.has_passes:
                return "there is no pass in a trick deal"
            bad = self.engine.check(PASS_MOVE)
            return bad.message if bad is not None else "a pass is not a legal move now"
        return f"action {action} is not a legal move now"

    def action_string(self, action: int) -> str:
        if 0 <= action < CARD_ACTIONS:
            card = Card.from_index(action)
            return f"{card}+" if self._fits_both_ends(card) else str(card)
        if LOWER <= action < PASS:
            return f"{Card.from_index(action - LOWER)}-"
        bids = bid_actions(self.setup.game)
        if action in bids:
            return bids[action]
        raise ValueError(f"{action} is not an action of {self.setup.game}")

    def _fits_both_ends(self, card: Card) -> bool:
        """Whether ``card`` may be laid at either end of its row now: the seat to move would
        have two moves with it alone in its hand."""
        hand = self.engine
        if hand is None or hand.over:
            return False
        return len(hand.holding(hand.turn, card.bit).legal_moves()) > 1

    # -- results ----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if self.round is None or not self.round.over:
            return [0.0] * self.setup.players
        return [float(s) for s in self.round.score().scores]

    def record(self) -> dict[str, Any]:
        if self.dealing:
            raise ValueError("there is no hand record while the cards are being dealt")
        if self.rules is None:
            raise ValueError("there is no hand record before the bidding chooses the contract")
        assert self.round is not None
        return self.round.record().to_json()

    def table(self) -> Shown | None:
        return None if self.engine is None else table_of(self.engine)

    def hands(self) -> tuple[int, ...]:
        """Each seat's cards now (as dealt so far during the deal)."""
        table = self.table()
        return tuple(self.dealt) if table is None else table.hands

    def copy(self) -> HandState:
        new = HandState.__new__(HandState)
        new.setup = self.setup
        new.actions = list(self.actions)
        new.dealt = list(self.dealt)
        new.round = None if self.round is None else self.round.copy()
        new.moves = list(self.moves)
        new._left = self._left
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> HandState:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replayed, (self.setup, tuple(self.actions)))

    def describe(self) -> str:
        s = self.setup
        head = f"{s.game} {self.rules.id if self.rules else s.contract}, {s.players} players, " \
               f"dealer {s.dealer}"
        if self.rules is not None and self.rules.declarer is not None:
            head += f", declarer {self.rules.declarer}"
        if s.base.has_stock:
            head += f", stock {s.stock}c"
        lines = [head]
        lines += [f"seat {i}: {' '.join(sorted_codes(h, self.rules or s.base))}"
                  for i, h in enumerate(self.dealt)]
        if self.bids:
            lines.append("bids: " + " ".join(self.bids))
        if self.plays:
            lines.append("plays: " + " ".join(self.plays))
        return "\n".join(lines)


def _replayed(setup: Setup, actions: Sequence[int]) -> HandState:
    episode = HandState(setup)
    for action in actions:
        episode.apply(action)
    return episode
