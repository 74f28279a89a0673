"""Properties of evenings over random tallies: zero-sum over the players and the stock, the
settlement adding up to each player's total in as few payments as can be, and every change the
same as entering the deals afresh."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from herzla.evening import Evening
from herzla.evening.names import STOCK
from herzla.evening.settle import settle

PLAYERS = ["Anna", "Berni", "Carla", "Done"]


@st.composite
def herzla_tally(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["hearts", "hearts", "hearts", "all", "slam", "declared"]))
    if kind == "declared":
        return {"contract": draw(st.sampled_from(["beddl", "mord"])),
                "declarer": draw(st.sampled_from([*PLAYERS, 0, 1, 2, 3])),
                "made": draw(st.booleans())}
    if kind == "slam":
        tricks = [0, 0, 0, 0]
        tricks[draw(st.integers(0, 3))] = 8
        return {"tricks": tricks}
    if kind == "all":
        hearts = [0, 0, 0, 0]
        hearts[draw(st.integers(0, 3))] = 8
        return {"hearts": hearts, "tricks": [2, 2, 2, 2]}
    cuts = sorted(draw(st.lists(st.integers(0, 8), min_size=3, max_size=3)))
    hearts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 8 - cuts[2]]
    if max(hearts) == 8:
        return {"hearts": hearts, "tricks": [2, 2, 2, 2]}
    return {"hearts": hearts}


@st.composite
def evenings(draw: st.DrawFn) -> tuple[Evening, list[dict[str, Any]]]:
    choices: list[dict[str, Any]] = [{}, {"stock_payout": "never"}, {"no_void": "no-payment"},
                                     {"heart_unit": 5}]
    options = draw(st.sampled_from(choices))
    stock = draw(st.sampled_from([0, 0, 80, 161]))
    tallies = draw(st.lists(herzla_tally(), min_size=0, max_size=12))
    e = Evening.new("herzla", PLAYERS, options, stock=stock)
    for t in tallies:
        e = e.add(t)
    return e, tallies


def check_settlement(e: Evening) -> None:
    pays = e.settlement()
    net = {p: 0 for p in [*PLAYERS, STOCK]}
    for p in pays:
        assert p.cents > 0 and p.payer != p.payee
        net[p.payer] += p.cents
        net[p.payee] -= p.cents
    assert [net[p] for p in PLAYERS] == [-t for t in e.totals]
    assert -net[STOCK] == (e.stock or 0) - e.start_stock
    balances = [*e.totals, (e.stock or 0) - e.start_stock]
    owed = [b for b in balances if b]
    # the fewest: no split of the accounts into more groups that add up to 0 each
    assert len(pays) <= max(len(owed) - 1, 0)
    if len(pays) == len(owed) - 1 and len(owed) >= 4:
        for size in range(2, len(owed) - 1):
            assert not any(sum(c) == 0 for c in combinations(owed, size)), (balances, pays)


@settings(max_examples=60, deadline=None)
@given(evenings())
def test_zero_sum_and_settlement(case: tuple[Evening, list[dict[str, Any]]]) -> None:
    e, tallies = case
    assert len(e.deals) == len(tallies)
    stock = e.start_stock
    for d in e.deals:
        assert d.stock_before == stock and d.scores is not None and d.stock is not None
        assert sum(d.scores) + d.stock - stock == 0
        assert min(d.from_stock) >= 0 and sum(d.from_stock) <= stock
        stock = d.stock
    assert sum(e.totals) + (e.stock or 0) - e.start_stock == 0
    check_settlement(e)


@settings(max_examples=40, deadline=None)
@given(evenings(), st.data())
def test_changes_equal_a_fresh_evening(case: tuple[Evening, list[dict[str, Any]]],
                                       data: st.DataObject) -> None:
    e, tallies = case
    entries = list(tallies)
    for _ in range(data.draw(st.integers(1, 3))):
        what = data.draw(st.sampled_from(["add", "edit", "drop"] if entries else ["add"]))
        if what == "add":
            t = data.draw(herzla_tally())
            e, entries = e.add(t), [*entries, t]
        else:
            k = data.draw(st.integers(1, len(entries)))
            if what == "edit":
                t = data.draw(herzla_tally())
                e = e.edit(k, t)
                entries[k - 1] = t
            else:
                e = e.drop(k)
                entries.pop(k - 1)
    fresh = Evening.new("herzla", PLAYERS, e.options, stock=e.start_stock)
    for t in entries:
        fresh = fresh.add(t)
    assert [d.score for d in e.deals] == [d.score for d in fresh.deals]
    assert e.totals == fresh.totals and e.stock == fresh.stock
    assert Evening.from_json(e.to_json()).to_dict() == e.to_dict()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=0, max_size=7))
def test_settle_any_balances(balances: list[int]) -> None:
    names = [f"p{i}" for i in range(len(balances))]
    gain = -sum(balances)
    pays = settle(names, balances, gain)
    net = dict.fromkeys([*names, STOCK], 0)
    for p in pays:
        net[p.payer] += p.cents
        net[p.payee] -= p.cents
    assert [net[n] for n in names] == [-b for b in balances] and net[STOCK] == -gain
    accounts = [b for b in [*balances, gain] if b]
    # the fewest payments: accounts less the most zero-sum groups (checked by brute force)

    def most_groups(items: list[int]) -> int:
        if not items:
            return 0
        first, rest = items[0], items[1:]
        best = 0
        for size in range(0, len(rest) + 1):
            for combo in combinations(range(len(rest)), size):
                if first + sum(rest[i] for i in combo) == 0:
                    left = [rest[i] for i in range(len(rest)) if i not in combo]
                    best = max(best, 1 + most_groups(left))
        return best

    assert len(pays) == len(accounts) - most_groups(accounts)
