"""One episode at a table: its deals dealt from a seed, the bidding, the play and the scores.

The environments (:mod:`herzla.rl.aec`, :mod:`herzla.rl.single`) step an :class:`Episode`; it
knows nothing of PettingZoo or Gymnasium.  Deal ``d`` of an episode with seed ``s`` is dealt by
:func:`herzla.support.streams.seeded_deal` with the key ``(d, 0)``: the first hand (partie)
``herzla simulate --seed s`` plays, and for one deal the hand ``herzla deal --seed s`` deals.  The
play goes through the one hand interface (:class:`herzla.hand.Hand`); the bidding is the game's
(``Game.bidding``, ``Game.resolve_bids``), ended as soon as the announcements made settle it.
The episode is a thin adapter over the one value of a deal in progress: each deal is a
:class:`herzla.round.Round`, and what the deals carry to the next (the totals, the stock, the
dealer) is a :class:`herzla.round.Carry`, as in an evening.

>>> from herzla.rl.actions import Actions
>>> from herzla.rl.table import EnvTable
>>> table = EnvTable.of("herzla")
>>> episode = Episode(table, Actions(table), seed=5)
>>> episode.turn(), sorted(episode.legal().values())
(0, ['beddl', 'mord', 'pass'])
>>> for _ in range(4):
...     _ = episode.step(32)  # everybody passes: the normal game
>>> episode.contract.id, len(episode.legal()) > 0
('normal', True)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from herzla.cards import cards_of
from herzla.contracts import Contract
from herzla.hand import PASS, Hand, Move, as_move
from herzla.quote import quote
from herzla.records import Record, sort_hand
from herzla.rl.actions import Actions
from herzla.rl.table import EnvTable
from herzla.round import Carry, Place, Round
from herzla.support.streams import seeded_deal

__all__ = ["RENDER_MODES", "Episode", "IllegalAction", "check_render_mode"]

#: how an environment renders: ``ansi`` returns the table as text (:meth:`Episode.text`),
#: ``human`` prints it
RENDER_MODES = ("ansi", "human")


def check_render_mode(render_mode: object) -> str | None:
    """``render_mode`` if it is one of :data:`RENDER_MODES` or None, else ValueError."""
    if render_mode is None or (isinstance(render_mode, str) and render_mode in RENDER_MODES):
        return render_mode
    raise ValueError(f"render_mode {quote(render_mode)} is not one of "
                     f"{', '.join(RENDER_MODES)} (or null)")


def render(render_mode: str | None, episode: Episode) -> str | None:
    """What ``render()`` of either environment answers: the episode as text (``ansi``), or
    printed (``human``); without a render mode a warning, as Gymnasium's environments give."""
    if render_mode is None:
        import gymnasium  # the rl extra's; an environment is made only where it is installed

        gymnasium.logger.warn("render() was called without a render_mode (ansi or human)")
        return None
    text = episode.text()
    if render_mode == "ansi":
        return text
    print(text)
    return None


class IllegalAction(ValueError):
    """An action that is not legal now, with the rule it breaks in one sentence."""


class Episode:
    """The deals of one episode (see the module notes)."""

    def __init__(self, table: EnvTable, actions: Actions, seed: int) -> None:
        self.table = table
        self.actions = actions
        self.seed = seed
        n = table.players
        #: what the deals played so far carry to the next: the totals (the contracts' own
        #: scores), the stock (None: no contract of the episode has one), the dealers
        self.carry = Carry(table.game, n, table.contract_for(0).opts, table.dealer,
                           table.stock if table.has_stock else None, (0,) * n)
        #: the hands and the scores of the deals played so far (their records are written when
        #: asked for: :meth:`records`)
        self.finished: list[Hand] = []
        self.scores: list[tuple[int, ...]] = []
        self.over = False
        #: counts the moves made: the observations' cache key
        self.version = 0
        self._start()

    # -- the deal -----------------------------------------------------------------------------
    def _start(self) -> None:
        table = self.table
        #: where the deal in progress stands (its dealer, the stock it is played for)
        self.place: Place = self.carry.place()
        deal = self.deal = self.place.k - 1
        base = table.contract_for(deal)
        dealt = seeded_deal(base.pack(), table.players, base.hand_size, self.seed, (deal, 0))
        #: the deal in progress: its announcements from forehand, contract, hand and score
        self.round = Round(base, dealt, self.place.dealer, self.stock,
                           bidding=table.mode == "bidding", early=True,
                           make=lambda cid, declarer: table.contract_for(deal, cid, declarer))
        self._legal: dict[int, Move | str] | None = None

    @property
    def totals(self) -> list[int]:
        """Each seat's total of the deals played so far (the contracts' own scores)."""
        return list(self.carry.totals)

    @property
    def stock(self) -> int:
        """The stock the deal in progress is played for (after the last deal, what it left;
        0 where no contract of the episode has a stock)."""
        return 0 if self.carry.stock is None else self.carry.stock

    @property
    def dealer(self) -> int:
        return self.round.dealer

    @property
    def dealt(self) -> tuple[int, ...]:
        return self.round.dealt

    @property
    def bids(self) -> tuple[str, ...]:
        """The announcements so far, from forehand."""
        return self.round.bids

    @property
    def contract(self) -> Contract | None:
        return self.round.contract

    @property
    def hand(self) -> Hand | None:
        return self.round.hand

    @property
    def forehand(self) -> int:
        return self.round.forehand

    @property
    def bidding(self) -> bool:
        return self.round.bidding and not self.over

    @property
    def played(self) -> tuple[int, ...]:
        """The cards each seat has played (laid) in this deal: those it was dealt and no longer
        holds (none during the bidding)."""
        return tuple(d & ~h for d, h in zip(self.dealt, self.round.hands, strict=True))

    def hands(self) -> tuple[int, ...]:
        """Each seat's cards now."""
        return self.round.hands

    def turn(self) -> int | None:
        """The seat to move; None once the episode is over."""
        return None if self.over else self.round.turn

    def legal(self) -> dict[int, Move | str]:
        """The legal actions of the seat to move, each with its move or announcement."""
        if self._legal is None:
            if self.over:
                self._legal = {}
            elif self.hand is None:
                self._legal = dict(self.actions.of_words())
            else:
                self._legal = dict(self.actions.of_moves(self.hand.legal_moves()))
        return self._legal

    def mask(self) -> npt.NDArray[np.int8]:
        """The legal actions as an int8 mask over the action space."""
        out = np.zeros(self.actions.size, dtype=np.int8)
        out[list(self.legal())] = 1
        return out

    # -- moves ------------------------------------------------------------------------------
    def step(self, action: int) -> tuple[int, ...] | None:
        """Make ``action`` for the seat to move; returns the scores of the deal it ended (None
        when it ended none).  IllegalAction names the rule an illegal action breaks."""
        legal = self.legal()
        if action not in legal:
            raise IllegalAction(self.why(action))
        item = legal[action]
        self.version += 1
        self._legal = None
        deal = self.round
        if isinstance(item, str):
            deal.announce(item)
            return None
        deal.play(item)
        if not deal.over:
            return None
        result = deal.score()
        self.scores.append(result.scores)
        stock = None if self.carry.stock is None else deal.stock_after()
        self.carry = self.carry.after(self.place, result.scores, stock)
        assert deal.hand is not None
        self.finished.append(deal.hand)
        if self.deal + 1 < len(self.table.deals):
            self._start()
        else:
            self.over = True
        return result.scores

    def play(self, move: Move | str) -> tuple[int, ...] | None:
        """Make a move given as a :class:`~herzla.hand.Move`, a card code (``HA``, ``D7-``) or
        an announcement (``pass``, ``beddl``): :meth:`step` with its action."""
        return self.step(self.action_of(move))

    def action_of(self, move: Move | str) -> int:
        """The action of a legal move or announcement (a card alone in a layout deal: its only
        end, or the upper end); IllegalAction if it is not legal now."""
        legal = self.legal()
        text = str(move).strip()
        if self.hand is None:
            for action, item in legal.items():
                if item == text.lower():
                    return action
            raise IllegalAction(self.why(-1) if self.over else
                                f"{text} is not an announcement now")
        wanted = as_move(move)
        for action, item in legal.items():
            if item == wanted or (wanted.end is None and isinstance(item, Move)
                                  and item.card == wanted.card
                                  and action < len(self.actions.cards)):
                return action
        card = wanted.card
        slot = None if card is None else self.actions.slot(card)
        if card is None:
            slot = self.actions.pass_action
        elif slot is not None and wanted.end == "-" and self.actions.lower is not None:
            slot += self.actions.lower
        raise IllegalAction(self.why(-1 if slot is None else slot))

    def why(self, action: object) -> str:
        """Why ``action`` is not legal now, in one sentence."""
        actions = self.actions
        if self.over:
            return "the episode is over; no move can be made"
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or not (
                0 <= action < actions.size):
            return f"{action!s} is not an action (actions are 0 to {actions.size - 1})"
        action = int(action)
        name = actions.name(action)
        seat = self.turn()
        if self.hand is None:
            return (f"seat {seat} announces now ({', '.join(actions.of_words().values())}), "
                    f"not {name}")
        if action in actions.of_words() and action != actions.pass_action:
            return f"{name} is an announcement, and the bidding is over"
        card = actions.card(action)
        if card is None:
            bad = self.hand.check(PASS)
        elif actions.lower is not None and action >= actions.lower:
            bad = self.hand.check(Move(card, "-"))
            if bad is None:
                return f"{card}- is not legal: {card} does not fit both ends of its row"
        else:
            bad = self.hand.check(Move(card))
        return bad.message if bad is not None else f"{name} is not a legal move now"

    # -- what was played ----------------------------------------------------------------------
    def record(self) -> Record:
        """The deal in progress (the last deal, once the episode is over) as a hand record;
        ValueError while the bidding has not chosen the contract."""
        return self.finished[-1].record() if self.over else self.round.record()

    def records(self) -> list[Record]:
        """Every deal of the episode so far as a hand record (the one in progress last)."""
        done = [hand.record() for hand in self.finished]
        if self.over or self.hand is None:
            return done
        return [*done, self.hand.record()]

    def text(self) -> str:
        """The table as text, every hand shown (for ``render``)."""
        table = self.table
        contract = self.contract or table.contract_for(self.deal)
        what = contract.id if self.contract is not None else "the bidding"
        head = f"{table.game.id} {what}, {table.players} players, dealer {self.dealer}"
        if table.mode == "partie":
            head += f", deal {self.deal + 1} of {len(table.deals)}"
        if self.contract is not None and self.contract.declarer is not None:
            head += f", declarer {self.contract.declarer}"
        if table.has_stock:
            head += f", stock {self.stock}c"
        lines = [head]
        for seat, mask in enumerate(self.hands()):
            cards = " ".join(str(c) for c in sort_hand(cards_of(mask), contract)) or "-"
            lines.append(f"seat {seat}: {cards}")
        if self.bids:
            lines.append("bids: " + " ".join(f"{(self.forehand + i) % table.players}:{w}"
                                             for i, w in enumerate(self.bids)))
        if self.hand is not None and self.hand.moves:
            lines.append("plays: " + " ".join(str(m) for m in self.hand.moves))
        if self.scores:
            lines.append("scores: " + " ".join(f"{s:+d}" if s else "0" for s in self.totals))
        if self.over:
            lines.append("over")
        elif self.turn() is not None:
            lines.append(f"to move: seat {self.turn()}")
        return "\n".join(lines)
