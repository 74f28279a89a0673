"""The observation: what one seat may know, as a flat float32 vector of named blocks.

Seats are written *relative to the observer*: row 0 of a per-seat block is the observer, row 1
the seat after it in playing order, and so on; so one policy can play every seat.  ``C`` is the
number of cards of the table's packs (the card actions, :mod:`herzla.rl.actions`), ``N`` the
seats.  The blocks, in this order (those a table's deals do not have are left out):

=============  ======  ===========================================================================
block          size    what it holds
=============  ======  ===========================================================================
hand           C       1 for each card the observer holds
played         N x C   the cards each seat has played (laid) in this deal
cards_left     N       the cards each seat still holds, over the most a seat is dealt
turn           N       1 for the seat to move (all 0 once the episode is over)
dealer         N       1 for the dealer
contract       D       1 for the contract being played, of the table's D (a partie's deals, the
                       bidding's contracts); all 0 during the bidding.  Only where D > 1
declarer       N       1 for the declarer, where a contract has one
bids           N x K   each seat's announcement, of the bidding's K words (``pass`` first)
stock          1       the stock before the deal, in units (games with a stock; at most 16)
totals         N       each seat's total of the deals so far, in units (a partie; clipped to
                       twice the partie's deals)
trick          N x C   the cards of the trick in progress, by the seat that played each (trick
                       deals, as all the blocks to ``tricks_won``)
leader         N       1 for the seat that led the trick in progress (or is to lead)
winning        N       1 for the seat winning the trick in progress so far
captured       N x C   the cards each seat has captured
tricks_won     N       the tricks each seat has won, over the tricks of a deal
fits           C       layout deals: 1 for each card that may be laid now at its only end or
                       its upper end (whoever holds it): the card actions the rows allow
fits_lower     C       1 for each card that fits both ends (the lower-end actions), where a row
                       turns the corner
out            N       layout deals: the place of each seat that has gone out (1 first, 2
                       second ...), over the seats
=============  ======  ===========================================================================

A *unit* is :attr:`herzla.rl.table.Table.unit`: the largest amount one seat wins or loses in a
deal of the table.  Every other entry lies in [0, 1].

>>> from herzla.rl.table import EnvTable
>>> observer = Observer(EnvTable.of("herzla", "normal"))
>>> observer.size, observer.blocks["hand"], observer.blocks["captured"]
(441, (0, (32,)), (309, (4, 32)))
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from herzla.contracts import Contract
from herzla.kinds import kind_of
from herzla.rl.episode import Episode
from herzla.rl.table import EnvTable

__all__ = ["STOCK_UNITS", "Observer"]

#: the most units of stock the observation tells apart
STOCK_UNITS = 16.0


class Observer:
    """The observation layout of one table, and the observations of its episodes."""

    def __init__(self, table: EnvTable) -> None:
        self.table = table
        n, c = table.players, len(table.cards)
        self.players = n
        pieces: list[tuple[str, tuple[int, ...], float, float]] = [
            ("hand", (c,), 0, 1), ("played", (n, c), 0, 1), ("cards_left", (n,), 0, 1),
            ("turn", (n,), 0, 1), ("dealer", (n,), 0, 1)]
        if len(table.contract_ids) > 1:
            pieces.append(("contract", (len(table.contract_ids),), 0, 1))
        if table.has_declarer:
            pieces.append(("declarer", (n,), 0, 1))
        if table.words:
            pieces.append(("bids", (n, len(table.words)), 0, 1))
        if table.has_stock:
            pieces.append(("stock", (1,), 0, STOCK_UNITS))
        self.total_units = 2.0 * len(table.deals)
        if table.mode == "partie":
            pieces.append(("totals", (n,), -self.total_units, self.total_units))
        # each kind of deal the table plays adds the blocks it encodes (a trick deal's trick,
        # leader and captured cards, a layout deal's fits and seats out)
        of_kind: dict[str, list[Contract]] = {}
        for some in table.contracts():
            of_kind.setdefault(kind_of(some).name, []).append(some)
        for name, some_of in of_kind.items():
            pieces += kind_of(name).planes(n, c, some_of)
        #: each block's offset and shape
        self.blocks: dict[str, tuple[int, tuple[int, ...]]] = {}
        at = 0
        lows, highs = [], []
        for name, shape, low, high in pieces:
            width = int(np.prod(shape))
            self.blocks[name] = (at, shape)
            lows.append(np.full(width, low, np.float32))
            highs.append(np.full(width, high, np.float32))
            at += width
        self.size = at
        self.low: npt.NDArray[np.float32] = np.concatenate(lows)
        self.high: npt.NDArray[np.float32] = np.concatenate(highs)
        self._bits = np.array([card.index for card in table.cards], dtype=np.int64)
        self._span = np.arange(c, dtype=np.int64)[None, :]
        self._most = max(c.hand_size for c in table.contracts())
        #: the last observation written, with its episode (the object itself: an id can be
        #: reused by a new episode once the old one is freed), version and seat
        self._cache: tuple[Episode, int, int, npt.NDArray[np.float32]] | None = None

    def block(self, obs: npt.NDArray[np.float32], name: str) -> npt.NDArray[np.float32]:
        """The block ``name`` of an observation, in its shape (a view)."""
        at, shape = self.blocks[name]
        return obs[at:at + int(np.prod(shape))].reshape(shape)

    def observe(self, episode: Episode, seat: int) -> npt.NDArray[np.float32]:
        """A new array: the observation of ``episode`` by ``seat``."""
        cached = self._cache
        if (cached is not None and cached[0] is episode
                and cached[1:3] == (episode.version, seat)):
            return cached[3].copy()
        obs = self._write(episode, seat)
        self._cache = (episode, episode.version, seat, obs)
        return obs.copy()

    def _write(self, episode: Episode, seat: int) -> npt.NDArray[np.float32]:
        """The observation, written in two strokes: every card set of it at once (``rows``:
        where each starts, and the set), then every single entry (``at``, ``values``)."""
        table = self.table
        blocks = self.blocks
        n = self.players
        c = len(table.cards)
        rows: list[tuple[int, int]] = []
        at: list[int] = []
        values: list[float] = []

        def rel(s: int) -> int:
            return (s - seat) % n

        hands = episode.hands()
        rows.append((blocks["hand"][0], hands[seat]))
        played, left = blocks["played"][0], blocks["cards_left"][0]
        for s, mask in enumerate(episode.played):
            r = rel(s)
            rows.append((played + r * c, mask))
            at.append(left + r)
            values.append(hands[s].bit_count() / self._most)
        turn = episode.turn()
        if turn is not None:
            at.append(blocks["turn"][0] + rel(turn))
            values.append(1)
        at.append(blocks["dealer"][0] + rel(episode.dealer))
        values.append(1)
        contract = episode.contract
        if contract is not None and "contract" in blocks:
            at.append(blocks["contract"][0] + table.contract_ids.index(contract.id))
            values.append(1)
        if contract is not None and contract.declarer is not None and "declarer" in blocks:
            at.append(blocks["declarer"][0] + rel(contract.declarer))
            values.append(1)
        if "bids" in blocks:
            start, (_, k) = blocks["bids"]
            for i, word in enumerate(episode.bids):
                at.append(start + rel((episode.forehand + i) % n) * k + table.words.index(word))
                values.append(1)
        if "stock" in blocks:
            at.append(blocks["stock"][0])
            values.append(min(episode.stock / table.unit, STOCK_UNITS))
        if "totals" in blocks:
            start = blocks["totals"][0]
            for s, total in enumerate(episode.totals):
                at.append(start + rel(s))
                values.append(max(-self.total_units, min(self.total_units, total / table.unit)))
        hand = episode.hand
        if hand is not None and contract is not None:
            kind_of(contract).observe(hand, blocks, table.cards, rel, rows, at, values)
        obs = np.zeros(self.size, np.float32)
        starts = np.array([r[0] for r in rows], dtype=np.int64)
        masks = np.array([r[1] for r in rows], dtype=np.int64)
        obs[(starts[:, None] + self._span).ravel()] = \
            ((masks[:, None] >> self._bits[None, :]) & 1).ravel()
        obs[at] = values
        return obs
