"""Settling an evening played for money: who pays whom, in as few payments as can do it.

Every account (each player, and the stock) has a balance: a player's total, and what the stock
gained over the evening; the balances add up to 0, since every deal is zero-sum over the
players and the stock.  Accounts whose balances add up to 0 among themselves settle apart from
the rest, and a group of ``m`` accounts settles in ``m - 1`` payments, so the fewest payments
are the accounts owed or owing less the most groups they split into (found exactly over the
subsets, for up to :data:`EXACT` accounts; beyond that each group is the whole).

>>> [str(p) for p in settle(["Anna", "Berni", "Carla", "Done"], [40, -30, -50, 40], 0)]
['Carla pays Anna 40c', 'Berni pays Done 30c', 'Carla pays Done 10c']
>>> for p in settle(["Anna", "Berni", "Carla", "Done"], [-20, -20, -20, -20], 80):
...     print(p)
Anna pays the stock 20c
Berni pays the stock 20c
Carla pays the stock 20c
Done pays the stock 20c
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from herzla.evening.names import STOCK
from herzla.i18n import _
from herzla.support.words import cent_sign

__all__ = ["EXACT", "Payment", "settle"]

#: the most accounts owed or owing settled in the fewest payments exactly (2**EXACT subsets)
EXACT = 16


@attrs.frozen(slots=True)
class Payment:
    """``payer`` pays ``payee`` ``cents``; either may be :data:`herzla.evening.names.STOCK`."""

    payer: str
    payee: str
    cents: int

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "cents": self.cents}

    def __str__(self) -> str:
        amount = f"{self.cents}{cent_sign()}"
        if self.payer == STOCK:
            return _("the stock pays {payee} {amount}").format(payee=self.payee, amount=amount)
        if self.payee == STOCK:
            return _("{payer} pays the stock {amount}").format(payer=self.payer, amount=amount)
        return _("{payer} pays {payee} {amount}").format(payer=self.payer, payee=self.payee,
                                                         amount=amount)


def _groups(balances: Sequence[int]) -> list[list[int]]:
    """The accounts (indexes) split into the most groups that each add up to 0."""
    idx = [i for i, b in enumerate(balances) if b]
    m = len(idx)
    if m > EXACT:
        return [idx]
    size = 1 << m
    sums = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + balances[idx[low]]
    best = [0] * size
    for mask in range(1, size):
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            top = max(top, best[mask ^ bit])
        best[mask] = top + (1 if sums[mask] == 0 else 0)
    groups: list[list[int]] = []
    mask = size - 1
    current: list[int] = []
    while mask:
        # take off an account that keeps the most groups, the last one first (so that each
        # group lists its accounts in seat order)
        want = best[mask] - (1 if sums[mask] == 0 else 0)
        for j in reversed(range(m)):
            bit = 1 << j
            if mask & bit and best[mask ^ bit] == want:
                break
        if sums[mask] == 0 and current:
            groups.append(sorted(current))
            current = []
        current.append(idx[j])
        mask ^= bit
    if current:
        groups.append(sorted(current))
    return sorted(groups)


def settle(players: Sequence[str], totals: Sequence[int], stock_gain: int) -> tuple[Payment, ...]:
    """The payments that settle ``totals`` (each player's, in cents) and ``stock_gain`` (what
    the stock gained over the evening: ``-sum(totals)``): as few as there can be, each from one
    who owes to one who is owed, the largest debts first within each group."""
    names = [*players, STOCK]
    balances = [*totals, stock_gain]
    if sum(balances):
        raise ValueError(_("the balances add up to {total}, not 0").format(total=sum(balances)))
    out: list[Payment] = []
    for group in _groups(balances):
        owed = [[balances[i], i] for i in group if balances[i] > 0]
        owing = [[-balances[i], i] for i in group if balances[i] < 0]
        while owed and owing:
            owed.sort(key=lambda x: (-x[0], x[1]))
            owing.sort(key=lambda x: (-x[0], x[1]))
            cents = min(owed[0][0], owing[0][0])
            out.append(Payment(names[owing[0][1]], names[owed[0][1]], cents))
            owed[0][0] -= cents
            owing[0][0] -= cents
            owed = [x for x in owed if x[0]]
            owing = [x for x in owing if x[0]]
    return tuple(out)
