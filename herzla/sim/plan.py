"""What a simulation run plays (:class:`Plan`): its mode, its deal streams and their blocks,
and the shares of it a task takes (:class:`Task`).  The runner (:mod:`herzla.sim.runner`)
plays a plan."""

from __future__ import annotations

import enum

import attrs

from herzla.sim.spec import DealSpec
from herzla.support.streams import BLOCK

__all__ = ["MODES", "Mode", "Plan", "Task"]


class Mode(enum.StrEnum):
    """What a run plays: one deal type, each hand on its own (``contract``); hands whose contract
    the bidding decides (``bidding``); whole parties, one stream per deal (``partie``)."""

    CONTRACT = "contract"
    BIDDING = "bidding"
    PARTIE = "partie"


MODES = tuple(m.value for m in Mode)


@attrs.frozen(slots=True)
class Plan:
    """What to play: the deal streams, how many hands (parties in a partie), the seed, the blocks.

    ``specs`` holds one :class:`DealSpec` per stream; ``expected`` what a hand of each stream adds
    up to over the seats (None: not fixed), ``partie_total`` the same for a whole partie.
    ``sample`` asks for the first hands (parties, evenings) as hand records.

    ``session`` (0: none): the run plays evenings of that many deals, one stream per deal (each
    dealt by its dealer, the deal passing round), the stock carried from deal to deal of each
    evening (it starts at ``stock``); ``hands`` counts evenings.  ``mode`` then says how each
    deal's contract is chosen (``contract`` or ``bidding``).
    """

    game: str
    mode: Mode = attrs.field(converter=Mode)
    players: int
    specs: tuple[DealSpec, ...]
    seed: int
    hands: int
    expected: tuple[int | None, ...] = ()
    partie_total: int | None = None
    lowest_wins: bool = False
    stock: int | None = None  # the stock before each hand, games with a stock
    sample: int = 0
    block: int = BLOCK
    engine: str = "auto"
    contract_names: tuple[str, ...] = ()  # with bidding: the contract of each code
    session: int = 0  # deals per evening; 0: not a session
    rows: bool = False  # one row a hand (partie, evening) besides the tallies

    @property
    def blocks(self) -> int:
        return -(-self.hands // self.block)

    def block_hands(self, b: int) -> int:
        return min(self.block, self.hands - b * self.block)

    def block_records(self, b: int) -> int:
        """How many of block ``b``'s hands belong to the sample."""
        return max(0, min(self.block_hands(b), self.sample - b * self.block))

    @property
    def deals(self) -> int:
        """Hands played per unit counted: 1, or the deals of a partie or an evening."""
        return len(self.specs) if self.mode is Mode.PARTIE or self.session else 1

    @property
    def unit(self) -> str:
        """What ``hands`` counts, in words: hands, parties or evenings."""
        return ("evenings" if self.session else "parties" if self.mode is Mode.PARTIE
                else "hands")


@attrs.frozen(slots=True)
class Task:
    """A share of the run: blocks ``first .. last-1`` (of every deal stream, in a partie)."""

    first: int
    last: int
