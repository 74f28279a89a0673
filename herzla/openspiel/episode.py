"""One episode: the deal, the bidding and the play of one hand, without OpenSpiel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from herzla.cards import Card, cards_of
from herzla.contracts import Contract
from herzla.hand import PASS as PASS_MOVE
from herzla.hand import Hand, Move
from herzla.openspiel.actions import CARD_ACTIONS, LOWER, PASS, bid_actions
from herzla.openspiel.engine import (
    Table,
    make_rules,
    record_of,
    sorted_codes,
    table_of,
)
from herzla.openspiel.setup import Setup
from herzla.players.announcing import settled


class Episode:
    """The state of one hand.  Copies are cheap; pickles hold only the setup and the actions.

    ``engine`` is the hand being played (a :class:`herzla.hand.Hand`, None before the play),
    asked through the one hand interface whatever the deal."""

    __slots__ = ("setup", "actions", "dealt", "bids", "rules", "engine", "moves", "_left")

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.actions: list[int] = []
        self.dealt: list[int] = [0] * setup.players
        self.bids: list[str] = []
        self.rules: Contract | None = setup.rules
        self.engine: Hand | None = None
        self.moves: list[int] = []
        self._left = setup.pack

    # -- phases -----------------------------------------------------------------------------
    @property
    def dealing(self) -> bool:
        return len(self.actions) < self.setup.cards_dealt

    @property
    def bidding(self) -> bool:
        return not self.dealing and self.rules is None

    @property
    def over(self) -> bool:
        return self.engine is not None and self.engine.over

    @property
    def plays(self) -> list[str]:
        """The moves of the play as a hand record writes them."""
        return [] if self.engine is None else [str(m) for m in self.engine.moves]

    def seat_to_deal(self) -> int:
        return (self.setup.forehand + len(self.actions)) % self.setup.players

    def turn(self) -> int | None:
        """The seat to move; None at a chance node or at the end."""
        if self.dealing or self.over:
            return None
        if self.engine is None:
            return (self.setup.forehand + len(self.bids)) % self.setup.players
        return self.engine.turn

    # -- moves ------------------------------------------------------------------------------
    def chance_cards(self) -> list[int]:
        return [c.index for c in cards_of(self._left)]

    def legal(self) -> dict[int, Move | str]:
        """The legal actions of the seat to move, each with its move (or announcement): a card,
        or a card laid at the upper end or the only end it fits; ``LOWER +`` a card laid at the
        lower end where it fits both; the pass."""
        if self.engine is None:
            return dict(bid_actions(self.setup.game)) if self.bidding else {}
        moves = self.engine.legal_moves()
        cards = [m.card for m in moves]
        out: dict[int, Move | str] = {}
        for move in moves:
            if move.card is None:
                out[PASS] = move
            else:
                lower = move.end == "-" and cards.count(move.card) > 1
                out[move.card.index + (LOWER if lower else 0)] = move
        return out

    def apply(self, action: int) -> None:
        if self.dealing:
            if not (0 <= action < CARD_ACTIONS and self._left >> action & 1):
                raise ValueError(f"chance outcome {action} is not a card left to deal")
            self.dealt[self.seat_to_deal()] |= 1 << action
            self._left &= ~(1 << action)
            self.actions.append(action)
            if not self.dealing and self.rules is not None:
                self._start()
            return
        legal = self.legal()
        if action not in legal:
            raise ValueError(self._why_illegal(action))
        move = legal[action]
        self.actions.append(action)
        if isinstance(move, str):
            self.bids.append(move)
            result = settled(self.bids, self.setup.forehand, self.setup.base)
            if result is not None:
                contract, declarer = result
                self.rules = make_rules(self.setup.game, contract, self.setup.players,
                                         dict(self.setup.options), declarer)
                self._start()
            return
        assert self.engine is not None
        self.moves.append(action)
        self.engine.play(move)

    def _start(self) -> None:
        assert self.rules is not None
        self.engine = self.rules.new_hand(self.dealt, self.setup.dealer, self.setup.stock)

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
        if not self.over:
            return [0.0] * self.setup.players
        assert self.engine is not None
        return [float(s) for s in self.engine.score().scores]

    def record(self) -> dict[str, Any]:
        if self.dealing:
            raise ValueError("there is no hand record while the cards are being dealt")
        if self.rules is None:
            raise ValueError("there is no hand record before the bidding chooses the contract")
        return record_of(self.rules, self.setup.dealer, self.setup.stock, self.dealt, self.plays)

    def table(self) -> Table | None:
        return None if self.engine is None else table_of(self.engine, self.setup.row_keys)

    def hands(self) -> tuple[int, ...]:
        """Each seat's cards now (as dealt so far during the deal)."""
        table = self.table()
        return tuple(self.dealt) if table is None else table.hands

    def copy(self) -> Episode:
        new = Episode.__new__(Episode)
        new.setup = self.setup
        new.actions = list(self.actions)
        new.dealt = list(self.dealt)
        new.bids = list(self.bids)
        new.rules = self.rules
        new.engine = None if self.engine is None else self.engine.copy()
        new.moves = list(self.moves)
        new._left = self._left
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> Episode:
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


def _replayed(setup: Setup, actions: Sequence[int]) -> Episode:
    episode = Episode(setup)
    for action in actions:
        episode.apply(action)
    return episode
