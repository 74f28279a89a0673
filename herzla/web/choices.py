"""The games and contracts the app's forms offer (nothing here knows the web framework): one
listing of them, which leaves out a plug-in's game that cannot list its contracts, read by the
desk's contract choice and the start page's table choice."""

from __future__ import annotations

from herzla.contracts import Contract, Game, contract_classes, games, get_game
from herzla.i18n import N_, _, ngettext

__all__ = ["AWAY_MINUTES", "away_choices", "away_words", "contract_choices", "game_contracts",
           "table_choices"]

#: the times the start page offers a table of people for a person away, in minutes (and never)
AWAY_MINUTES = (1, 2, 5, 10)

#: the titles of the built-in games and contracts, marked for the catalog: the pages show
#: each declaration's ``title`` through ``_()`` (a plug-in's title without a translation
#: stays as it is)
TITLES = (N_("Herzla"), N_("Normal game"), N_("Beddl"), N_("Mord"), N_("Herzla for children"),
          N_("Children's Herzla"), N_("Herzeln"), N_("No hearts"), N_("Every trick"),
          N_("No tricks"), N_("No queens"), N_("King of hearts"), N_("Last trick"),
          N_("No last trick"), N_("Domino (Unteranlegen)"), N_("Herzerln"), N_("Tricks"),
          N_("Hearts"), N_("Jacks"), N_("Red queens"), N_("Auflegen"))


def game_contracts() -> list[tuple[Game, list[type[Contract]]]]:
    """Each game and its contract classes, in the registry's order; a plug-in's game that
    cannot list its contracts is left out."""
    out = []
    for game in games():
        try:
            out.append((get_game(game), contract_classes(game)))
        except (LookupError, ValueError):  # a plug-in's game that cannot list its contracts
            continue
    return out


def contract_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """Each game and its contracts, as the desk's form offers them: ``("herzla",
    [("herzla/normal", "Normal game"), ...])``."""
    return [(_(g.title), [(c.key(), _(c.title) if c.title else c.id) for c in classes])
            for g, classes in game_contracts()]


def table_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """What a table may play, as the start page offers it: per game, the game's own order of
    deals (``herzla``: with the bidding) and each contract (``herzla/beddl``)."""
    out = []
    for g, classes in game_contracts():
        title = _(g.title)
        own = (_("%(game)s with the bidding") if g.bidding
               else _("%(game)s: the partie's deals in order") if g.partie
               else _("%(game)s: deal after deal")) % {"game": title}
        items = [(g.id, own)]
        items += [(c.key(), _("%(game)s: %(contract)s only") % {
            "game": title, "contract": _(c.title) if c.title else c.id}) for c in classes]
        out.append((title, items))
    return out


def away_choices() -> list[tuple[int, str]]:
    """The start form's choices of how long a person of a table of people may be away before
    the computer plays for them: (seconds, label), never last."""
    return [*((60 * m, ngettext("after %(num)s minute", "after %(num)s minutes", m) % {"num": m})
              for m in AWAY_MINUTES), (0, _("never: wait for them"))]


def away_words(seconds: int) -> str:
    """What a table's creator is told of the time a person may be away (0: never)."""
    if seconds <= 0:
        return _("When a person's phone is away, the computer waits for them: it never plays "
                 "for them.")
    if seconds % 60 == 0:
        return ngettext("When a person's phone has been away for %(num)s minute, the computer "
                        "plays for them until they are back.",
                        "When a person's phone has been away for %(num)s minutes, the "
                        "computer plays for them until they are back.", seconds // 60
                        ) % {"num": seconds // 60}
    return ngettext("When a person's phone has been away for %(num)s second, the computer "
                    "plays for them until they are back.",
                    "When a person's phone has been away for %(num)s seconds, the computer "
                    "plays for them until they are back.", seconds) % {"num": seconds}
