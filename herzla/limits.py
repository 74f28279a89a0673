"""The limits herzla checks on entry, so that no amount can overflow the engines' 64-bit
integers and no input can exhaust memory: one table, read by the library, ``replay``, ``score``
and ``simulate`` alike (the Command line page of the docs lists them).

>>> check_stock(80)
80
>>> check_seed(-1)
Traceback (most recent call last):
...
herzla.limits.LimitError: a seed is a whole number from 0 to 9223372036854775807, not -1
"""

from __future__ import annotations

from herzla.i18n import N_, _, format_number
from herzla.quote import number, quote

__all__ = [
    "MAX_AMOUNT",
    "MAX_SEED",
    "MAX_TIMEOUT",
    "DEFAULT_TIMEOUT",
    "LimitError",
    "check_amount",
    "check_seed",
    "check_stock",
    "check_carried_stock",
    "MAX_STOCK",
    "check_timeout",
    "whole_number",
    "MAX_DRAWN_HANDS",
    "MAX_HAND_AMOUNT",
    "MAX_PARTIE_AMOUNT",
    "MAX_SEATS",
    "MAX_SESSION_DEALS",
    "check_drawn",
    "check_session",
]

#: the largest amount (cents or points) a stock, an option or a tally may hold: 10**12, so that
#: every sum the engines form over a hand (at most 36 cards and 8 seats) stays far below 2**63
MAX_AMOUNT = 10**12
#: the most seats a table has: the batch engine packs a hand's per-seat counts in the eight bytes
#: of one 64-bit word, and the solver's position keys hold eight hands
MAX_SEATS = 8
#: the most the amounts of one hand may add up to over its seats, in magnitude (the stock's
#: change included): what a contract's declaration can move at worst, with any options
#: (``Contract.amount_bound``), 2**45, about 3.5 * 10**13.  herzla's own contracts reach
#: 1.6 * 10**13 at the limits of their options (Herzla's heart_unit at 10**12: 8 hearts paid
#: and 8 collected).  So a hand's sum over the seats stays below 2**45, a partie's below
#: :data:`MAX_PARTIE_AMOUNT`, and what the simulator and a match add up in 64-bit integers for
#: a deal (a partie's totals, a policy's score over its seats in every seating, times the
#: seats) below 2**60; longer sums (a block's, a run's) are formed exactly
MAX_HAND_AMOUNT = 2**45
#: the most the hands of one partie may move over its seats, worst case (the sum of its deals'
#: :data:`MAX_HAND_AMOUNT` bounds): 2**52, some 128 deals at the limit
MAX_PARTIE_AMOUNT = 2**52
#: the most deals of one simulated evening (``simulate --session N``): an evening's totals and
#: its stock, summed in 64-bit integers over its deals, stay below 10**4 * 2**45, about
#: 3.5 * 10**17, far below 2**63
MAX_SESSION_DEALS = 10_000
#: the largest stock a hand may be dealt with, once carried: a stock starts at most at
#: :data:`MAX_AMOUNT` (:func:`check_stock`), and each deal changes it by at most
#: :data:`MAX_HAND_AMOUNT`, so an evening of :data:`MAX_SESSION_DEALS` deals carries it below
#: 10**12 + 10**4 * 2**45, under 2**59: every stock the rules produce in an evening (a
#: simulated session's sample, a pad's next deal) is read back (:func:`check_carried_stock`)
MAX_STOCK = 2**59
assert MAX_AMOUNT + MAX_SESSION_DEALS * MAX_HAND_AMOUNT < MAX_STOCK
#: the largest seed (2**63 - 1)
MAX_SEED = 2**63 - 1
#: the longest wait (seconds) for a cluster: a day; far longer ones overflow the clocks the
#: waits are computed on
MAX_TIMEOUT = 86_400
#: seconds to wait for a cluster's scheduler and a worker, and for a lost one to come back,
#: unless told otherwise
DEFAULT_TIMEOUT = 10.0


class LimitError(ValueError):
    """A number outside the limits herzla handles."""


def check_amount(value: int, what: str, minimum: int = 0) -> int:
    """``value`` if ``minimum <= value <= MAX_AMOUNT``, else LimitError naming ``what``."""
    if not minimum <= value <= MAX_AMOUNT:
        raise LimitError(_("{what} must be {minimum} to {max_amount}, not {value}").format(
            what=_(what), minimum=minimum, max_amount=format_number(MAX_AMOUNT),
            value=number(value)))
    return value


def check_stock(stock: int) -> int:
    """A stock an evening, a simulation or a table starts with: 0 to :data:`MAX_AMOUNT`."""
    return check_amount(stock, N_("the stock (cents)"))


def check_carried_stock(stock: int) -> int:
    """The stock a hand is dealt with (a record's, a tally's), carried from the deals before:
    0 to :data:`MAX_STOCK`."""
    if not 0 <= stock <= MAX_STOCK:
        raise LimitError(_("the stock (cents) must be 0 to {max_stock} (what an evening of "
                           "{max_session_deals} deals can carry), not {stock}").format(
            max_stock=format_number(MAX_STOCK),
            max_session_deals=format_number(MAX_SESSION_DEALS), stock=number(stock)))
    return stock


def check_seed(seed: int) -> int:
    if not 0 <= seed <= MAX_SEED:
        raise LimitError(_("a seed is a whole number from 0 to {max_seed}, not {seed}").format(
            max_seed=MAX_SEED, seed=number(seed)))
    return seed


def check_timeout(seconds: float, what: str = N_("the cluster timeout")) -> float:
    """``seconds`` if it is more than 0 and at most :data:`MAX_TIMEOUT`, else LimitError
    (infinity and NaN included).

    >>> check_timeout(float("inf"), "a wait")
    Traceback (most recent call last):
    ...
    herzla.limits.LimitError: a wait must be more than 0 and at most 86,400 seconds (a day), not inf
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise LimitError(_("{what} must be a number of seconds, not {seconds}").format(
            what=_(what), seconds=quote(seconds)))
    if not 0 < seconds <= MAX_TIMEOUT:  # NaN fails every comparison
        shown = number(seconds) if isinstance(seconds, int) else f"{seconds:g}"
        raise LimitError(_("{what} must be more than 0 and at most {max_timeout} seconds "
                           "(a day), not {shown}").format(
            what=_(what), max_timeout=format_number(MAX_TIMEOUT), shown=shown))
    return float(seconds)


def whole_number(value: object, what: str, error: type[ValueError] = LimitError) -> int:
    """``value`` if it is a whole number (an ``int``, not ``True``/``False``, a float or text),
    else LimitError (or the caller's ``error``) naming ``what``: every count, seat and amount a
    function takes.

    >>> whole_number(True, "hands")
    Traceback (most recent call last):
    ...
    herzla.limits.LimitError: hands must be a whole number, not true
    """
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(_("{what} must be a whole number, not {value}").format(
            what=_(what), value=quote(value)))
    return value


#: the most hands one picture or page draws (the hands of a score sheet), so that a page stays
#: a page: a JSON list of 64 MiB holds some 100,000 hands
MAX_DRAWN_HANDS = 200


def check_drawn(hands: int) -> int:
    if hands > MAX_DRAWN_HANDS:
        raise LimitError(_("a picture or page draws at most {max_drawn_hands} hands, not "
                           "{hands} (draw a shorter list, or the hands one a line as "
                           "text)").format(
            max_drawn_hands=MAX_DRAWN_HANDS, hands=format_number(hands)))
    return hands


def check_session(deals: int) -> int:
    """``deals`` if an evening of that many deals can be simulated, else LimitError.

    >>> check_session(0)
    Traceback (most recent call last):
    ...
    herzla.limits.LimitError: an evening (session) has 1 to 10,000 deals, not 0
    """
    if not 1 <= deals <= MAX_SESSION_DEALS:
        raise LimitError(_("an evening (session) has 1 to {max_session_deals} deals, not "
                           "{deals}").format(
            max_session_deals=format_number(MAX_SESSION_DEALS), deals=number(deals)))
    return deals
