"""One deal played out by policies, bidding included: :func:`play` (``herzla.play``).

>>> import herzla
>>> seats = ["heuristic", "random", "heuristic", "random"]
>>> rec = herzla.play("herzla", seats, seed=7)
>>> rec.contract_id, len(rec.plays), herzla.replay(rec).complete
('normal', 32, True)
>>> herzla.play("herzla", seats, seed=7) == rec  # the same seed, the same hand
True
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import attrs

from herzla.contracts import UnknownContract, get_game
from herzla.i18n import _
from herzla.limits import LimitError, check_seed, whole_number
from herzla.players.registry import PolicyLike, seats_of
from herzla.players.seats import bid_out, play_out
from herzla.quote import quote
from herzla.records import Record, RecordError, deal_record, play_moves, read_record
from herzla.round import Round
from herzla.support.streams import block_generator, draw_block

__all__ = ["play"]


def _dealt(game: str, contract: str | None, players: int | None, seed: int,
           dealer: int | None, stock: int, options: Mapping[str, Any] | None
           ) -> tuple[Record, bool]:
    """The deal of ``game`` with ``seed`` (as ``herzla deal`` deals it) and whether the
    bidding chooses its contract (``contract`` None in a game with bidding)."""
    if contract is not None and not isinstance(contract, str):
        raise RecordError(_("contract is a contract's id (\"normal\", \"beddl\"), not "
                            "{contract}").format(contract=quote(contract)))
    try:
        g = get_game(game)
    except UnknownContract as exc:
        raise RecordError(str(exc)) from None
    bid = contract is None and bool(g.bidding)
    if contract is None:
        ids = [c.id for c in g.contract_classes()]
        if g.bidding:
            contract = g.bidding[0]
        elif len(ids) == 1:
            contract = ids[0]
        else:
            raise RecordError(_("{id}: choose a contract (one of {ids})").format(
                id=g.id, ids=', '.join(ids)))
    try:
        return deal_record(g.id, contract, players, seed, dealer=dealer, stock=stock,
                           options=options), bid
    except UnknownContract as exc:
        raise RecordError(str(exc)) from None


def play(deal: str | Record | Mapping[str, Any], policies: PolicyLike = "heuristic", *,
         seed: int | None = None, contract: str | None = None, players: int | None = None,
         dealer: int | None = None, stock: int = 0,
         options: Mapping[str, Any] | None = None) -> Record:
    """Play a deal out with ``policies`` and return its hand record.

    ``deal`` is a game's name (the deal is dealt from ``seed`` as ``herzla deal`` deals it; in
    a game with bidding and no ``contract`` the seats announce first, each by its policy, and
    the contract they settle on is played), or a hand record (a :class:`~herzla.records.Record`
    or its JSON object), whose contract is played on from its plays, its tags kept.
    ``policies`` is one policy for every seat or one a seat: names as ``--policy`` takes them,
    :class:`~herzla.players.Policy` objects, or both.  ``seed`` draws the deal and the moves'
    uniforms (the random policy's choices) as ``herzla simulate`` draws its first hand; None:
    a fresh one.  PolicyError names a bad policy (or an illegal move it chose), RecordError a
    bad deal.
    """
    if seed is None:
        seed = secrets.randbits(63)
    try:
        check_seed(whole_number(seed, "seed"))
    except LimitError as exc:
        raise RecordError(str(exc)) from None
    if isinstance(deal, str):
        rec, bid = _dealt(deal, contract, players, seed, dealer, stock, options)
    elif not isinstance(deal, Record | Mapping):
        raise RecordError(_("deal is a game's name or a hand record, not {deal}").format(
            deal=quote(deal)))
    else:
        if contract is not None or players is not None or dealer is not None or stock or options:
            raise RecordError(_("a hand record states its contract, players, dealer, stock and "
                                "options: give them only with a game's name"))
        rec, bid = read_record(deal), False
    seats = seats_of(policies, rec.players)
    base = rec.contract
    pack = [c.index for c in base.pack().cards]
    moves = rec.players * base.hand_size
    _cards, uniforms = draw_block(block_generator(seed, (0, 0)), 1, pack, moves)
    row = [int(u) for u in uniforms[0]]
    dealt = rec.start(played=True)  # RecordError at an illegal play, as replay names it
    state = Round(base, dealt.dealt, rec.dealer, rec.stock, bidding=bid)
    if bid:
        bid_out(state, seats)
    assert state.hand is not None
    play_moves(state.hand, rec.plays)  # legal: checked above
    done = len(state.hand.moves)
    play_out(state, seats, lambda k: row[(done + k) % len(row)])
    out = state.record()
    tags = getattr(rec, "tags", None)
    return attrs.evolve(out, tags=tags) if tags else out
