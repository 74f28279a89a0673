"""The calls of the OpenSpiel games into herzla's games: their declarations, the contracts and
the hand records, one small helper a question; and what the observers read of a hand's table.

A change of herzla's API is adapted here.  The hands themselves are played through the one hand
interface (:class:`herzla.hand.Hand`: ``contract.new_hand``, ``turn``, ``legal_moves``,
``check``, ``play``, ``copy``, ``score``), whatever the deal; what the table shows, which differs
by the kind of deal (tricks or rows), its kind reads (:func:`table_of`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable

from herzla.cards import HEARTS_MASK, cards_of
from herzla.contracts import (
    Contract,
    Outcome,
    TallyError,
    contract_class,
    contract_classes,
    game_options,
    get_game,
)
from herzla.hand import Hand
from herzla.kinds import OnTable, kind_of
from herzla.options import Option
from herzla.records import sort_hand

#: herzla's hand being played (a :class:`herzla.hand.Hand`, on the reference engine of its deal:
#: :class:`~herzla.kinds.tricks.TrickHand`, :class:`~herzla.kinds.layout.LayoutHand`)
Engine = Hand

def title(game: str) -> str:
    return get_game(game).title


def announcements(game: str) -> tuple[str, ...]:
    """The words of the game's bidding: ``pass``, then the contracts that can be announced."""
    return ("pass", *get_game(game).bidding[1:])


def contract_ids(game: str) -> tuple[str, ...]:
    """The game's contract ids, in partie order."""
    return tuple(c.id for c in contract_classes(game))


def player_counts(game: str) -> tuple[int, ...]:
    """Every number of players some contract of the game is played by; the default first."""
    counts: dict[int, None] = {}
    for c in contract_classes(game):
        counts.update(dict.fromkeys(c.player_counts))
    return tuple(counts)


def options_of(game: str) -> tuple[Option, ...]:
    return game_options(game)


def has_bidding(game: str) -> bool:
    return bool(get_game(game).bidding)


def has_declarer(game: str) -> bool:
    return any(c.needs_declarer for c in contract_classes(game))


def has_passes(game: str) -> bool:
    """Whether in some deal of the game a seat that cannot move passes (the contracts'
    ``has_passes``): the game's actions hold a pass."""
    return any(c.has_passes for c in contract_classes(game))


def card_slots(game: str) -> int:
    """One more than the highest card index in any pack of the game, for any table."""
    top = 0
    for c in contract_classes(game):
        for n in c.player_counts:
            top = max(top, c.default(n).pack().mask.bit_length())
    return top


def has_stock(game: str) -> bool:
    return get_game(game).has_stock


def needs_declarer(game: str, contract: str) -> bool:
    return contract_class(game, contract).needs_declarer


def pack_of(rules: Contract) -> tuple[int, int]:
    """The pack as a bit set, and how many cards each seat is dealt."""
    return rules.pack().mask, rules.hand_size


def row_keys_of(rules: Contract) -> tuple[int, ...]:
    """The rows of a layout deal (keys of ``row_of``); none in a trick deal."""
    return kind_of(rules).rows(rules)


def fixed_total(rules: Contract) -> int | None:
    """What the seats' scores always add up to, if fixed (a stock takes part in the total)."""
    return None if rules.has_stock else rules.score_total()


@functools.lru_cache(maxsize=256)
def utility_range(rules: Contract, stock: int) -> tuple[int, int]:
    """The lowest and highest score of a seat: the contract scores every going-out order (layout
    deals), or (trick deals) one seat taking every trick, every split of the hearts, and made and
    lost; tallies the contract refuses are skipped."""
    n = rules.players
    if "order" in rules.tallies:  # scored by the order of going out
        outcomes = [Outcome(n, order=order) for order in itertools.permutations(range(n))]
    else:
        mask, size = pack_of(rules)
        outcomes = [Outcome(n, captured=tuple(mask if s == w else 0 for s in range(n)),
                            tricks=tuple(size if s == w else 0 for s in range(n)), last_winner=w,
                            declarer=rules.declarer, tricks_played=size) for w in range(n)]
        hearts = (mask & HEARTS_MASK).bit_count()
        outcomes += [Outcome(n, hearts=split, declarer=rules.declarer)
                     for split in splits(hearts, n)]
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


def splits(total: int, parts: int) -> Iterable[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of ``parts`` whole numbers >= 0."""
    for bars in itertools.combinations(range(total + parts - 1), parts - 1):
        edges = (-1, *bars, total + parts - 1)
        yield tuple(edges[i + 1] - edges[i] - 1 for i in range(parts))


def sorted_codes(hand: int, rules: Contract) -> list[str]:
    """A hand's card codes as records write them (by suit, high rank first)."""
    return [str(c) for c in sort_hand(cards_of(hand), rules)]


#: what a hand shows the table, for the observers
Shown = OnTable


def table_of(hand: Hand) -> Shown:
    """What ``hand`` shows the table, read by its kind from its engine's own state."""
    return kind_of(hand).table(hand)
