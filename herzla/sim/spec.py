"""What the simulator plays and what an engine answers: the types both engines share.

A :class:`DealSpec` holds one deal type, resolved: the contract played at its table with its
options, the dealer and every seat's policy; an engine plays blocks of it
(:func:`herzla.sim.engine.play_block`) and answers a :class:`BlockResult`.  It is checked once,
where it is made (:func:`herzla.sim.api.plan_run`, or :meth:`DealSpec.of` from names), and
pickles to worker processes and cluster workers with its objects (a plug-in's contract classes
by their import path).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.cards import HEARTS_MASK
from herzla.contracts import Contract, contract_class, get_game
from herzla.hand import record_json
from herzla.i18n import _
from herzla.players.policy import Policy
from herzla.players.registry import named_policies, seat_policies
from herzla.round import Seated, Seating, make_contract

__all__ = ["BlockResult", "DealSpec", "counts_hearts", "counts_hearts_as_points", "sample_record",
           "spec_contract"]


def _seated(policies: Iterable[Policy]) -> tuple[Policy, ...]:
    return tuple(policies)


@attrs.frozen(slots=True)
class DealSpec(Seated):
    """What to simulate: one deal type at its table, and the seats' policies, resolved.

    ``contract`` is the contract played (its players, options and declarer); ``seating`` the
    table (:class:`herzla.round.Seating`): its contract id None where the bidding chooses each
    hand's contract (``bid``), ``contract`` then being the one played when nobody announces
    (the first of the game's ``bidding``), its stock the stock before each hand (an evening's
    blocks give each hand its own instead: ``play_block(..., stock=...)``), its options the rule
    options as given (a hand record writes them; the contract holds them all, defaults
    included).  ``policies`` holds each seat's policy; ``policy`` names them as they were given
    (:func:`herzla.players.seat_policies` reads such a name; by default the policies' own
    names).

    ValueError (from :meth:`of`, or here for a dealer or a number of policies that does not fit
    the table) names what is wrong.
    """

    contract: Contract
    seating: Seating
    policies: tuple[Policy, ...] = attrs.field(converter=_seated)
    policy: str = attrs.field()

    @policy.default
    def _policy(self) -> str:
        return named_policies(self.policies)

    @classmethod
    def at(cls, contract: Contract, dealer: int, policies: Iterable[Policy], bid: bool = False,
           stock: int = 0, options: Mapping[str, Any] | None = None,
           policy: str | None = None) -> DealSpec:
        """The spec of ``contract`` dealt by ``dealer`` (``bid``: the bidding chooses each
        hand's contract, ``contract`` the one played when nobody announces)."""
        seating = Seating(contract.game, contract.players, dealer,
                          None if bid else contract.id, contract.declarer, options, stock)
        seated = _seated(policies)
        return cls(contract, seating, seated,
                   named_policies(seated) if policy is None else policy)

    def __attrs_post_init__(self) -> None:
        n = self.contract.players
        if not 0 <= self.dealer < n:
            raise ValueError(_("dealer {dealer} is not a seat of {n} players").format(
                dealer=self.dealer, n=n))
        if len(self.policies) != n:
            raise ValueError(_("{n_policies} policies for {n} seats").format(
                n_policies=len(self.policies), n=n))

    @classmethod
    def of(cls, game: str, contract_id: str | None, players: int, dealer: int,
           declarer: int | None = None, stock: int = 0,
           options: Mapping[str, Any] | None = None, policy: str = "random") -> DealSpec:
        """The spec named by text: ``contract_id`` None plays the game's bidding (each hand's
        contract chosen by it), or a game without bidding its only contract; a contract that
        needs a declarer and has none is played by forehand; ``policy`` names the policy of
        every seat, or one a seat separated by commas.  ValueError names what is wrong."""
        policies = seat_policies(policy, players)  # PolicyError (a ValueError) names a bad one
        g = get_game(game)
        bid = False
        if contract_id is None:
            if g.bidding:
                bid = True
                kind = contract_class(g.id, g.bidding[0])
            else:
                classes = g.contract_classes()
                if len(classes) != 1:
                    raise ValueError(_("{game} needs a contract: it has no bidding").format(
                        game=game))
                kind = classes[0]
        else:
            kind = contract_class(game, contract_id)
        if not 0 <= dealer < players:
            raise ValueError(_("dealer {dealer} is not a seat of {players} players").format(
                dealer=dealer, players=players))
        given = dict(options or {})
        contract = make_contract(game, kind.id, players, given,
                                 declarer if kind.needs_declarer else None, dealer=dealer)
        return cls.at(contract, dealer, policies, bid, stock, given, policy)

    @property
    def game(self) -> str:
        """The game's id."""
        return self.seating.game

    @property
    def contract_id(self) -> str | None:
        """The contract's id; None when the bidding chooses each hand's contract."""
        return self.seating.contract

    @property
    def bid(self) -> bool:
        """Whether the bidding chooses each hand's contract."""
        return self.seating.contract is None

    @property
    def players(self) -> int:
        return self.seating.players


@attrs.frozen(slots=True, eq=False)
class BlockResult:
    """The outcome of ``n`` hands.

    ``contracts`` holds, with bidding, each hand's contract code (its index in the game's
    ``bidding``).  ``hearts`` holds the hearts each seat captured, for trick deals played in
    full (:func:`counts_hearts`).  ``hand_events`` says per event which hands it happened in
    (every event that happened in some hand of the block); ``declarers`` holds each hand's
    declarer (-1: a contract without one), where the bidding chooses the contract.
    """

    scores: npt.NDArray[np.int64]  # (n, players)
    stock_after: npt.NDArray[np.int64] | None  # (n,), games with a stock
    events: dict[str, int]  # event -> number of hands it happened in
    contracts: npt.NDArray[np.int8] | None  # bidding: the code of each hand's contract
    records: tuple[dict[str, Any], ...]  # the first hands as hand records (with plays)
    hearts: npt.NDArray[np.int64] | None = None  # (n, players) hearts captured, see above
    hand_events: Mapping[str, npt.NDArray[np.bool_]] = attrs.field(factory=dict)  # (n,) each
    declarers: npt.NDArray[np.int8] | None = None  # (n,), with bidding


def counts_hearts(contract: Contract, bid: bool) -> bool:
    """Whether a block of ``contract`` (``bid``: with the bidding) reports the hearts each seat
    captured (:attr:`BlockResult.hearts`): trick deals without an early end, played on their
    own."""
    return bool(contract.tricks_per_hand) and not bid and not contract.may_end_early


def counts_hearts_as_points(spec: DealSpec) -> bool:
    """Whether the contract ``spec`` plays counts hearts: its declared card classes (``values``
    and ``counted``) that hold only hearts together hold every heart of the pack, so that the
    hearts captured say something about its scores (not so in a contract about Kings)."""
    contract = spec.contract
    covered = 0
    for cards in contract.card_classes:
        if cards and not cards & ~HEARTS_MASK:
            covered |= cards
    hearts = HEARTS_MASK & contract.pack().mask
    return covered & hearts == hearts


def spec_contract(spec: DealSpec) -> tuple[Contract, bool]:
    """The contract a spec plays (with bidding: the one played when nobody announces) and
    whether the bidding chooses each hand's contract: ``spec.contract`` and ``spec.bid``."""
    return spec.contract, spec.bid


def sample_record(contract: Contract, spec: DealSpec, hands: Sequence[int], plays: list[str],
                  stock: int | None = None) -> dict[str, Any]:
    """A sample hand as a hand record (the Hand records page of the docs), written by the one
    writer of
    records (:func:`herzla.hand.record_json`); ``stock`` the stock before it (None: the
    spec's)."""
    return record_json(contract, spec.dealer, spec.stock if stock is None else stock, hands,
                       plays)
