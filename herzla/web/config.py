"""What an app is built with (:class:`WebConfig`, the store) and how a request reaches them."""

from __future__ import annotations

import ipaddress
from typing import cast

import attrs
from flask import current_app

from herzla.web.store import DocumentStore

__all__ = ["MAX_BODY", "MAX_DEALS", "MAX_EVENINGS", "MAX_RECORDS", "MAX_TABLES", "AppState",
           "Limits", "WebConfig", "is_loopback", "state"]

#: the largest request body (JSON or a form): a hand record is a few kilobytes
MAX_BODY = 2 * 2**20

#: the most hand records one request may carry (a list to replay as a score sheet)
MAX_RECORDS = 200

#: the most evenings the app keeps, the most deals of one evening, the most tables
MAX_EVENINGS = 1000
MAX_DEALS = 1000
MAX_TABLES = 200


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or an address, without a port) is this machine's loopback:
    ``localhost`` (or a name under ``.localhost``), 127.0.0.0/8 or ::1."""
    name = host.strip().lower().removeprefix("[").removesuffix("]").rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@attrs.frozen(slots=True)
class Limits:
    """What one client may ask of the app (:mod:`herzla.web.limits`): ``creations`` new
    evenings and tables and ``joins`` refused tries of a key or token in a burst, refilled
    over ``window`` seconds; ``thinking_each`` expensive calls (hints, reviews) at once from
    one client, ``thinking`` from all."""

    creations: int = 30
    joins: int = 30
    window: float = 600.0
    thinking_each: int = 1
    thinking: int = 2


@attrs.frozen(slots=True)
class WebConfig:
    """How the app guards its pages.

    ``token``: when not None, every page and call needs it (:mod:`herzla.web.auth`).
    ``loopback``: the server listens only on a loopback address, so a request whose ``Host``
    names another machine is refused (a web page elsewhere cannot reach the app by pointing a
    name of its own at 127.0.0.1).  ``max_body``: the largest request body in bytes;
    ``max_records``: the most records one request may carry; ``max_evenings``,
    ``max_deals``, ``max_tables``: the most evenings the app keeps, deals one evening holds,
    and tables against the computer the app keeps.  ``url``: the address (with the token)
    that a phone at the table opens, which the start page shows as a QR code (None: not
    shown).  ``limits``: what one client may ask (:mod:`herzla.web.limits`; None: no limits,
    as in the tests of other things).
    """

    token: str | None = None
    loopback: bool = True
    max_body: int = MAX_BODY
    max_records: int = MAX_RECORDS
    max_evenings: int = MAX_EVENINGS
    max_deals: int = MAX_DEALS
    max_tables: int = MAX_TABLES
    url: str | None = None
    limits: Limits | None = None


@attrs.frozen(slots=True)
class AppState:
    """What every request of one app uses: its store and its configuration."""

    store: DocumentStore
    config: WebConfig


def state() -> AppState:
    """The store and configuration of the app handling the current request."""
    return cast(AppState, current_app.extensions["herzla"])
