"""Reneges in played hands, ruled as the rule book's §6 says, by its own numbers: a random deal is
played legally up to a random renege (a card that does not follow suit, a heart under a ban, a
pass while able to lay, a card that fits nowhere), which is then established (its trick
completed, or the next seat moved) or left to be corrected, and ``replay`` must rule on it.

The expected rulings are written here from the rule book's text, not from the contracts'
declarations, so a declaration that drifts from the rule book fails."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from herzla.cards import Suit, cards_of
from herzla.contracts import Contract, contract_classes, games
from herzla.contracts.base import LayoutContract
from herzla.hand import PASS
from herzla.records import replay
from herzla.support.streams import seeded_deal

#: the whole stake an offender pays in Herzeln and Herzerln trick deals (§6), by players
STAKES: dict[tuple[str, int], dict[str, int]] = {
    ("herzeln", 4): {"no-hearts": 33, "every-trick": 80, "no-tricks": 80, "no-queens": 80,
                     "king-of-hearts": 40, "last-trick": 40, "no-last-trick": 40},
    ("herzeln", 3): {"no-hearts": 31, "every-trick": 80, "no-tricks": 80, "no-queens": 80,
                     "king-of-hearts": 40, "last-trick": 40, "no-last-trick": 40},
    ("herzerln", 4): {"tricks": 8, "hearts": 8, "jacks": 8, "red-queens": 8,
                      "king-of-hearts": 8},
    ("herzerln", 3): {"tricks": 10, "hearts": 8, "jacks": 8, "red-queens": 8,
                      "king-of-hearts": 8},
}
#: the places of a layout deal (§3 and §4), first place first, by game and players
PLACES: dict[tuple[str, int], list[int]] = {
    ("herzeln", 4): [0, -10, -20, -30], ("herzeln", 3): [0, -10, -20],
    ("herzerln", 4): [20, 14, 6, 0], ("herzerln", 3): [21, 14, 7],
}
TABLES = [(game, cls, n) for game in games() for cls in contract_classes(game)
          for n in cls.player_counts]


def _renege(contract: Contract, rnd: random.Random
            ) -> tuple[list[int], list[str], int, list[int], list[int], set[str]] | None:
    """Play legally to a renege: (dealt, plays up to and with it, offender, seats out, cards
    left, the legal moves instead); None when the hand ended first."""
    dealt = seeded_deal(contract.pack(), contract.players, contract.hand_size,
                        rnd.getrandbits(63))
    hand = contract.new_hand(dealt, contract.players - 1)
    while not hand.over:
        seat = hand.turn
        legal = hand.legal_moves()
        held = list(cards_of(hand.hands[seat]))
        wrong: list[str] = [c.code for c in held if hand.check(c) is not None]
        if isinstance(contract, LayoutContract) and any(m != PASS for m in legal):
            wrong.append("pass")
        if wrong and rnd.random() < 0.3:
            bad = rnd.choice(wrong)
            out = list(getattr(hand, "order", ()))
            left = [h.bit_count() for h in hand.hands]
            return dealt, [*map(str, hand.moves), bad], seat, out, left, set(map(str, legal))
        hand.play(rnd.choice(legal))
    return None


@given(st.sampled_from(TABLES), st.integers(0, 2**32), st.booleans())
@settings(max_examples=300, deadline=None)
def test_a_played_renege_is_ruled_as_the_rule_book_says(table: tuple[str, Any, int], seed: int,
                                                        establish: bool) -> None:
    game, cls, n = table
    rnd = random.Random(seed)
    contract = cls(n, None, rnd.randrange(n) if cls.needs_declarer else None)
    found = _renege(contract, rnd)
    if found is None:
        event("the hand ended before a renege")
        return
    dealt, plays, offender, out, left, legal = found
    layout = isinstance(contract, LayoutContract)
    in_trick = 0 if layout else (len(plays) - 1) % n  # cards before the renege in its trick
    established = establish or (not layout and in_trick == n - 1)
    if establish:
        if layout:
            plays.append("pass")  # the next seat moves (whatever it is, the renege stands)
        else:  # the trick is completed with any cards the seats after hold
            plays += [rnd.choice(list(cards_of(dealt[(offender + k) % n]))).code
                      for k in range(1, n - in_trick)]
    rec = {"game": game, "contract": cls.id, "players": n, "dealer": n - 1,
           "hands": [[c.code for c in cards_of(m)] for m in dealt], "plays": plays,
           "stock": 30 if contract.has_stock else 0}
    if contract.declarer is not None:
        rec["declarer"] = contract.declarer
    ruling = replay(rec).ruling
    assert ruling is not None and ruling.seat == offender
    assert ruling.established == established
    event("established" if established else "corrected")
    if not established:  # corrected: the card goes back; the answer names the legal moves
        assert ruling.scores is None
        assert {m.rstrip("+-") for m in ruling.legal or ()} == {m.rstrip("+-") for m in legal}
        return
    scores = ruling.scores
    assert scores is not None
    if layout:  # out keep their places; the rest fewest cards first, ties from the left; last
        rest = [s for s in ((offender + k) % n for k in range(1, n)) if s not in out]
        order = out + sorted(rest, key=lambda s: left[s]) + [offender]
        assert [scores[s] for s in order] == PLACES[(game, n)]
    elif game == "herzla" and cls.id == "normal":  # 8 heart units to the stock, alone
        assert ruling.stock == 30 + 80
        assert list(scores) == [-80 if s == offender else 0 for s in range(n)]
    elif game == "herzla":  # Beddl and Mord: lost by the declarer's renege, made by a defender's
        declarer = contract.declarer
        assert declarer is not None
        assert ("contract-lost" in ruling.events) == (offender == declarer)
        assert ("contract-made" in ruling.events) == (offender != declarer)
        assert (scores[declarer] > 0) == (offender != declarer) and sum(scores) == 0
    elif game == "herzla-kids":  # a penalty point for every heart in play
        hearts = sum(c.suit is Suit.H for m in dealt for c in cards_of(m))
        assert list(scores) == [hearts if s == offender else 0 for s in range(n)]
    else:  # minus the deal's whole stake
        stake = STAKES[(game, n)][cls.id]
        assert list(scores) == [-stake if s == offender else 0 for s in range(n)]
