"""``herzla deal GAME --seed S``: a seeded deal as a hand record without plays."""

from __future__ import annotations

import json

import click

from herzla.cli.common import fail, game_contract, option_flag, parse_options
from herzla.cli.complete import complete_contract, complete_game
from herzla.i18n import N_
from herzla.limits import LimitError, check_seed, check_stock
from herzla.options import OptionError
from herzla.records import RecordError, deal_record

__all__ = ["deal"]


@click.command("deal", help=N_("""Print a seeded deal of GAME as a hand record without plays.

    The deal is the first hand 'herzla simulate GAME --seed S' plays.
    """))
@click.argument("game", shell_complete=complete_game)
@click.option("--seed", type=int, required=True,
              help=N_("The seed (0 or more): the same as 'herzla simulate --seed' deals first."))
@click.option("--contract", "-c", shell_complete=complete_contract,
              help=N_("The contract id (default: the game's first)."))
@click.option("--players", "-p", type=int, help=N_("Number of seats (default: the game's usual)."))
@click.option("--dealer", type=int, help=N_("The dealer's seat (default: the last seat)."))
@click.option("--declarer", type=int, help=N_("The declarer's seat for beddl and mord "
              "(default: forehand)."))
@click.option("--stock", type=int, default=0, show_default=True,
              help=N_("herzla: cents in the stock before the hand."))
@option_flag
def deal(game: str, seed: int, contract: str | None, players: int | None, dealer: int | None,
         declarer: int | None, stock: int, option_items: tuple[str, ...]) -> None:
    cls = game_contract(game, contract)
    n = players if players is not None else cls.player_counts[0]
    try:
        check_seed(seed)
        check_stock(stock)
        rec = deal_record(game, cls.id, n, seed, dealer=dealer, declarer=declarer, stock=stock,
                          options=parse_options(option_items))
    except (RecordError, OptionError, LimitError) as exc:
        fail(str(exc))
    click.echo(json.dumps(rec.to_json(), indent=1))
