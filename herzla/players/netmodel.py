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
import io
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

from herzla.cards import Card
from herzla.contracts import Contract
from herzla.contracts.vocabulary import EarlyEnd, trick_rules
from herzla.i18n import _
from herzla.players.modelfile import ModelError, digest, read_arrays

__all__ = ["FEATURES", "SCORE_UNIT", "ContractRead", "Model", "Seen", "card_features",
           "choose_slots", "load_model", "read_contract", "slot_of"]

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
#: a card's score as the model computes it, per unit of the score its hint shows
SCORE_UNIT = 2.0**20
#: the largest a contract's unit may be (game units per unit of score): a bound on entry
UNIT_LIMIT = 1e6


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
    d = trick_rules(contract)
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

    def subset(self, idx: npt.NDArray[np.intp]) -> Seen:
        """The same for the seats ``idx`` only."""
        return Seen(self.hand[idx], self.legal[idx], self.played[idx], self.trick[idx],
                    self.top[idx], self.position[idx], self.trick_index[idx],
                    [w[idx] for w in self.won], [n[idx] for n in self.tricks],
                    [v[idx] for v in self.voids], self.winner[idx], self.declarer[idx])


def _count(x: U64) -> npt.NDArray[np.uint8]:
    return np.bitwise_count(x)


def _value_sum(x: U64, read: ContractRead) -> I64:
    out = np.zeros(len(x), dtype=np.int64)
    for cards, pts in read.values:
        out += _count(x & np.uint64(cards)).astype(np.int64) * pts
    return out


def legal_pairs(legal: U64) -> tuple[I64, I64]:
    """Each legal card as (hand, slot), lowest card of every hand first, then the next."""
    x = legal.copy()
    hs, ss = [], []
    while True:
        low = x & (~x + np.uint64(1))
        rows = np.flatnonzero(low)
        if not len(rows):
            break
        bit = low[rows]
        x[rows] ^= bit
        hs.append(rows)
        ss.append(np.log2(bit.astype(np.float64)).astype(np.int64))
    if not hs:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(hs).astype(np.int64), np.concatenate(ss)


#: the features that are the same for every card of a hand (computed once a hand)
HAND_FEATURES = ("bias", "lead", "last", "trick_danger", "trick_value", "after", "my_danger",
                 "my_clean", "others_clean", "my_tricks", "tricks_left", "declarer",
                 "has_declarer", "declarer_winning", "declarer_after", "end_if_declarer_wins",
                 "end_if_defender_wins", "unseen_danger", "trick_index", "my_value")
#: the features of each card
CARD_FEATURES = tuple(f for f in FEATURES if f not in HAND_FEATURES)


@attrs.frozen(slots=True, eq=False)
class CardFeatures:
    """The features of every legal card of ``C`` hands: ``hand`` ``(len(HAND_FEATURES), C)``
    and ``card`` ``(len(CARD_FEATURES), N)``, whole numbers; ``h``, ``s``: the hand and the slot
    of each card (hand order, then slot order)."""

    hand: npt.NDArray[np.float32]
    card: npt.NDArray[np.float32]
    h: I64
    s: I64

    def rows(self) -> npt.NDArray[np.float64]:
        """Every card's features in the order of :data:`FEATURES`, ``(N, len(FEATURES))``."""
        out = np.empty((len(self.h), len(FEATURES)))
        for i, f in enumerate(HAND_FEATURES):
            out[:, FEATURES.index(f)] = self.hand[i][self.h]
        for i, f in enumerate(CARD_FEATURES):
            out[:, FEATURES.index(f)] = self.card[i]
        return out


def card_features(seen: Seen, read: ContractRead) -> CardFeatures:
    """The features of every legal card (:class:`CardFeatures`)."""
    C = len(seen.hand)
    P = read.players
    h, s = legal_pairs(seen.legal)
    N = len(h)
    danger = np.uint64(read.danger)
    pack = np.uint64(read.pack)
    # -- the hand's --
    pos = seen.position
    lead = pos == 0
    after = (P - 1) - pos
    mine = [_count(seen.won[r] & danger) for r in range(P)]
    others_clean = np.zeros(C, dtype=np.int64)
    for r in range(1, P):
        others_clean += mine[r] == 0
    decl = seen.declarer
    has_decl = decl >= 0
    top_danger = _count(seen.trick & danger)
    unseen = pack & ~(seen.hand | seen.played)
    ti = seen.trick_index
    H = np.empty((len(HAND_FEATURES), C), dtype=np.float32)
    H[0] = 1
    H[1] = lead
    H[2] = pos == P - 1
    H[3] = top_danger
    H[4] = _value_sum(seen.trick, read)
    H[5] = after
    H[6] = mine[0]
    H[7] = mine[0] == 0
    H[8] = others_clean
    H[9] = seen.tricks[0]
    H[10] = read.tricks - ti
    H[11] = has_decl & (decl == 0)
    H[12] = has_decl
    H[13] = has_decl & (seen.winner == decl) & ~lead
    H[14] = has_decl & (decl > 0) & (decl <= after)
    H[15] = read.early == 1
    H[16] = read.early == 2
    H[17] = _count(unseen & danger)
    H[18] = ti
    H[19] = _value_sum(seen.won[0], read)
    # -- each card's --
    cbit = np.left_shift(np.uint64(1), s.astype(np.uint64))
    suit = s // 9
    smask = np.left_shift(np.uint64(SUIT_FIELD), (9 * suit).astype(np.uint64))
    below = (cbit - np.uint64(1)) & smask
    above = smask & ~(below | cbit)
    hand = seen.hand[h]
    un = unseen[h]
    top = seen.top[h]
    lead_h = lead[h]
    led_suit = np.full(N, -1, dtype=np.int64)
    for k in range(4):
        led_suit[(top & np.uint64(SUIT_FIELD << (9 * k))) != 0] = k
    follows = ~lead_h & (suit == led_suit)
    wins_now = follows & (cbit > top)
    value = np.zeros(N, dtype=np.int64)
    for cards, pts in read.values:
        value += np.where((cbit & np.uint64(cards)) != 0, pts, 0)
    reach = np.where(lead, P - 1, after)[h]
    void_after = np.zeros(N, dtype=np.int64)
    for r in range(1, P):
        v = (seen.voids[r][h] >> suit) & 1
        void_after += np.where(r <= reach, v, 0)
    own_legal_suit = seen.legal[h] & smask
    ban_next = np.array([read.ban_at(t + 1) for t in range(read.tricks + 1)], dtype=np.uint64)
    un_above = _count(un & above)
    X = np.empty((len(CARD_FEATURES), N), dtype=np.float32)
    X[0] = follows
    X[1] = ~lead_h & ~follows
    X[2] = wins_now
    X[3] = (cbit & danger) != 0
    X[4] = value
    X[5] = un_above
    X[6] = _count(un & below)
    X[7] = _count(hand & above)
    X[8] = _count(hand & below)
    X[9] = _count(un & smask & danger)
    X[10] = _count(hand & smask)
    X[11] = void_after
    X[12] = (cbit & ban_next[np.clip(ti[h], 0, read.tricks)]) != 0
    X[13] = s % 9
    X[14] = un_above == 0
    X[15] = (own_legal_suit & below) == 0
    X[16] = (own_legal_suit & above) == 0
    X[17] = top_danger[h] * wins_now * (pos[h] < P - 1)
    return CardFeatures(H, X, h, s)


#: the largest first-layer weight: with features below 2048 in sum of magnitudes, every partial
#: sum of the first layer stays a whole number below 2**24, exact in float32
W1_LIMIT = 8192


#: columns of a product taken at once: small enough that BLAS runs it on one thread (its
#: threads cost far more than they save on products this small, and fight the simulator's
#: worker processes for the cores)
_BLOCK_WORK = 200_000


def _product(w: npt.NDArray[Any], x: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """``w @ x`` a block of columns at a time (the same numbers: every sum is exact)."""
    step = max(1, _BLOCK_WORK // max(1, w.shape[0] * w.shape[1]))
    n = x.shape[1]
    if n <= step:
        small: npt.NDArray[Any] = w @ x
        return small
    out = np.empty((w.shape[0], n), dtype=np.result_type(w, x))
    for a in range(0, n, step):
        out[:, a:a + step] = w @ x[:, a:a + step]
    return out


@attrs.frozen(eq=False)
class Model:
    """A small MLP of whole-number weights (see the module notes); ``trained``: the
    ``game/contract`` keys it was trained on; ``about``: what it learned from, in words;
    ``units``: per ``game/contract`` key, how much one unit of a card's score
    (:meth:`unit`) is worth in the game's own unit (cents, penalty points), fitted by the
    training script on its teacher's values (none: the score has no scale there)."""

    w1: npt.NDArray[np.float64]
    b1: npt.NDArray[np.float64]
    w2: npt.NDArray[np.float64]
    b2: float
    trained: frozenset[str]
    about: str
    units: tuple[tuple[str, float], ...] = ()

    def __attrs_post_init__(self) -> None:
        if max(float(np.abs(self.w1).max()), float(np.abs(self.b1).max())) > W1_LIMIT:
            raise ValueError(_("the net's first-layer weights must lie within +-{w1_limit}").format(
                w1_limit=W1_LIMIT))
        for key, unit in self.units:
            if not (0 < unit < UNIT_LIMIT):  # NaN is in no range
                raise ValueError(_("the net's unit for {key} must be above 0 and below "
                                   "{unit_limit:g}, not {unit}").format(
                    key=key, unit_limit=UNIT_LIMIT, unit=unit))

    def unit(self, read: ContractRead) -> float | None:
        """What one unit of a card's score (a score of :meth:`scores` divided by
        :data:`SCORE_UNIT`) is worth in the contract's own unit, the higher the better
        (points to avoid count negatively); None where the training fitted none."""
        return dict(self.units).get(read.key)

    @functools.cached_property
    def _split(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                              npt.NDArray[np.float32]]:
        w = self.w1.astype(np.float32)
        hand = [FEATURES.index(f) for f in HAND_FEATURES]
        card = [FEATURES.index(f) for f in CARD_FEATURES]
        return (np.ascontiguousarray(w[hand].T), np.ascontiguousarray(w[card].T),
                self.b1.astype(np.float32)[:, None])

    def scores(self, x: CardFeatures) -> npt.NDArray[np.float64]:
        """Each card's score (whole numbers, exact: see the module notes)."""
        wh, wc, b1 = self._split
        per_hand = _product(wh, x.hand)  # (hidden, C)
        per_hand += b1
        hidden = _product(wc, x.card)  # (hidden, N)
        hidden += per_hand.take(x.h, axis=1)
        np.maximum(hidden, 0.0, out=hidden)
        out: npt.NDArray[np.float64] = _product(self.w2[None, :], hidden.astype(np.float64))[0]
        return out + self.b2

    def rows_scores(self, rows: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The scores of :meth:`CardFeatures.rows` (for training; play uses :meth:`scores`)."""
        out: npt.NDArray[np.float64] = np.maximum(rows @ self.w1 + self.b1, 0) @ self.w2
        return out + self.b2

    def knows(self, read: ContractRead) -> bool:
        return read.key in self.trained

    def save(self, path: str) -> None:
        np.savez_compressed(path, w1=self.w1, b1=self.b1, w2=self.w2,
                            b2=np.array([self.b2]), trained=np.array(sorted(self.trained)),
                            about=np.array([self.about]), features=np.array(FEATURES),
                            unit_keys=np.array([k for k, _ in self.units], dtype=str),
                            unit_values=np.array([u for _, u in self.units], dtype=np.float64))


#: the arrays of a model file: the dtype kinds each may have and its number of dimensions
ARRAYS = {"w1": ("fiu", 2), "b1": ("fiu", 1), "w2": ("fiu", 1), "b2": ("fiu", 1),
          "trained": ("U", 1), "about": ("U", 1), "features": ("U", 1)}
#: the arrays a model file may have (written once the units were fitted)
UNIT_ARRAYS = {"unit_keys": ("U", 1), "unit_values": ("fiu", 1)}
#: the most hidden units a model may have
MAX_HIDDEN = 4096
#: the largest second-layer weight: with hidden values below 2**24 and at most
#: :data:`MAX_HIDDEN` of them, every sum of the second layer is a whole number below 2**53
W2_LIMIT = 1 << 16
#: the SHA-256 of the model shipped in the package (tools/train_net.py writes it with the model)
SHIPPED_SHA256 = "bddf37fe15c5b48d158b19cb931216681021bc36b3a2c0d1d39002ec2e54dd4d"


def model_from(data: Mapping[str, npt.NDArray[Any]]) -> Model:
    """The model of a model file's arrays (:func:`herzla.players.modelfile.read_arrays`);
    ModelError where they are not the arrays, shapes and whole numbers of a model."""
    feats = tuple(str(x) for x in data["features"])
    if feats != FEATURES:
        raise ModelError("the net's weights were trained on other features; retrain them "
                         "(tools/train_net.py)")
    w1, b1, w2, b2 = (np.asarray(data[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2"))
    hidden = w1.shape[1]
    shapes = {"w1": (len(FEATURES), hidden), "b1": (hidden,), "w2": (hidden,), "b2": (1,)}
    for name, arr in (("w1", w1), ("b1", b1), ("w2", w2), ("b2", b2)):
        if arr.shape != shapes[name] or not 1 <= hidden <= MAX_HIDDEN:
            raise ModelError(f"its array {name} has the shape {arr.shape}, not "
                             f"{shapes[name]}")
        if not np.array_equal(arr, np.round(arr)):
            raise ModelError(f"its array {name} holds numbers that are not whole (the net's "
                             f"weights are whole numbers, for exact sums)")
    if max(float(np.abs(w2).max()), abs(float(b2[0]))) > W2_LIMIT:
        raise ModelError(f"the net's second-layer weights must lie within +-{W2_LIMIT}")
    if len(data["about"]) != 1:
        raise ModelError("its array about holds one text, not "
                         f"{len(data['about'])}")
    try:
        return Model(w1, b1, w2, float(b2[0]), frozenset(str(x) for x in data["trained"]),
                     str(data["about"][0]), _units_of(data))
    except ValueError as exc:
        raise ModelError(str(exc)) from None


def _units_of(data: Mapping[str, npt.NDArray[Any]]) -> tuple[tuple[str, float], ...]:
    if "unit_keys" not in data or "unit_values" not in data:  # written before units were fitted
        return ()
    keys = [str(x) for x in data["unit_keys"]]
    values = [float(x) for x in np.asarray(data["unit_values"], dtype=np.float64)]
    if len(keys) != len(values):
        raise ModelError("the net's units name as many contracts as they give values")
    return tuple(sorted(zip(keys, values, strict=True)))


@functools.cache
def load_model(path: str | None = None) -> Model:
    """The model shipped in the package (its hash checked), or the one at ``path``;
    ModelError (a ValueError) names what makes a file no model, before anything is played."""
    if path is not None:
        return model_from(read_arrays(path, ARRAYS, UNIT_ARRAYS))
    data = resources.files("herzla.players").joinpath(WEIGHTS).read_bytes()
    if digest(data) != SHIPPED_SHA256:
        raise ModelError(f"the model shipped in herzla ({WEIGHTS}) is damaged: its hash is not "
                         f"the one it was shipped with; reinstall herzla")
    return model_from(read_arrays(io.BytesIO(data), ARRAYS, UNIT_ARRAYS))


def choose_slots(model: Model, seen: Seen, read: ContractRead) -> I64:
    """The slot of the card each seat plays: its legal card of the highest score (ties: the
    lowest slot); a seat with one legal card plays it."""
    C = len(seen.hand)
    legal = seen.legal
    one = (legal & (legal - np.uint64(1))) == 0
    out = np.zeros(C, dtype=np.int64)
    if one.any():
        out[one] = np.log2(np.maximum(legal[one], 1).astype(np.float64)).astype(np.int64)
    many = np.flatnonzero(~one)
    if not len(many):
        return out
    sub = seen if len(many) == C else seen.subset(many)
    x = card_features(sub, read)
    q = model.scores(x)
    best = np.full(len(many), -np.inf)
    np.maximum.at(best, x.h, q)
    hit = q == best[x.h]
    slot = np.full(len(many), 99, dtype=np.int64)
    np.minimum.at(slot, x.h[hit], x.s[hit])
    out[many] = slot
    return out
