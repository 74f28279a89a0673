"""The parts of the OpenAPI description read from the games' declarations (nothing here names a
game, a contract, an option or a policy): what a new evening and a new table take, one schema
per game (its players' numbers, its contracts, its options with their types and ranges), so
that a body the description calls valid fits the game as far as JSON Schema can say it; what
it cannot say (a dealer named by a player's name, Beddl's declarer) is a 422 with one line."""

from __future__ import annotations

from typing import Any

from herzla.contracts import contract_classes, game_options, games, get_game
from herzla.limits import MAX_AMOUNT, MAX_SEED, MAX_STOCK
from herzla.options import Option
from herzla.players.registry import policy_names
from herzla.table.model import MOST_AWAY

__all__ = ["game_names", "new_evening", "new_table", "options_of", "policies"]

#: the longest name of a player
MAX_NAME = 40


def game_names() -> dict[str, Any]:
    """The games, by id."""
    return {"enum": games(), "examples": games()[:1]}


def policies() -> dict[str, Any]:
    """The policies a request may name."""
    return {"enum": list(policy_names())}


def _option(option: Option) -> dict[str, Any]:
    out: dict[str, Any] = {"description": option.doc}
    if option.choices:
        out["enum"] = list(option.choices)
    elif isinstance(option.default, bool):
        out["type"] = "boolean"
    elif isinstance(option.default, int):
        out.update(type="integer", minimum=option.minimum if option.minimum is not None
                   else -MAX_AMOUNT,
                   maximum=option.maximum if option.maximum is not None else MAX_AMOUNT)
    else:
        out["type"] = "string"
    return out


def options_of(game: str) -> dict[str, Any]:
    """The rule options of ``game``, by name."""
    return {"type": "object", "additionalProperties": False,
            "description": "Rule options by name (what is not given keeps its default).",
            "properties": {o.name: _option(o) for o in game_options(game)}}


def _seat(most: int) -> dict[str, Any]:
    return {"oneOf": [{"type": "integer", "minimum": 0, "maximum": most - 1},
                      {"type": "string", "minLength": 1, "maxLength": MAX_NAME}],
            "description": "A seat: its number from 0, or the player's name."}


def _names(counts: list[int]) -> dict[str, Any]:
    return {"type": "array", "minItems": min(counts), "maxItems": max(counts),
            "uniqueItems": True,
            "items": {"type": "string", "minLength": 1, "maxLength": MAX_NAME},
            "description": "The players' names, one per seat, seat 0 first."}


def _stock() -> dict[str, Any]:
    return {"type": "integer", "minimum": 0, "maximum": MAX_STOCK,
            "description": "Cents in the stock at the start (a game with a stock)."}


def _object(required: list[str], properties: dict[str, Any]) -> dict[str, Any]:
    """An object of ``properties``, those not ``required`` null as well (null: left out)."""
    return {"type": "object", "required": required, "additionalProperties": False,
            "properties": {k: v if k in required or None in v.get("enum", ())
                           else {"anyOf": [v, {"type": "null"}], "description":
                                 f"{v.get('description', '')} (null: left out)".lstrip()}
                           for k, v in properties.items()}}


def new_evening() -> dict[str, Any]:
    """What ``POST /api/evenings`` takes: one object per game."""
    def one(game: str) -> dict[str, Any]:
        counts = get_game(game).player_counts()
        return _object(["game", "players"], {
            "game": {"const": game}, "players": _names(counts), "options": options_of(game),
            "stock": _stock(), "dealer": _seat(max(counts))})

    return {"oneOf": [one(g) for g in games()],
            "examples": [{"game": games()[0], "players": [
                f"P{i + 1}" for i in range(get_game(games()[0]).player_counts()[0])]}]}


def new_table() -> dict[str, Any]:
    """What ``POST /api/tables`` takes: one object per game."""
    def one(game: str) -> dict[str, Any]:
        counts = get_game(game).player_counts()
        most = max(counts)
        return _object(["game"], {
                    "game": {"const": game},
                    "contract": {"enum": [*(c.id for c in contract_classes(game)), None],
                                 "description": "The contract of every deal; left out: the "
                                                "game's own order (Herzla with the bidding, "
                                                "a partie's deals in order)."},
                    "players": {"oneOf": [{"enum": counts}, _names(counts)],
                                "description": "Their number, or their names."},
                    "seat": {"type": "integer", "minimum": 0, "maximum": most - 1,
                             "description": "The person's seat."},
                    "declarer": _seat(most),
                    "opponents": {**policies(),
                                  "description": "The policy of the other seats, by name."},
                    "seed": {"type": "integer", "minimum": 0, "maximum": MAX_SEED,
                             "description": "Deals the cards and seeds the computer's "
                                            "choices."},
                    "options": options_of(game), "stock": _stock(), "dealer": _seat(most),
                    "people": {"type": "array", "minItems": 1, "maxItems": most,
                               "uniqueItems": True,
                               "items": {"type": "integer", "minimum": 0, "maximum": most - 1},
                               "description": "A table of people: the seats people play, each "
                                              "by its own private link (the answer's "
                                              "`seats`); the computer plays the others."},
                    "away": {"type": "integer", "minimum": 0, "maximum": MOST_AWAY,
                             "description": "A table of people: the seconds a person's page "
                                            "may be away before the computer plays their "
                                            "seat until they are back (default 120; 0: "
                                            "never)."}})

    return {"oneOf": [one(g) for g in games()],
            "examples": [{"game": games()[0], "opponents": "heuristic", "seed": 1}]}
