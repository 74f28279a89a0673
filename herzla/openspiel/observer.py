"""What a seat observes of a state: OpenSpiel's observation and information-state tensors
and strings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
import pyspiel

from herzla.cards import Rank, cards_of
from herzla.contracts import Contract
from herzla.openspiel.actions import CARD_ACTIONS, LOWER, PASS, bid_actions
from herzla.openspiel.engine import announcements, sorted_codes
from herzla.openspiel.episode import HandState
from herzla.openspiel.setup import Setup


class _State(Protocol):
    """What an observer reads of a state (:class:`herzla.openspiel.game.HerzlaState`): the
    hand it holds."""

    _episode: HandState

_SEQUENCE_WIDTH = CARD_ACTIONS + 2  # a card, the lower-end mark, a pass


class HerzlaObserver:
    """Observation and information-state tensors and strings (OpenSpiel's PyObserver protocol).

    ``perfect_recall`` gives the whole public history (every trick, or every move of a layout
    deal); without it, the table as it is now.  ``private_info`` decides whose hands are shown.
    """

    def __init__(self, setup: Setup, iig_obs_type: Any, params: Mapping[str, Any] | None
                 ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self._setup = setup
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self._recall = bool(iig_obs_type.perfect_recall)
        self._public = bool(iig_obs_type.public_info)
        private = iig_obs_type.private_info
        self._own = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._all = private == pyspiel.PrivateInfoType.ALL_PLAYERS
        n, cards = setup.players, CARD_ACTIONS
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if self._own:
            pieces.append(("hand", (cards,)))
        if self._all:
            pieces.append(("hands", (n, cards)))
        if self._public:
            pieces.append(("contract", (len(setup.contract_ids),)))
            if setup.has_declarer:
                pieces.append(("declarer", (n,)))
            if setup.bidding:
                pieces.append(("bids", (n, len(bid_actions(setup.game)))))
            tricks = setup.hand_size
            if setup.layout and self._recall:
                pieces.append(("moves", (setup.max_moves, _SEQUENCE_WIDTH)))
            elif setup.layout:
                pieces += [("laid", (cards,)), ("ends", (len(setup.row_keys), 2, len(Rank))),
                           ("out", (n, n)), ("cards_left", (n,))]
            elif self._recall:
                pieces += [("tricks", (tricks, n, cards)), ("leaders", (tricks, n))]
            else:
                pieces += [("trick", (n, cards)), ("leader", (n,)), ("captured", (n, cards))]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        at = 0
        for name, shape in pieces:
            width = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + width].reshape(shape)
            at += width

    def set_from(self, state: _State, player: int) -> None:
        """Write the observation of ``state`` by ``player`` into ``tensor`` (and ``dict``)."""
        episode = state._episode
        setup = self._setup
        self.tensor.fill(0)
        d = self.dict
        d["player"][player] = 1
        hands = episode.hands()
        if "hand" in d:
            _put_cards(d["hand"], hands[player])
        if "hands" in d:
            for seat, hand in enumerate(hands):
                _put_cards(d["hands"][seat], hand)
        if not self._public:
            return
        rules = episode.rules
        if rules is not None:
            d["contract"][setup.contract_ids.index(rules.id)] = 1
            if "declarer" in d and rules.declarer is not None:
                d["declarer"][rules.declarer] = 1
        if "bids" in d:
            for i, word in enumerate(episode.bids):
                seat = (setup.forehand + i) % setup.players
                d["bids"][seat, announcements(setup.game).index(word)] = 1
        table = episode.table()
        if table is None:
            return
        if "moves" in d:
            for i, action in enumerate(episode.moves):
                if action == PASS:
                    d["moves"][i, CARD_ACTIONS + 1] = 1
                else:
                    d["moves"][i, action % CARD_ACTIONS] = 1
                    d["moves"][i, CARD_ACTIONS] = float(action >= LOWER)
        if "laid" in d:
            for card in table.laid:
                d["laid"][card.index] = 1
            for row, ends in enumerate(table.ends):
                for side, rank in enumerate(ends or ()):
                    if rank is not None:
                        d["ends"][row, side, int(rank)] = 1
            for place, seat in enumerate(table.out):
                d["out"][place, seat] = 1
            for seat, hand in enumerate(table.hands):
                d["cards_left"][seat] = hand.bit_count()
        if "tricks" in d:
            for t, (leader, cards) in enumerate(table.tricks):
                d["leaders"][t, leader] = 1
                for i, card in enumerate(cards):
                    d["tricks"][t, (leader + i) % setup.players, card.index] = 1
        if "trick" in d:
            d["leader"][table.leader] = 1
            for i, card in enumerate(table.trick):
                d["trick"][(table.leader + i) % setup.players, card.index] = 1
            for seat, captured in enumerate(table.captured):
                _put_cards(d["captured"][seat], captured)

    def string_from(self, state: _State, player: int) -> str:
        """The observation of ``state`` by ``player`` as text, one fact a line."""
        episode = state._episode
        setup = self._setup
        rules = episode.rules or setup.base
        hands = episode.hands()
        lines = [f"seat {player}"]
        if self._own:
            lines.append(f"hand {_words(hands[player], rules)}")
        if self._all:
            lines += [f"hand of seat {s} {_words(h, rules)}" for s, h in enumerate(hands)]
        if not self._public:
            return "\n".join(lines)
        if episode.rules is not None:
            line = f"contract {episode.rules.id}"
            if episode.rules.declarer is not None:
                line += f", declarer seat {episode.rules.declarer}"
            lines.append(line)
        if setup.bidding and episode.bids:
            lines.append("bids " + " ".join(
                f"{(setup.forehand + i) % setup.players}:{w}" for i, w in enumerate(episode.bids)))
        table = episode.table()
        if table is None:
            return "\n".join(lines)
        if setup.layout and self._recall:
            lines.append("moves " + " ".join(episode.plays))
        elif setup.layout:
            for key, ends, cards in zip(setup.row_keys, table.ends, table.rows, strict=True):
                if ends is not None:
                    up, down = (r.code if r is not None else "-" for r in ends)
                    lines.append(f"row {key}: {' '.join(map(str, cards))} "
                                 f"(asks {up} above, {down} below)")
            if table.out:
                lines.append("out " + " ".join(map(str, table.out)))
            lines.append("cards left " + " ".join(str(h.bit_count()) for h in table.hands))
        elif self._recall:
            for t, (leader, cards) in enumerate(table.tricks):
                lines.append(f"trick {t + 1} " + " ".join(
                    f"{(leader + i) % setup.players}:{c}" for i, c in enumerate(cards)))
        else:
            number = len(table.tricks) + (0 if table.trick else 1)
            lines.append(f"trick {number} led by {table.leader}" + "".join(
                f" {(table.leader + i) % setup.players}:{c}" for i, c in enumerate(table.trick)))
            lines += [f"captured by {s} {_words(m, rules)}" for s, m in enumerate(table.captured)]
        return "\n".join(lines)


def _words(mask: int, rules: Contract) -> str:
    """Cards as text, sorted as records write them; ``-`` for none."""
    return " ".join(sorted_codes(mask, rules)) or "-"


def _put_cards(row: npt.NDArray[np.float32], mask: int) -> None:
    for card in cards_of(mask):
        row[card.index] = 1
