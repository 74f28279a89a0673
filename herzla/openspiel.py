"""The Herzla family as OpenSpiel games: ``python_herzla``, ``python_herzla_kids``,
``python_herzeln`` and ``python_herzerln`` (docs/openspiel.md).

Importing this module registers every game the registry knows (herzla's four and any a plug-in
adds) with ``pyspiel.register_game``, as ``python_`` and its id; :func:`register` adds a game
registered later.  Each game's type and sizes come from its declarations: its players, its packs,
its layout deals and its bidding.  It needs the ``openspiel`` extra (``pip install
'herzla[openspiel]'``).  Nothing else in herzla imports it.

A game is one hand of one contract.  Chance deals the cards one at a time (an outcome is a card,
uniform over the cards not dealt yet; card ``k`` goes to seat ``(forehand + k) % players``), then in
Herzla with ``contract=bidding`` each seat announces in turn from forehand, then the seats play.
Every legal move comes from herzla's reference engines and every return from the contract's own
scoring, through the helpers of the first section below.

>>> import pyspiel
>>> import herzla.openspiel
>>> game = pyspiel.load_game("python_herzeln(contract=domino,players=3)")
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 73, 36)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 24)
"""

from __future__ import annotations

import functools
import itertools
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs
import numpy as np
import numpy.typing as npt

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("herzla.openspiel needs OpenSpiel: pip install 'herzla[openspiel]'") from exc

from herzla.cards import HEARTS_MASK, Card, Rank, cards_of
from herzla.contracts import (
    BUILTIN_MODULES,
    Contract,
    DealKind,
    LayoutContract,
    Outcome,
    TallyError,
    contract_class,
    contract_classes,
    game_of,
    game_options,
    games,
    get_game,
)
from herzla.hand import Move as HandMove
from herzla.layout import Lay, LayoutHand
from herzla.limits import LimitError, check_stock
from herzla.machinery.moves import mark
from herzla.options import Option, OptionError
from herzla.quote import number, quote
from herzla.records import sort_hand
from herzla.tricks import TrickHand

__all__ = [
    "CARD_ACTIONS",
    "GAMES",
    "LOWER",
    "PASS",
    "HerzlaGame",
    "HerzlaObserver",
    "HerzlaState",
    "PolicyBot",
    "announcement_action",
    "bot_policy",
    "chance_outcomes",
    "num_actions",
    "register",
]

# =================================================================================================
# Calls into herzla.  Every use of the library's contracts, engines and records goes through the
# helpers of this section (and only they read engine attributes), so that a change of herzla's API
# is adapted here; the rest of the module uses only cards (herzla.cards) and the engines' moves
# (Card, Lay).
# =================================================================================================

Engine = TrickHand | LayoutHand
#: a move of the play: a card (trick deals), a card laid at an end (layout deals), or a pass (None)
Move = Card | Lay | None

def _title(game: str) -> str:
    return get_game(game).title


def _announcements(game: str) -> tuple[str, ...]:
    """The words of the game's bidding: ``pass``, then the contracts that can be announced."""
    return ("pass", *get_game(game).bidding[1:])


def _contract_ids(game: str) -> tuple[str, ...]:
    """The game's contract ids, in partie order."""
    return tuple(c.id for c in contract_classes(game))


def _player_counts(game: str) -> tuple[int, ...]:
    """Every number of players some contract of the game is played by; the default first."""
    counts: dict[int, None] = {}
    for c in contract_classes(game):
        counts.update(dict.fromkeys(c.player_counts))
    return tuple(counts)


def _options(game: str) -> tuple[Option, ...]:
    return game_options(game)


def _has_bidding(game: str) -> bool:
    return bool(get_game(game).bidding)


def _has_declarer(game: str) -> bool:
    return any(c.needs_declarer for c in contract_classes(game))


def _has_layout(game: str) -> bool:
    return any(issubclass(c, LayoutContract) for c in contract_classes(game))


def _card_slots(game: str) -> int:
    """One more than the highest card index in any pack of the game, for any table."""
    top = 0
    for c in contract_classes(game):
        for n in c.player_counts:
            top = max(top, c.default(n).pack().mask.bit_length())
    return top


def _has_stock(game: str) -> bool:
    return get_game(game).has_stock


def _needs_declarer(game: str, contract: str) -> bool:
    return contract_class(game, contract).needs_declarer


def _make_rules(game: str, contract: str, players: int, options: Mapping[str, Any],
                declarer: int | None) -> Contract:
    """The contract instance (OptionError names a wrong player count, option or declarer)."""
    return contract_class(game, contract)(players, options, declarer)


def _bidding_result(rules: Contract, words: Sequence[str], forehand: int
                    ) -> tuple[str, int | None] | None:
    """The contract and declarer once the announcements so far settle them, whatever the seats
    still to speak announce; None while the bidding is open.  ``rules`` gives the priority."""
    game = game_of(rules)
    ids = list(game.bidding)
    said = list(_announcements(game.id))
    n = rules.players
    rest = list(itertools.product(range(len(said)), repeat=n - len(words)))
    wants = [np.full(len(rest), said.index(w), dtype=np.int8) for w in words]
    wants += [np.array([r[k] for r in rest], dtype=np.int8) for k in range(n - len(words))]
    code, turn = game.resolve_bids(wants, rules.opts)
    results = {(int(c), int(t)) for c, t in zip(code, turn, strict=True)}
    if len(results) != 1:
        return None
    c, t = results.pop()
    return ids[c], None if c == 0 else (forehand + t) % n


def _pack(rules: Contract) -> tuple[int, int]:
    """The pack as a bit set, and how many cards each seat is dealt."""
    return rules.pack().mask, rules.hand_size


def _is_layout(rules: Contract) -> bool:
    return rules.kind is DealKind.LAYOUT


def _row_keys(rules: Contract) -> tuple[int, ...]:
    """The rows of a layout deal (keys of ``row_of``); none in a trick deal."""
    if not isinstance(rules, LayoutContract):
        return ()
    rows = rules.declaration.rows
    return tuple(sorted({rows.row_of(c) for c in rules.pack().cards}))


def _new_engine(rules: Contract, hands: Sequence[int], dealer: int) -> Engine:
    hand = rules.new_hand(hands, dealer)
    assert isinstance(hand, TrickHand | LayoutHand)
    return hand


def _copy_engine(engine: Engine) -> Engine:
    return engine.copy()


def _over(engine: Engine) -> bool:
    return engine.over


def _turn(engine: Engine) -> int:
    return engine.turn


def _legal_moves(engine: Engine) -> list[Move]:
    """The legal moves, from the engine; ``[None]`` when a layout seat must pass."""
    if isinstance(engine, TrickHand):
        return list(cards_of(engine.legal_mask()))
    moves: list[Move] = list(engine.legal_lays())
    return moves or [None]


def _fits_both_ends(engine: Engine, card: Card) -> bool:
    return isinstance(engine, LayoutHand) and len(engine.fits(card)) > 1


def _illegal(engine: Engine, card: Card) -> str:
    """Why the engine refuses ``card`` now (a sentence)."""
    bad = engine.check(card)
    return bad.message if bad is not None else f"{card} is not a legal move"


def _illegal_pass(engine: Engine) -> str:
    """Why the engine refuses a pass now (a sentence)."""
    if isinstance(engine, TrickHand):
        return "there is no pass in a trick deal"
    bad = engine.check_pass()
    return bad.message if bad is not None else "a pass is not a legal move now"


def _play(engine: Engine, move: Move) -> str:
    """Make a legal move; returns it as a hand record writes it."""
    if isinstance(engine, TrickHand):
        assert isinstance(move, Card)
        engine.play(move)
        return str(move)
    if move is None:
        engine.pass_turn()
        return "pass"
    assert isinstance(move, Lay)
    entry = mark(engine, move)
    engine.play(move)
    return entry


def _scores(rules: Contract, engine: Engine, stock: int) -> tuple[int, ...]:
    return rules.score(engine.outcome(), stock).scores


def _fixed_total(rules: Contract) -> int | None:
    """What the seats' scores always add up to, if fixed (a stock takes part in the total)."""
    return None if rules.has_stock else rules.score_total()


@functools.lru_cache(maxsize=256)
def _utility_range(rules: Contract, stock: int) -> tuple[int, int]:
    """The lowest and highest score of a seat: the contract scores every going-out order (layout
    deals), or (trick deals) one seat taking every trick, every split of the hearts, and made and
    lost; tallies the contract refuses are skipped."""
    n = rules.players
    if _is_layout(rules):
        outcomes = [Outcome(n, order=order) for order in itertools.permutations(range(n))]
    else:
        mask, size = _pack(rules)
        outcomes = [Outcome(n, captured=tuple(mask if s == w else 0 for s in range(n)),
                            tricks=tuple(size if s == w else 0 for s in range(n)), last_winner=w,
                            declarer=rules.declarer, tricks_played=size) for w in range(n)]
        hearts = (mask & HEARTS_MASK).bit_count()
        outcomes += [Outcome(n, hearts=split, declarer=rules.declarer)
                     for split in _splits(hearts, n)]
        if rules.needs_declarer:
            outcomes += [Outcome(n, declarer=rules.declarer, made=made) for made in (True, False)]
    scores: list[int] = []
    for outcome in outcomes:
        try:
            scores += rules.score(outcome, stock).scores
        except TallyError:
            continue
    if not scores:  # pragma: no cover - a plug-in contract that scores none of these tallies
        raise ValueError(f"{rules.game} {rules.id}: no tally to find the range of its scores")
    return min(scores), max(scores)


def _splits(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of ``parts`` whole numbers >= 0."""
    for bars in itertools.combinations(range(total + parts - 1), parts - 1):
        edges = (-1, *bars, total + parts - 1)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(parts))


def _sorted_codes(hand: int, rules: Contract) -> list[str]:
    """A hand's card codes as records write them (by suit, high rank first)."""
    return [str(c) for c in sort_hand(cards_of(hand), rules)]


def _record(rules: Contract, dealer: int, stock: int, hands: Sequence[int],
            plays: Sequence[str]) -> dict[str, Any]:
    """A hand record (docs/hand-records.md) that ``herzla replay`` reads."""
    out: dict[str, Any] = {"game": rules.game, "contract": rules.id, "players": rules.players,
                           "dealer": dealer, "declarer": rules.declarer}
    if rules.has_stock:
        out["stock"] = stock
    out["options"] = dict(rules.opts)
    out["hands"] = [_sorted_codes(h, rules) for h in hands]
    out["plays"] = list(plays)
    return out


@attrs.frozen
class _Table:
    """What the engine shows the table, for the observers."""

    hands: tuple[int, ...]
    #: trick deals: each trick begun, as its leader and its cards (the trick in progress last);
    #: the leader of the trick in progress (or to be led) and its cards; each seat's captured cards
    tricks: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    leader: int = 0
    trick: tuple[Card, ...] = ()
    captured: tuple[int, ...] = ()
    #: layout deals: the cards laid; per row, its cards from the lower end to the upper end and
    #: the ranks its (upper, lower) ends ask for (None: not open); the seats that went out
    laid: tuple[Card, ...] = ()
    rows: tuple[tuple[Card, ...], ...] = ()
    ends: tuple[tuple[Rank | None, Rank | None] | None, ...] = ()
    out: tuple[int, ...] = ()


_RANK_OF_CODE = {r.code: r for r in Rank}


def _table(engine: Engine, row_keys: Sequence[int]) -> _Table:
    if isinstance(engine, TrickHand):
        tricks = [(t.leader, t.cards) for t in engine.tricks]
        if engine.trick:
            tricks.append((engine.leader, tuple(engine.trick)))
        return _Table(tuple(engine.hands), tuple(tricks), engine.leader, tuple(engine.trick),
                      tuple(engine.captured))
    rows: dict[int, list[Card]] = {key: [] for key in row_keys}
    for _, lay, _ in engine.history:
        if lay is not None and lay.card is not None:
            row = rows[engine.contract.declaration.rows.row_of(lay.card)]
            row.insert(0 if lay.end == "-" else len(row), lay.card)
    ends: list[tuple[Rank | None, Rank | None] | None] = []
    for key in row_keys:
        asked = engine.asked(key)
        ends.append(None if asked is None else
                    (_RANK_OF_CODE.get(asked[0]), _RANK_OF_CODE.get(asked[1])))
    return _Table(tuple(engine.hands), laid=tuple(engine.laid),
                  rows=tuple(tuple(rows[key]) for key in row_keys), ends=tuple(ends),
                  out=tuple(engine.order))


# =================================================================================================
# Actions
# =================================================================================================

#: a card (its index, ``herzla.cards``) played, or laid at the upper end or the only end it fits
CARD_ACTIONS = 36
#: ``LOWER + index``: in the domino, a card that fits both ends laid at the lower end ("D7-")
LOWER = 36
#: a pass in a layout deal, or in the bidding; ``PASS + k`` announces the ``k``-th contract of
#: the game's bidding (``Game.bidding``; Herzla: 1 Beddl, 2 Mord)
PASS = 72


def _bid_actions(game: str) -> dict[int, str]:
    """The actions of the bidding and the words they say: pass, then each contract announced."""
    return {PASS + k: word for k, word in enumerate(_announcements(game))}


def num_actions(game: str) -> int:
    """The distinct actions of a herzla game, from its declarations: the cards of its packs; with
    layout deals, the lower-end cards and a pass; with bidding, a pass and each announcement."""
    if _has_bidding(game):
        return PASS + len(_announcements(game))
    if _has_layout(game):
        return PASS + 1
    return _card_slots(game)


def chance_outcomes(game: str) -> int:
    """The most chance outcomes of a herzla game: the cards of its packs, by index."""
    return _card_slots(game)


def announcement_action(game: str, word: str) -> int:
    """The action that says ``word`` (``pass`` or a contract the game's bidding announces);
    ValueError if the game has no bidding or no such announcement."""
    if not _has_bidding(game):
        raise ValueError(f"{game} has no bidding: {quote(word)} is not an announcement")
    for action, said in _bid_actions(game).items():
        if said == word:
            return action
    raise ValueError(f"{quote(word)} is not an announcement of {game}")


#: OpenSpiel's short names of the registered herzla games (:func:`register`)
GAMES: dict[str, str] = {}


# =================================================================================================
# The game's parameters, read once per game
# =================================================================================================

@attrs.frozen
class _Setup:
    """One game's parameters, checked, and what follows from them.  Shared by all its states."""

    game: str
    contract: str  # a contract id, or "bidding"
    players: int
    dealer: int
    declarer: int | None
    stock: int
    options: tuple[tuple[str, Any], ...]
    #: the contract played, or None when the bidding chooses it
    rules: Contract | None
    #: the contract that fixes the pack and sorts hands before the bidding ends
    base: Contract
    #: the game's parameters as OpenSpiel gave them (pickles rebuild the setup from them)
    key: tuple[str, tuple[tuple[str, Any], ...]]
    pack: int  # the pack, a bit set
    hand_size: int
    layout: bool
    contract_ids: tuple[str, ...]
    row_keys: tuple[int, ...]
    has_declarer: bool

    @property
    def bidding(self) -> bool:
        return self.rules is None

    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def cards_dealt(self) -> int:
        return self.hand_size * self.players

    @property
    def max_moves(self) -> int:
        """Most moves of the play: every card, and in layout deals fewer than ``players`` passes
        before each card (more would bring the same seat back to the same table)."""
        return self.cards_dealt * (self.players if self.layout else 1)

    def contracts_possible(self) -> list[Contract]:
        if self.rules is not None:
            return [self.rules]
        opts = dict(self.options)
        out = []
        for cid in self.contract_ids:
            seats: Sequence[int | None] = (
                range(self.players) if _needs_declarer(self.game, cid) else (None,))
            out += [_make_rules(self.game, cid, self.players, opts, d) for d in seats]
        return out

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_setup_of, self.key)


#: the whole numbers OpenSpiel's game parameters hold (a C ``int``)
PARAM_MIN, PARAM_MAX = -(2**31), 2**31 - 1


def _int_param(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"parameter {name}: {quote(value)} is not a whole number")
    return value


def _check_params(params: Mapping[str, Any]) -> None:
    """OptionError for a whole number OpenSpiel cannot hold (it would fail in its own code,
    naming no parameter)."""
    for name, value in params.items():
        if (isinstance(value, int) and not isinstance(value, bool)
                and not PARAM_MIN <= value <= PARAM_MAX):
            raise OptionError(f"parameter {name}: {number(value)} is beyond what an OpenSpiel "
                              f"parameter holds ({PARAM_MIN:,} to {PARAM_MAX:,})")


@functools.lru_cache(maxsize=256)
def _setup_of(game: str, params: tuple[tuple[str, Any], ...]) -> _Setup:
    """Check a game's parameters (OptionError says what is wrong) and derive the rest."""
    rest = dict(params)
    ids = _contract_ids(game)
    contract = str(rest.pop("contract", ids[0]))
    bidding = contract == "bidding" and _has_bidding(game)
    if not bidding and contract not in ids:
        known = (*ids, "bidding") if _has_bidding(game) else ids
        raise OptionError(f"{quote(contract)} is not a {game} contract (known: {', '.join(known)})")
    players = _int_param("players", rest.pop("players", _player_counts(game)[0]))
    dealer = _int_param("dealer", rest.pop("dealer", -1))
    declarer_given = _int_param("declarer", rest.pop("declarer", -1))
    stock = _int_param("stock", rest.pop("stock", 0))
    options = rest
    base_id = ids[0] if bidding else contract
    problem = contract_class(game, base_id).player_count_problem(players)
    if problem:
        raise OptionError(problem)
    needs = _needs_declarer(game, base_id)
    if dealer == -1:
        dealer = players - 1
    if not 0 <= dealer < players:
        raise OptionError(f"dealer {dealer} is not a seat (seats are 0 to {players - 1}; "
                          f"-1 is the last)")
    try:
        check_stock(stock)
    except LimitError as exc:
        raise OptionError(str(exc)) from None
    declarer: int | None = None
    if needs:
        declarer = (dealer + 1) % players if declarer_given == -1 else declarer_given
    elif declarer_given != -1:
        raise OptionError(f"{game} {contract} has no declarer")
    base = _make_rules(game, base_id, players, options, declarer)
    pack, hand_size = _pack(base)
    return _Setup(game, contract, players, dealer, declarer, stock,
                  tuple(sorted(base.opts.items())), None if bidding else base, base,
                  (game, params), pack, hand_size, _is_layout(base), ids, _row_keys(base),
                  _has_declarer(game))


# =================================================================================================
# One episode: the deal, the bidding and the play, without OpenSpiel
# =================================================================================================

class _Episode:
    """The state of one hand.  Copies are cheap; pickles hold only the setup and the actions."""

    __slots__ = ("setup", "actions", "dealt", "bids", "rules", "engine", "plays", "moves",
                 "_left")

    def __init__(self, setup: _Setup) -> None:
        self.setup = setup
        self.actions: list[int] = []
        self.dealt: list[int] = [0] * setup.players
        self.bids: list[str] = []
        self.rules: Contract | None = setup.rules
        self.engine: Engine | None = None
        self.plays: list[str] = []
        self.moves: list[int] = []
        self._left = setup.pack

    # -- phases -----------------------------------------------------------------------------
    @property
    def dealing(self) -> bool:
        return len(self.actions) < self.setup.cards_dealt

    @property
    def bidding(self) -> bool:
        return not self.dealing and self.rules is None

    @property
    def over(self) -> bool:
        return self.engine is not None and _over(self.engine)

    def seat_to_deal(self) -> int:
        return (self.setup.forehand + len(self.actions)) % self.setup.players

    def turn(self) -> int | None:
        """The seat to move; None at a chance node or at the end."""
        if self.dealing or self.over:
            return None
        if self.engine is None:
            return (self.setup.forehand + len(self.bids)) % self.setup.players
        return _turn(self.engine)

    # -- moves ------------------------------------------------------------------------------
    def chance_cards(self) -> list[int]:
        return [c.index for c in cards_of(self._left)]

    def legal(self) -> dict[int, Move | str]:
        """The legal actions of the seat to move, each with its move (or announcement)."""
        if self.engine is None:
            return dict(_bid_actions(self.setup.game)) if self.bidding else {}
        moves = _legal_moves(self.engine)
        cards = [m.card for m in moves if isinstance(m, Lay)]
        out: dict[int, Move | str] = {}
        for move in moves:
            if move is None:
                out[PASS] = None
            elif isinstance(move, Card):
                out[move.index] = move
            else:
                assert move.card is not None
                lower = move.end == "-" and cards.count(move.card) > 1
                out[move.card.index + (LOWER if lower else 0)] = move
        return out

    def apply(self, action: int) -> None:
        if self.dealing:
            if not (0 <= action < CARD_ACTIONS and self._left >> action & 1):
                raise ValueError(f"chance outcome {action} is not a card left to deal")
            self.dealt[self.seat_to_deal()] |= 1 << action
            self._left &= ~(1 << action)
            self.actions.append(action)
            if not self.dealing and self.rules is not None:
                self._start()
            return
        legal = self.legal()
        if action not in legal:
            raise ValueError(self._why_illegal(action))
        move = legal[action]
        self.actions.append(action)
        if isinstance(move, str):
            self.bids.append(move)
            settled = _bidding_result(self.setup.base, self.bids, self.setup.forehand)
            if settled is not None:
                contract, declarer = settled
                self.rules = _make_rules(self.setup.game, contract, self.setup.players,
                                         dict(self.setup.options), declarer)
                self._start()
            return
        assert self.engine is not None
        self.moves.append(action)
        self.plays.append(_play(self.engine, move))

    def _start(self) -> None:
        assert self.rules is not None
        self.engine = _new_engine(self.rules, self.dealt, self.setup.dealer)

    def _why_illegal(self, action: int) -> str:
        if self.over:
            return "the hand is over"
        if self.engine is None:
            said = ", ".join(f"{w} {a}" for a, w in _bid_actions(self.setup.game).items())
            return f"action {action} is not an announcement ({said})"
        if 0 <= action < LOWER:
            return _illegal(self.engine, Card.from_index(action))
        if LOWER <= action < PASS:
            card = Card.from_index(action - LOWER)
            return f"{card}- is not legal: {card} does not fit both ends of its row"
        if action == PASS:
            return _illegal_pass(self.engine)
        return f"action {action} is not a legal move now"

    def action_string(self, action: int) -> str:
        if 0 <= action < CARD_ACTIONS:
            card = Card.from_index(action)
            both = self.engine is not None and _fits_both_ends(self.engine, card)
            return f"{card}+" if both else str(card)
        if LOWER <= action < PASS:
            return f"{Card.from_index(action - LOWER)}-"
        bids = _bid_actions(self.setup.game)
        if action in bids:
            return bids[action]
        raise ValueError(f"{action} is not an action of {self.setup.game}")

    # -- results ----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.setup.players
        assert self.rules is not None and self.engine is not None
        return [float(s) for s in _scores(self.rules, self.engine, self.setup.stock)]

    def record(self) -> dict[str, Any]:
        if self.dealing:
            raise ValueError("there is no hand record while the cards are being dealt")
        if self.rules is None:
            raise ValueError("there is no hand record before the bidding chooses the contract")
        return _record(self.rules, self.setup.dealer, self.setup.stock, self.dealt, self.plays)

    def table(self) -> _Table | None:
        return None if self.engine is None else _table(self.engine, self.setup.row_keys)

    def hands(self) -> tuple[int, ...]:
        """Each seat's cards now (as dealt so far during the deal)."""
        table = self.table()
        return tuple(self.dealt) if table is None else table.hands

    def copy(self) -> _Episode:
        new = _Episode.__new__(_Episode)
        new.setup = self.setup
        new.actions = list(self.actions)
        new.dealt = list(self.dealt)
        new.bids = list(self.bids)
        new.rules = self.rules
        new.engine = None if self.engine is None else _copy_engine(self.engine)
        new.plays = list(self.plays)
        new.moves = list(self.moves)
        new._left = self._left
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> _Episode:
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replayed, (self.setup, tuple(self.actions)))

    def describe(self) -> str:
        s = self.setup
        head = f"{s.game} {self.rules.id if self.rules else s.contract}, {s.players} players, " \
               f"dealer {s.dealer}"
        if self.rules is not None and self.rules.declarer is not None:
            head += f", declarer {self.rules.declarer}"
        if s.base.has_stock:
            head += f", stock {s.stock}c"
        lines = [head]
        lines += [f"seat {i}: {' '.join(_sorted_codes(h, self.rules or s.base))}"
                  for i, h in enumerate(self.dealt)]
        if self.bids:
            lines.append("bids: " + " ".join(self.bids))
        if self.plays:
            lines.append("plays: " + " ".join(self.plays))
        return "\n".join(lines)


def _replayed(setup: _Setup, actions: Sequence[int]) -> _Episode:
    episode = _Episode(setup)
    for action in actions:
        episode.apply(action)
    return episode


# =================================================================================================
# Observations
# =================================================================================================

_SEQUENCE_WIDTH = CARD_ACTIONS + 2  # a card, the lower-end mark, a pass


class HerzlaObserver:
    """Observation and information-state tensors and strings (OpenSpiel's PyObserver protocol).

    ``perfect_recall`` gives the whole public history (every trick, or every move of a layout
    deal); without it, the table as it is now.  ``private_info`` decides whose hands are shown.
    """

    def __init__(self, setup: _Setup, iig_obs_type: Any, params: Mapping[str, Any] | None
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
                pieces.append(("bids", (n, len(_bid_actions(setup.game)))))
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

    def set_from(self, state: HerzlaState, player: int) -> None:
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
                d["bids"][seat, _announcements(setup.game).index(word)] = 1
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

    def string_from(self, state: HerzlaState, player: int) -> str:
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
    return " ".join(_sorted_codes(mask, rules)) or "-"


def _put_cards(row: npt.NDArray[np.float32], mask: int) -> None:
    for card in cards_of(mask):
        row[card.index] = 1


# =================================================================================================
# OpenSpiel's game and state
# =================================================================================================

def _game_type(game: str, utility: Any) -> Any:
    counts = _player_counts(game)
    spec: dict[str, Any] = {"contract": _contract_ids(game)[0], "players": counts[0],
                            "dealer": -1}
    if _has_declarer(game):
        spec["declarer"] = -1
    if _has_stock(game):
        spec["stock"] = 0
    for option in _options(game):
        if option.name in spec:  # pragma: no cover - a plug-in option named like a parameter
            raise ValueError(f"{game}: option {option.name} clashes with a game parameter")
        spec[option.name] = option.default
    return pyspiel.GameType(
        short_name=_short_name(game),
        long_name=f"Python {_title(game)}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


def _short_name(game: str) -> str:
    return "python_" + game.replace("-", "_")


def _utility(rules: Contract | None) -> tuple[Any, float | None]:
    total = None if rules is None else _fixed_total(rules)
    if total is None:
        return pyspiel.GameType.Utility.GENERAL_SUM, None
    if total == 0:
        return pyspiel.GameType.Utility.ZERO_SUM, 0.0
    return pyspiel.GameType.Utility.CONSTANT_SUM, float(total)


class HerzlaGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of one contract of a herzla game; the game id is the class attribute ``game``."""

    game = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        _check_params(params)
        self.setup = _setup_of(self.game, tuple(sorted(params.items())))
        setup = self.setup
        utility, total = _utility(setup.rules)
        ranges = [_utility_range(r, setup.stock) for r in setup.contracts_possible()]
        low, high = min(r[0] for r in ranges), max(r[1] for r in ranges)
        info = pyspiel.GameInfo(
            num_distinct_actions=num_actions(self.game),
            max_chance_outcomes=chance_outcomes(self.game),
            num_players=setup.players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=total,
            max_game_length=(setup.players if setup.bidding else 0) + setup.max_moves,
        )
        super().__init__(_game_type(self.game, utility), info, params)

    def new_initial_state(self) -> HerzlaState:
        return HerzlaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None) -> HerzlaObserver:
        return HerzlaObserver(self.setup, iig_obs_type, params)


class HerzlaState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress.  Besides OpenSpiel's API: ``record()``, ``engine()``, ``contract()``
    and ``action_of(move)``."""

    def __init__(self, game: HerzlaGame) -> None:
        super().__init__(game)
        self._episode = _Episode(game.setup)

    # -- OpenSpiel's API --------------------------------------------------------------------
    def current_player(self) -> int:
        if self._episode.dealing:
            return int(pyspiel.PlayerId.CHANCE)
        if self._episode.over:
            return int(pyspiel.PlayerId.TERMINAL)
        turn = self._episode.turn()
        assert turn is not None
        return turn

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._episode.turn():
            return []
        return sorted(self._episode.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = self._episode.chance_cards() if self._episode.dealing else []
        return [(c, 1.0 / len(cards)) for c in cards]

    def _apply_action(self, action: int) -> None:
        self._episode.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card.from_index(action)}"
        return self._episode.action_string(action)

    def is_terminal(self) -> bool:
        return self._episode.over

    def returns(self) -> list[float]:
        return self._episode.returns()

    def __str__(self) -> str:
        return self._episode.describe()

    # -- herzla's additions -----------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The hand record of the episode so far (JSON-ready; ``herzla replay`` reads it).

        ValueError while the cards are dealt or the bidding is open: there is no record yet.
        """
        return self._episode.record()

    def engine(self) -> Engine | None:
        """A copy of herzla's reference engine for the play (None before the play begins)."""
        engine = self._episode.engine
        return None if engine is None else _copy_engine(engine)

    def contract(self) -> Contract | None:
        """The contract played (None while the bidding is open)."""
        return self._episode.rules

    def action_of(self, move: Move | HandMove | str) -> int:
        """The action of a move: a card, a :class:`~herzla.layout.Lay`, a
        :class:`herzla.hand.Move`, None (a pass in a layout deal) or an announcement
        (``"pass"``, ``"beddl"``, ``"mord"``).

        A card alone in a layout deal means the upper end, or the only end it fits.
        """
        if isinstance(move, HandMove):
            move = (None if move.card is None else
                    Lay(move.card, move.end) if move.end else move.card)
        for action, legal in self._episode.legal().items():
            if legal == move or (isinstance(legal, Lay) and legal.card == move
                                 and action < LOWER):
                return action
        raise ValueError(f"{move} is not a legal move now")


    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> HerzlaState:
        """A state drawn uniformly from those ``player_id`` cannot tell from this one: the same
        own cards and public moves, the other seats' unseen cards dealt anew (each seat the same
        number, none of a suit it showed it lacks or, in a layout deal, none that fitted when it
        passed), the moves so far legal with them (lead and discard bans).  Announcements are
        free choices and rule nothing out.  ``probability_sampler()`` gives uniform numbers in
        [0, 1), as OpenSpiel's IS-MCTS passes it."""
        episode = _resample(self._episode, player_id, probability_sampler)
        state = HerzlaState(self.get_game())
        for action in episode.actions:
            state.apply_action(action)
        return state


def register(game: str) -> str:
    """Register the herzla game ``game`` (a plug-in's too) with OpenSpiel, once; returns its
    short name, ``python_`` and the id with ``_`` for ``-`` (``python_herzla_kids``)."""
    short = _short_name(game)
    if GAMES.get(short) == game:
        return short
    get_game(game)  # an unknown game is an UnknownContract here, not in OpenSpiel
    name = "Game_" + short
    cls = type(name, (HerzlaGame,), {"game": game, "__module__": __name__,
                                      "__qualname__": name,
                                      "__doc__": f"The OpenSpiel game {short}."})
    globals()[name] = cls  # so that pickles find the class
    default = _setup_of(game, ())
    pyspiel.register_game(_game_type(game, _utility(default.rules)[0]), cls)
    GAMES[short] = game
    return short


def _register() -> None:
    for game in games():
        if type(get_game(game)).__module__ in BUILTIN_MODULES:  # herzla's own: never skipped
            register(game)
            continue
        try:
            register(game)
        except (LookupError, TypeError, ValueError) as exc:  # a broken plug-in must not break us
            warnings.warn(f"herzla.openspiel: game {game!r} not registered: {exc}", stacklevel=2)


_register()


# =================================================================================================
# Resampling an information state (IS-MCTS)
# =================================================================================================

#: draws of the unseen cards tried before giving up on an information state
RESAMPLE_TRIES = 100_000


def _known_absent(episode: _Episode, player: int) -> list[int]:
    """Per seat, the cards it cannot hold now, as the public moves show them to ``player``: a
    suit it did not follow (trick deals), the cards that fitted when it passed (layout deals)."""
    from herzla.cards import SUIT_MASKS

    n = episode.setup.players
    out = [0] * n
    engine = episode.engine
    if engine is None:
        return out
    if isinstance(engine, TrickHand):
        from herzla.players.views import shown_voids

        for s, suits in enumerate(shown_voids(engine.tricks, engine.trick, engine.leader, n)):
            for suit in suits:
                out[s] |= SUIT_MASKS[suit]
        return out
    rules = episode.rules
    assert rules is not None
    board = _new_engine(rules, episode.dealt, episode.setup.dealer)
    assert isinstance(board, LayoutHand)
    pack = cards_of(episode.setup.pack)
    for seat, lay, _ in engine.history:
        if lay is None:
            for c in pack:
                if board.fits(c):
                    out[seat] |= c.bit
            board.pass_turn()
        else:
            board.play(lay)
    out[player] = 0
    return out


def _resample(episode: _Episode, player: int, sampler: Any) -> _Episode:
    """An episode drawn uniformly from those ``player`` cannot tell from ``episode`` (see
    :meth:`HerzlaState.resample_from_infostate`): the unseen cards dealt uniformly under the
    constraints that bind seat by seat (:func:`herzla.players.deals.uniform_deal`), and the
    draws whose moves are not all legal (a lead ban, say) rejected."""
    import random

    from herzla.players.deals import uniform_deal

    setup = episode.setup
    n = setup.players
    if not 0 <= player < n:
        raise ValueError(f"player {player} is not a seat (0 to {n - 1})")
    dealt_so_far = min(len(episode.actions), setup.cards_dealt)
    deal_actions = episode.actions[:dealt_so_far]
    later = episode.actions[dealt_so_far:]
    seats = [(setup.forehand + k) % n for k in range(dealt_so_far)]
    played = 0
    played_by = [0] * n
    hands_now = episode.hands()
    for s in range(n):
        played_by[s] = episode.dealt[s] & ~hands_now[s]
        played |= played_by[s]
    own = episode.dealt[player]
    unseen = cards_of(setup.pack & ~own & ~played)
    others = [s for s in range(n) if s != player]
    need = [episode.dealt[s].bit_count() - played_by[s].bit_count() for s in others]
    absent = _known_absent(episode, player)
    forbidden = [absent[s] for s in others]
    rest = len(unseen) - sum(need)  # not dealt yet, or lying aside
    if rest:
        need.append(rest)
        forbidden.append(0)
    rng = random.Random(int(sampler() * 2**52) ^ (int(sampler() * 2**52) << 52))
    for _ in range(RESAMPLE_TRIES):
        got = uniform_deal(unseen, need, forbidden, rng)
        hands = {s: got[i] | played_by[s] for i, s in enumerate(others)}
        order: dict[int, list[int]] = {}
        for s, h in hands.items():
            cards = [c.index for c in cards_of(h)]
            rng.shuffle(cards)
            order[s] = cards
        actions = []
        for k, s in enumerate(seats):
            actions.append(deal_actions[k] if s == player else order[s].pop())
        candidate = _Episode(setup)
        try:
            for action in (*actions, *later):
                candidate.apply(action)
        except ValueError:
            continue
        return candidate
    raise RuntimeError(f"no deal of the unseen cards fits seat {player}'s information "
                       f"in {RESAMPLE_TRIES} draws")


# =================================================================================================
# Bots and policies: herzla's players in OpenSpiel, OpenSpiel's bots as herzla policies
# =================================================================================================

class PolicyBot(pyspiel.Bot):  # type: ignore[misc]
    """A herzla policy (:mod:`herzla.players`; a name as ``--policy`` takes it, or the object) as
    an OpenSpiel bot for one of these games: each step hands the policy the view of the seat to
    move (its own cards, the public moves), never the state itself.  ``seed`` seeds the move
    uniforms a policy may draw on (the random policy's choices).

    >>> import pyspiel
    >>> game = pyspiel.load_game("python_herzla(contract=normal)")
    >>> state = game.new_initial_state()
    >>> for card in range(32):
    ...     state.apply_action(state.chance_outcomes()[0][0])
    >>> bots = [PolicyBot("heuristic", seed=s) for s in range(4)]
    >>> while not state.is_terminal():
    ...     state.apply_action(bots[state.current_player()].step(state))
    >>> len(state.record()["plays"])
    32
    """

    def __init__(self, policy: Any, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        from herzla.players import Policy, policy_of

        self.policy: Policy = policy_of(policy) if isinstance(policy, str) else policy
        self._rng = np.random.default_rng(seed)

    def restart_at(self, state: HerzlaState) -> None:
        pass

    def step(self, state: HerzlaState) -> int:
        from herzla.players.policy import decide_announce, decide_card, decide_lay
        from herzla.players.views import BidView, LayoutView, TrickView

        episode = state._episode
        seat = episode.turn()
        if seat is None:
            raise ValueError("no seat is to move (a chance node or the end)")
        uniform = int(self._rng.integers(2**32))
        engine = episode.engine
        if engine is None:
            bid = BidView(episode.setup.base, seat, episode.dealt[seat], episode.setup.dealer,
                          tuple(episode.bids), uniform)
            return state.action_of(decide_announce(self.policy, bid))
        if isinstance(engine, TrickHand):
            card = decide_card(self.policy, TrickView.of(engine, uniform, episode.setup.stock,
                                                         tuple(episode.bids)), engine.check)
            return state.action_of(card)
        view = LayoutView.of(engine, uniform)
        if not view.legal_moves():
            return state.action_of(None)
        return state.action_of(decide_lay(self.policy, view))


def _state_of_view(game: Any, view: Any, rng: np.random.Generator) -> HerzlaState:
    """An OpenSpiel state that seat ``view.seat`` cannot tell from what it has seen: the other
    seats' cards drawn consistently with it (:func:`herzla.analysis.pimc.sample_hands`)."""
    from herzla.analysis.pimc import sample_hands

    hands = sample_hands(view, rng, announcements=False)
    state: HerzlaState = game.new_initial_state()
    setup = state._episode.setup
    left = [[c.index for c in cards_of(h)] for h in hands]
    for k in range(setup.cards_dealt):
        state.apply_action(left[(setup.forehand + k) % setup.players].pop())
    for word in view.announcements:
        state.apply_action(state.action_of(word))
    for _, card in view.plays():
        state.apply_action(state.action_of(card))
    return state


def bot_policy(game: Any, make_bot: Any, seed: int = 0) -> Any:
    """An OpenSpiel bot as a herzla policy for trick deals: ``make_bot(game, seat)`` makes the
    bot of a seat (e.g. an IS-MCTS bot, which decides from the seat's information state only);
    each card is asked of it on a state built from the seat's view, the unseen cards drawn to
    fit it.  ``game`` is the loaded OpenSpiel game whose hands the policy plays (its contract,
    players, dealer and options); it announces with the bidding heuristic and lays layout
    deals as the heuristic does."""
    from herzla.cards import Card
    from herzla.players import Policy
    from herzla.players.heuristic import heuristic_lay

    class BotPolicy(Policy):
        name = "openspiel-bot"

        def __init__(self) -> None:
            self._bots: dict[int, Any] = {}
            self._rng = np.random.default_rng(seed)

        def card(self, view: Any) -> Card:
            bot = self._bots.get(view.seat)
            if bot is None:
                bot = self._bots[view.seat] = make_bot(game, view.seat)
            state = _state_of_view(game, view, self._rng)
            return Card.from_index(int(bot.step(state)))

        def lay(self, view: Any) -> Lay | None:
            return heuristic_lay(view)

    return BotPolicy()
