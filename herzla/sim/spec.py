"""What the simulator plays and what an engine answers: the types both engines share.

A :class:`DealSpec` names one deal type with its table and options and the policy; an engine
plays blocks of it (:func:`herzla.sim.engine.play_block`) and answers a :class:`BlockResult`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.cards import HEARTS_MASK, cards_of
from herzla.contracts import Contract, TrickContract, contract_class, get_game
from herzla.records import sort_hand

__all__ = ["BlockResult", "DealSpec", "counts_hearts", "counts_hearts_as_points", "record_of",
           "spec_contract"]


@attrs.frozen(slots=True)
class DealSpec:
    """What to simulate: one deal type with its table and options, and the policy.

    ``policy`` names the policy of every seat, or one a seat separated by commas
    (:func:`herzla.players.seat_policies`).

    ``contract_id`` None: a game with bidding (Herzla) lets the bidding choose each hand's
    contract; a game with one contract plays it.
    """

    game: str
    contract_id: str | None
    players: int
    dealer: int
    declarer: int | None = None
    stock: int = 0
    options: Mapping[str, Any] = attrs.field(factory=dict)
    policy: str = "random"


@attrs.frozen(slots=True, eq=False)
class BlockResult:
    """The outcome of ``n`` hands.

    ``contracts`` holds, with bidding, each hand's contract code (its index in the game's
    ``bidding``).  ``hearts`` holds the hearts each seat captured, for trick deals played in
    full (:func:`counts_hearts`).
    """

    scores: npt.NDArray[np.int64]  # (n, players)
    stock_after: npt.NDArray[np.int64] | None  # (n,), games with a stock
    events: dict[str, int]  # event -> number of hands it happened in
    contracts: npt.NDArray[np.int8] | None  # bidding: the code of each hand's contract
    records: tuple[dict[str, Any], ...]  # the first hands as hand records (with plays)
    hearts: npt.NDArray[np.int64] | None = None  # (n, players) hearts captured, see above


def counts_hearts(contract: Contract, bid: bool) -> bool:
    """Whether a block of ``contract`` (``bid``: with the bidding) reports the hearts each seat
    captured (:attr:`BlockResult.hearts`): trick deals without an early end, played on their
    own."""
    return (isinstance(contract, TrickContract) and not bid
            and contract.declaration.early_end is None)


def counts_hearts_as_points(spec: DealSpec) -> bool:
    """Whether the contract ``spec`` plays counts hearts: its declared card classes (``values``
    and ``counted``) that hold only hearts together hold every heart of the pack, so that the
    hearts captured say something about its scores (not so in a contract about Kings)."""
    contract, _ = spec_contract(spec)
    if not isinstance(contract, TrickContract):
        return False
    d = contract.declaration
    covered = 0
    for cards in (*(v.cards for v in d.values), *d.counted):
        if cards and not cards & ~HEARTS_MASK:
            covered |= cards
    hearts = HEARTS_MASK & contract.pack().mask
    return covered & hearts == hearts


def spec_contract(spec: DealSpec) -> tuple[Contract, bool]:
    """The contract a spec plays (with bidding: the one played when nobody announces) and
    whether the bidding chooses each hand's contract.

    Beddl and Mord without a declarer are played by forehand.  ValueError names what is wrong.
    """
    from herzla.players.registry import seat_policies

    seat_policies(spec.policy, spec.players)  # PolicyError (a ValueError) names a bad one
    game = get_game(spec.game)
    bid = False
    if spec.contract_id is None:
        if game.bidding:
            bid = True
            cls = contract_class(game.id, game.bidding[0])
        else:
            classes = game.contract_classes()
            if len(classes) != 1:
                raise ValueError(f"{spec.game} needs a contract: it has no bidding")
            cls = classes[0]
    else:
        cls = contract_class(spec.game, spec.contract_id)
    if not 0 <= spec.dealer < spec.players:
        raise ValueError(f"dealer {spec.dealer} is not a seat of {spec.players} players")
    declarer = None
    if cls.needs_declarer:
        declarer = (spec.dealer + 1) % spec.players if spec.declarer is None else spec.declarer
    return cls(spec.players, spec.options, declarer), bid


def record_of(contract: Contract, spec: DealSpec, hands: Sequence[int], plays: list[str]
              ) -> dict[str, Any]:
    """A sample hand as a hand record (docs/hand-records.md)."""
    return {
        "game": contract.game, "contract": contract.id, "players": spec.players,
        "dealer": spec.dealer, "declarer": contract.declarer, "stock": spec.stock,
        "options": dict(spec.options),
        "hands": [[str(c) for c in sort_hand(cards_of(h), contract)] for h in hands],
        "plays": plays,
    }
