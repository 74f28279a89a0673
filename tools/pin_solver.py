"""Write tests/pins/solver.jsonl: positions and deals of every kind with the solver's answers.

The file pins what ``herzla.analysis.solve`` answers (value, made, the value of every play) on a
fixed set of positions, so that a change to the search that changes any answer fails
``tests/test_solver_pins.py``.  It was written by the solver as merged (before the search was
made faster); run this again only to add positions, never to accept changed answers::

    python tools/pin_solver.py > tests/pins/solver.jsonl

Each line: the record (hands and plays spelled out, so the file does not depend on how deals are
drawn), the seat, and the answer.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

from herzla.analysis.solve import solve
from herzla.cards import PACK_32, Rank, cards_of
from herzla.contracts import contract_class, get_game
from herzla.kinds.layout import LayoutHand, mark
from herzla.kinds.tricks import TrickHand
from herzla.records import new_hand
from herzla.support.streams import seeded_deal

TOP = sum(1 << (s * 9 + r) for s in range(4) for r in (Rank.ACE, Rank.KING, Rank.QUEEN))


def position(game: str, cid: str, n: int, rnd: random.Random, left: int,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A seeded deal played at random until at most ``left`` cards are in the largest hand."""
    cls = contract_class(game, cid)
    declarer = rnd.randrange(n) if cls.needs_declarer else None
    contract = cls(n, options or {}, declarer)
    dealer = rnd.randrange(n)
    hands = seeded_deal(contract.pack(), n, contract.hand_size, rnd.randrange(1 << 30))
    state = new_hand(contract, hands, dealer)
    plays: list[str] = []
    while not state.over and max(h.bit_count() for h in state.hands) > left:
        if isinstance(state, TrickHand):
            card = rnd.choice(cards_of(state.legal_mask()))
            state.play(card)
            plays.append(str(card))
        else:
            assert isinstance(state, LayoutHand)
            moves = state.legal_moves()
            if not moves:
                state.pass_turn()
                plays.append("pass")
                continue
            lay = rnd.choice(moves)
            plays.append(mark(state, lay))
            state.lay(lay.card, lay.end)
    # a few cards into the next trick, sometimes
    for _ in range(rnd.randrange(n)):
        if state.over or not isinstance(state, TrickHand):
            break
        card = rnd.choice(cards_of(state.legal_mask()))
        state.play(card)
        plays.append(str(card))
    stock = rnd.choice([0, 30, 80]) if contract.has_stock else 0
    return {"game": game, "contract": cid, "players": n, "dealer": dealer,
            "declarer": declarer, "stock": stock, "options": options or {},
            "hands": [[str(c) for c in cards_of(h)] for h in hands], "plays": plays}


def announced(cid: str, count: int, seed: int) -> list[dict[str, Any]]:
    """Whole Beddl or Mord deals whose declarer holds a hand worth announcing."""
    out: list[dict[str, Any]] = []
    while len(out) < count:
        seed += 1
        hands = seeded_deal(PACK_32, 4, 8, seed)
        for seat in range(4):
            top = (hands[seat] & TOP).bit_count()
            if (cid == "beddl" and top == 0) or (cid == "mord" and top >= 6):
                out.append({"game": "herzla", "contract": cid, "players": 4, "dealer": seed % 4,
                            "declarer": seat, "stock": 0, "options": {},
                            "hands": [[str(c) for c in cards_of(h)] for h in hands],
                            "plays": []})
                break
    return out


def whole(cid: str, seed: int, declarer: int | None, dealer: int) -> dict[str, Any]:
    hands = seeded_deal(PACK_32, 4, 8, seed)
    return {"game": "herzla", "contract": cid, "players": 4, "dealer": dealer,
            "declarer": declarer, "stock": 0, "options": {},
            "hands": [[str(c) for c in cards_of(h)] for h in hands], "plays": []}


#: whole deals that are made: Beddl (among the benchmark's deals) and Mord (seat 0 or 1 holding
#: seven Aces, Kings and Obers), as (seed of the deal, declarer, dealer)
MADE = {"beddl": [(222, 0, 3), (268, 0, 3), (319, 2, 3), (815, 0, 3), (1433, 0, 3)],
        "mord": [(225, 1, 0), (225, 1, 2), (26527, 0, 3), (36260, 0, 0), (47768, 1, 0)]}


def main() -> None:
    rnd = random.Random(2026)
    items: list[tuple[dict[str, Any], int | None, bool]] = []
    for obj in announced("beddl", 14, 500) + announced("mord", 10, 900):
        items.append((obj, None, False))
    for cid, deals in MADE.items():
        for k, (seed, declarer, dealer) in enumerate(deals):
            items.append((whole(cid, seed, declarer, dealer), None, k % 2 == 0))
    for seed, seat in ((3, 0), (8, 2)):  # whole normal deals
        items.append((whole("normal", seed, None, 3), seat, False))
    for cid in ("beddl", "mord"):  # any declarer, anywhere in the hand, every play valued
        for _ in range(10):
            items.append((position("herzla", cid, 4, rnd, rnd.choice([4, 5, 6])), None, True))
    for opts in ({}, {"rank_order": "ace-ten", "heart_lead_ban_tricks": 8},
                 {"no_void": "no-payment", "stock_payout": "never", "heart_unit": 5}):
        for _ in range(4):
            obj = position("herzla", "normal", 4, rnd, rnd.choice([5, 6]), opts)
            items.append((obj, rnd.randrange(4), True))
    for _ in range(4):  # Beddl and Mord with the options too
        for cid in ("beddl", "mord"):
            obj = position("herzla", cid, 4, rnd, 5, {"rank_order": "ace-ten",
                                                      "heart_lead_ban_tricks": 8})
            items.append((obj, None, True))
    for game in ("herzla-kids", "herzeln", "herzerln"):
        for cls in get_game(game).contract_classes():
            for n in cls.player_counts:
                for _ in range(2):
                    left = 3 if cls.id in ("domino", "auflegen") else 4
                    if n >= 6:
                        left = 3
                    obj = position(game, cls.id, n, rnd, left)
                    items.append((obj, rnd.randrange(n), True))
    for obj, who, plays in items:
        res = solve(obj, seat=who, plays=plays)
        line = {"record": obj, "seat": who, "plays": plays, "value": res.value,
                "made": res.made, "play_values": None if res.plays is None else dict(res.plays)}
        sys.stdout.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
