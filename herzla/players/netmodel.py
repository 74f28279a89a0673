"""The ``net`` policy's model: what it reads of a seat's view, and its small network.

The model values each legal card of a trick deal on the same few dozen *card features*
(:data:`FEATURES`): what the card is (its place in the suit's rank order, whether the contract's
declaration makes it a card to avoid or gives it a value, whether a lead ban holds it back), what
it does in the trick in progress (it leads, follows, discards, wins so far, whether a seat after
it has shown a void in the suit), what is still unseen above and below it, what the seat and the
other seats have captured so far (the scores at stake) and where the declarer sits.  Every
feature is read from the contract's declaration (:class:`~herzla.contracts.TrickRules`: its
card values, its counted card classes, its lead bans, its early end, its declarer) and the seat's
view, never from a table keyed by a contract: a plug-in contract is read the same way.

The network is a small MLP, ``score = w2 . relu(W1 x + b1) + b2``, applied to each legal card; the
seat plays the card of the highest score (ties: the first in the rank order's slot order).  Its
weights are whole numbers (stored as float64) and its features small whole numbers, so every
product and sum is exact in float64 whatever the order of summation: the reference engine (one
view at a time) and the batch engine (many hands at once) choose the same card, bit for bit.

Cards are placed in *slots*: 36 bits, suit ``s`` taking bits ``9 s .. 9 s + 8``, a card's slot
within its suit its strength in the contract's rank order (0 the weakest of the nine ranks).
Both engines hand :func:`card_scores` the same quantities in this layout (:class:`Seen`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.cards import Card
from herzla.contracts import Contract, TrickRules
from herzla.contracts.vocabulary import EarlyEnd

__all__ = ["FEATURES", "ContractRead", "Model", "Seen", "card_features", "choose_slots",
           "load_model", "read_contract", "slot_of"]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
SUIT_FIELD = (1 << 9) - 1

#: the card features, in the order of the model's inputs
FEATURES = (
    "bias", "lead", "last", "follows", "discards", "wins_now", "danger", "value",
    "trick_danger", "trick_value", "unseen_above", "unseen_below", "own_above", "own_below",
    "unseen_suit_danger", "own_suit", "after", "void_after", "my_danger", "my_clean",
    "others_clean", "my_tricks", "tricks_left", "declarer", "has_declarer",
    "declarer_winning", "declarer_after", "end_if_declarer_wins", "end_if_defender_wins",
    "banned_next", "unseen_danger", "strength", "boss", "trick_index", "my_value",
    "lowest_of_suit", "highest_of_suit", "top_danger_after",
)

#: the model file shipped in the package
WEIGHTS = "net_weights.npz"


def slot_of(card: Card, strength: Sequence[int]) -> int:
    """The card's slot: ``9 * suit + strength of its rank``."""
    return 9 * int(card.suit) + strength[card.rank]


@attrs.frozen(slots=True, eq=False)
class ContractRead:
    """What the model reads of a contract's declaration, in slots.

    ``pack``: the pack's cards; ``danger``: the cards the scorer counts (card values and counted
    classes); ``values``: per value class, its cards and its points scaled to -8..8;
    ``ban_lead[t]``: the cards banned from a lead to trick ``t``; ``early``: 0 none, 1 the hand
    ends when the declarer wins a trick, 2 when a defender does; ``key``: the game and contract
    ids (what the model says it was trained on).
    """

    key: str
    slots: tuple[int, ...]  # slot of each card index, -1 outside the pack
    pack: int
    danger: int
    values: tuple[tuple[int, int], ...]
    ban_lead: tuple[int, ...]
    early: int
    tricks: int
    players: int

    def mask(self, index_mask: int) -> int:
        """A card-index bit set in slots (cards outside the pack left out)."""
        out = 0
        m = index_mask
        while m:
            low = m & -m
            slot = self.slots[low.bit_length() - 1]
            if slot >= 0:
                out |= 1 << slot
            m ^= low
        return out

    def ban_at(self, t: int) -> int:
        return self.ban_lead[t] if 0 <= t < len(self.ban_lead) else 0


def _key(contract: Contract) -> tuple[Any, ...]:
    return (type(contract), contract.players, tuple(sorted(contract.opts.items())))


_READS: dict[tuple[Any, ...], ContractRead] = {}


def read_contract(contract: Contract) -> ContractRead:
    """The contract's declaration in slots (kept per contract class, players and options)."""
    k = _key(contract)
    got = _READS.get(k)
    if got is not None:
        return got
    d = contract.declaration
    assert isinstance(d, TrickRules)
    st = contract.rank_order().strength
    slots = [-1] * 36
    for c in contract.pack().cards:
        slots[c.index] = slot_of(c, st)
    read = ContractRead(f"{contract.game}/{contract.id}", tuple(slots), 0, 0, (), (), 0, 0,
                        contract.players)
    pack = read.mask(contract.pack().mask)
    danger = 0
    for m in d.classes():
        danger |= read.mask(m)
    top = max((abs(v.points) for v in d.values), default=0)
    values = tuple((read.mask(v.cards), round(8 * v.points / top)) for v in d.values
                   if top and v.points)
    T = contract.hand_size
    ban = tuple(read.mask(b[0]) if (b := d.banned(t, True)) is not None else 0
                for t in range(T + 1))
    early = {None: 0, EarlyEnd.DECLARER_WINS: 1, EarlyEnd.DEFENDER_WINS: 2}[d.early_end]
    read = attrs.evolve(read, pack=pack, danger=danger, values=values, ban_lead=ban,
                        early=early, tricks=T)
    _READS[k] = read
    return read


@attrs.frozen(slots=True, eq=False)
class Seen:
    """What ``C`` seats to play have seen, one entry per seat (arrays of length ``C``, card sets
    in slots; seats counted from the seat to play: ``r`` is the seat ``r`` places after it).

    ``won[r]``, ``tricks[r]``, ``voids[r]`` (4 bits, one per suit): per relative seat, what it
    captured, how many tricks it won, the suits it has shown it lacks; ``winner``: the relative
    seat winning the trick in progress (-1 at the lead); ``declarer``: the declarer's relative
    seat (-1: none).
    """

    hand: U64
    legal: U64
    played: U64
    trick: U64
    top: U64
    position: I64
    trick_index: I64
    won: list[U64]
    tricks: list[I64]
    voids: list[I64]
    winner: I64
    declarer: I64


def _count(x: U64) -> I64:
    return np.bitwise_count(x).astype(np.int64)


def _value_sum(x: U64, read: ContractRead) -> I64:
    out = np.zeros(len(x), dtype=np.int64)
    for cards, pts in read.values:
        out += _count(x & np.uint64(cards)) * pts
    return out


def card_features(seen: Seen, read: ContractRead) -> tuple[npt.NDArray[np.float64], I64, I64]:
    """The features of every legal card: (features (N, len(FEATURES)) whole numbers, the hand
    of each row, the slot of each row), rows in hand order, then slot order."""
    C = len(seen.hand)
    P = read.players
    shifts = np.arange(36, dtype=np.uint64)
    bitmat = (seen.legal[:, None] >> shifts[None, :]) & np.uint64(1)
    h, s = np.nonzero(bitmat)
    h = h.astype(np.int64)
    s = s.astype(np.int64)
    cbit = np.left_shift(np.uint64(1), s.astype(np.uint64))
    suit = s // 9
    smask = np.left_shift(np.uint64(SUIT_FIELD), (9 * suit).astype(np.uint64))
    below = (cbit - np.uint64(1)) & smask
    above = smask & ~(below | cbit)
    danger = np.uint64(read.danger)
    pack = np.uint64(read.pack)
    hand = seen.hand[h]
    unseen = pack & ~(seen.hand | seen.played)
    un = unseen[h]
    trick = seen.trick[h]
    top = seen.top[h]
    pos = seen.position[h]
    lead = pos == 0
    led_suit = np.full(len(h), -1, dtype=np.int64)
    for k in range(4):
        led_suit[(top & np.uint64(SUIT_FIELD << (9 * k))) != 0] = k
    follows = ~lead & (suit == led_suit)
    discards = ~lead & ~follows
    wins_now = follows & (cbit > top)
    is_danger = (cbit & danger) != 0
    value = np.zeros(len(h), dtype=np.int64)
    for cards, pts in read.values:
        value += np.where((cbit & np.uint64(cards)) != 0, pts, 0)
    after = (P - 1) - pos
    void_after = np.zeros(len(h), dtype=np.int64)
    for r in range(1, P):
        v = (seen.voids[r][h] >> suit) & 1
        void_after += np.where(r <= np.where(lead, P - 1, after), v, 0)
    mine = [_count(seen.won[r] & danger) for r in range(P)]
    others_clean = np.zeros(C, dtype=np.int64)
    for r in range(1, P):
        others_clean += mine[r] == 0
    decl = seen.declarer[h]
    has_decl = decl >= 0
    winner = seen.winner[h]
    own_suit = hand & smask
    own_legal_suit = seen.legal[h] & smask
    top_danger = _count(trick & danger)
    ban_next = np.array([read.ban_at(t + 1) for t in range(read.tricks + 1)], dtype=np.uint64)
    cols = [
        np.ones(len(h), dtype=np.int64),
        lead, pos == P - 1, follows, discards, wins_now, is_danger, value,
        top_danger, _value_sum(seen.trick, read)[h],
        _count(un & above), _count(un & below), _count(hand & above), _count(hand & below),
        _count(un & smask & danger), _count(own_suit), after, void_after,
        mine[0][h], mine[0][h] == 0, others_clean[h], seen.tricks[0][h],
        read.tricks - seen.trick_index[h], has_decl & (decl == 0), has_decl,
        has_decl & (winner == decl) & ~lead, has_decl & (decl > 0) & (decl <= after),
        np.full(len(h), read.early == 1), np.full(len(h), read.early == 2),
        (cbit & ban_next[np.clip(seen.trick_index[h], 0, read.tricks)]) != 0,
        _count(unseen & danger)[h], s % 9, _count(un & above) == 0, seen.trick_index[h],
        _value_sum(seen.won[0], read)[h],
        (own_legal_suit & below) == 0, (own_legal_suit & above) == 0,
        top_danger * wins_now * (pos < P - 1),
    ]
    X = np.stack([np.asarray(c).astype(np.float64) for c in cols], axis=1)
    return X, h, s


@attrs.frozen(slots=True, eq=False)
class Model:
    """A small MLP of whole-number weights (see the module notes); ``trained``: the
    ``game/contract`` keys it was trained on; ``about``: what it learned from, in words."""

    w1: npt.NDArray[np.float64]
    b1: npt.NDArray[np.float64]
    w2: npt.NDArray[np.float64]
    b2: float
    trained: frozenset[str]
    about: str

    def scores(self, X: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        hidden = X @ self.w1
        hidden += self.b1
        np.maximum(hidden, 0.0, out=hidden)
        out: npt.NDArray[np.float64] = hidden @ self.w2 + self.b2
        return out

    def knows(self, read: ContractRead) -> bool:
        return read.key in self.trained

    def save(self, path: str) -> None:
        np.savez_compressed(path, w1=self.w1, b1=self.b1, w2=self.w2,
                            b2=np.array([self.b2]), trained=np.array(sorted(self.trained)),
                            about=np.array([self.about]), features=np.array(FEATURES))


def model_from(data: Any) -> Model:
    feats = tuple(str(x) for x in data["features"])
    if feats != FEATURES:
        raise ValueError("the net's weights were trained on other features; retrain them "
                         "(tools/train_net.py)")
    return Model(np.asarray(data["w1"], dtype=np.float64), np.asarray(data["b1"], np.float64),
                 np.asarray(data["w2"], dtype=np.float64), float(data["b2"][0]),
                 frozenset(str(x) for x in data["trained"]), str(data["about"][0]))


@functools.cache
def load_model(path: str | None = None) -> Model:
    """The model shipped in the package (or the one at ``path``)."""
    if path is not None:
        with np.load(path) as data:
            return model_from(data)
    with resources.files("herzla.players").joinpath(WEIGHTS).open("rb") as f, \
            np.load(f) as data:
        return model_from(data)


def choose_slots(model: Model, seen: Seen, read: ContractRead) -> I64:
    """The slot of the card each seat plays: its legal card of the highest score (ties: the
    first slot)."""
    X, h, s = card_features(seen, read)
    q = model.scores(X)
    C = len(seen.hand)
    best = np.full(C, -np.inf)
    np.maximum.at(best, h, q)
    hit = q == best[h]
    rows = np.flatnonzero(hit)
    _, first = np.unique(h[rows], return_index=True)
    out = np.zeros(C, dtype=np.int64)
    out[h[rows[first]]] = s[rows[first]]
    return out
