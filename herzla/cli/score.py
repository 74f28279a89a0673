"""``herzla score GAME CONTRACT [tallies]``: the score of a hand from what each seat took."""

from __future__ import annotations

import json

import click

from herzla.cards import CardError
from herzla.cli.common import fail, game_contract, option_flag, parse_options, tally_flags
from herzla.cli.complete import complete_contract, complete_game
from herzla.cli.render import print_score
from herzla.contracts import MissingTally, TallyError
from herzla.contracts.tallies import numbers_of, score_hand
from herzla.i18n import N_, _
from herzla.limits import LimitError
from herzla.options import OptionError

__all__ = ["score"]

def _ints(text: str | None, what: str) -> list[int] | None:
    return None if text is None else numbers_of(text, f"--{what}")


@click.command("score", help=N_(
    """The score of a hand from what each seat took, itemised with the rule behind each amount.

    \b
    Examples:
      herzla score herzla normal --hearts 0,3,5,0 --stock 80
      herzla score herzla beddl --declarer 3 --lost
      herzla score herzeln no-hearts --captured "HA H7" --captured HT --captured "HK HQ HJ" \\
          --captured "H9 H8"
      herzla score herzerln auflegen --order 2,3,0,1
      herzla score herzla normal --renege 2 --stock 80
      herzla score herzerln auflegen --players 3 --renege 1 --left 9,9,9
    """))
@click.argument("game", shell_complete=complete_game)
@click.argument("contract_id", metavar="CONTRACT", shell_complete=complete_contract)
@click.option("--players", "-p", type=int, help=N_("Number of seats (default: the game's usual)."))
@click.option("--tricks", metavar="N,N,..", help=N_("Tricks won by each seat, seat 0 first."))
@click.option("--hearts", metavar="N,N,..", help=N_("Hearts captured by each seat."))
@click.option("--captured", multiple=True, metavar="CARDS",
              help=N_("The cards one seat captured (repeat once per seat, seat 0 first; '-' for "
                   "none). Only the cards that count are needed."))
@click.option("--last-trick", "last_trick", type=int, metavar="SEAT",
              help=N_("The seat that won the last trick."))
@click.option("--order", metavar="S,S,..", help=N_("Layout deals: the seats in the order they went "
              "out."))
@click.option("--declarer", type=int, help=N_("herzla beddl/mord: the declarer's seat."))
@click.option("--made", "made_flag", is_flag=True, help=N_("herzla beddl/mord: the contract was "
              "made (instead of --tricks)."))
@click.option("--lost", "lost_flag", is_flag=True, help=N_("herzla beddl/mord: the contract was "
              "lost (instead of --tricks)."))
@click.option("--stock", type=int, default=0, show_default=True,
              help=N_("herzla: cents in the stock before the hand."))
@click.option("--renege", type=int, metavar="SEAT",
              help=N_("The seat whose established renege ended the hand: the ruling, by the "
                   "table's renege option (herzla rules renege)."))
@click.option("--left", metavar="N,N,..", help=N_("With --renege in a layout deal: the cards each "
              "seat still held (--order: the seats already out)."))
@click.option("--aside", metavar="CARDS", help=N_("With --renege where cards lie aside: those "
              "cards."))
@option_flag
@click.option("--json", "as_json", is_flag=True, help=N_("Answer in JSON."))
def score(game: str, contract_id: str, players: int | None, tricks: str | None,
          hearts: str | None, captured: tuple[str, ...], last_trick: int | None,
          order: str | None, declarer: int | None, made_flag: bool, lost_flag: bool, stock: int,
          renege: int | None, left: str | None, aside: str | None,
          option_items: tuple[str, ...], as_json: bool) -> None:
    if made_flag and lost_flag:
        fail(_("--made and --lost exclude each other: give one"))
    made = True if made_flag else False if lost_flag else None
    cls = game_contract(game, contract_id)
    if cls.needs_declarer and declarer is None:
        fail(_("{game} {contract} needs the declarer: give {flags}").format(
            game=cls.game, contract=cls.id, flags=tally_flags(["declarer"])))
    try:
        answer = score_hand(
            cls.game, cls.id, players=players, options=parse_options(option_items),
            declarer=declarer, tricks=_ints(tricks, "tricks"), hearts=_ints(hearts, "hearts"),
            captured=list(captured) or None, last_winner=last_trick,
            order=_ints(order, "order"), made=made, stock=stock, renege=renege,
            left=_ints(left, "left"), aside=aside)
    except MissingTally as exc:
        fail(_("{problem}: give {flags}").format(problem=exc, flags=tally_flags(exc.needs)))
    except (OptionError, TallyError, CardError, LimitError) as exc:
        fail(str(exc))
    if as_json:
        click.echo(json.dumps(answer.to_dict(), indent=1))
        return
    print_score(answer.contract, answer.score)
