"""The bidding's end: the contract and declarer the announcements settle on, once all have
spoken (:func:`resolve`) or as soon as those made settle it (:func:`settled`), by the game's own
rule (``Game.bidding``, ``Game.resolve_bids``)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from herzla.contracts import Contract, game_of

__all__ = ["resolve", "settled"]


def resolve(words: Sequence[str], dealer: int, contract: Contract) -> tuple[str, int | None]:
    """The contract id and declarer the announcements ``words`` (from forehand) settle on."""
    n = len(words)
    forehand = (dealer + 1) % n
    game = game_of(contract)
    ids = list(game.bidding)
    wants = [np.array([0 if w == "pass" else ids.index(w)], dtype=np.int8) for w in words]
    code, turn = game.resolve_bids(wants, contract.opts)
    if not code[0]:
        return ids[0], None
    return ids[int(code[0])], (forehand + int(turn[0])) % n


def settled(said: Sequence[str], forehand: int, contract: Contract
            ) -> tuple[str, int | None] | None:
    """The contract id and declarer once the announcements ``said`` so far (from forehand)
    settle them, whatever the seats still to speak announce; None while the bidding is open.
    ``contract`` gives the players and the options (the priority)."""
    game = game_of(contract)
    ids = list(game.bidding)
    n = contract.players
    codes = [0 if w == "pass" else ids.index(w) for w in said]
    rest = list(itertools.product(range(len(ids)), repeat=n - len(codes)))
    wants = [np.full(len(rest), c, dtype=np.int8) for c in codes]
    wants += [np.array([r[k] for r in rest], dtype=np.int8) for k in range(n - len(codes))]
    code, turn = game.resolve_bids(wants, contract.opts)
    found = {(int(c), int(t)) for c, t in zip(code, turn, strict=True)}
    if len(found) != 1:
        return None
    c, t = found.pop()
    return ids[c], None if c == 0 else (forehand + t) % n
