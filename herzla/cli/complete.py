"""Shell completion: the words ``herzla`` completes, read from the registries (the games and
their contracts, the policies, the rule options and the rule book), so a plug-in's game and
contracts complete too.  The Command line page of the docs says how to switch completion on in
bash, zsh and fish.

Each function is a click ``shell_complete`` callback: it gets the context (the arguments parsed
so far, e.g. ``game``), the parameter and the text typed, and returns the matching words.
"""

from __future__ import annotations

from click import Context, Parameter
from click.shell_completion import CompletionItem

from herzla.quote import visible

__all__ = ["complete_choice", "complete_contract", "complete_game", "complete_option",
           "complete_policy", "complete_rule", "complete_topic"]


def _game(ctx: Context) -> str | None:
    from herzla.contracts import games

    # an option still waiting for its value stops click's parse, leaving GAME in ctx.args
    for game in (ctx.params.get("game"), *ctx.args):
        if isinstance(game, str) and game.lower() in games():
            return game.lower()
    return None


def complete_game(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """Game ids (``herzla``, ``herzeln``, ...)."""
    from herzla.contracts import games, get_game

    return [CompletionItem(g, help=visible(get_game(g).title)) for g in games()
            if g.startswith(incomplete.lower())]


def complete_contract(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """The contract ids of the game given before (every game's, if none is)."""
    from herzla.contracts import contract_classes, games

    game = _game(ctx)
    classes = contract_classes(game) if game else [c for g in games()
                                                   for c in contract_classes(g)]
    seen: dict[str, str] = {}
    for cls in classes:
        seen.setdefault(cls.id, cls.title)
    return [CompletionItem(cid, help=visible(title)) for cid, title in seen.items()
            if cid.startswith(incomplete.lower())]


def complete_choice(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """The contracts a game's bidding chooses between (``advise --only``)."""
    from herzla.contracts import get_game

    game = _game(ctx) or "herzla"
    return [CompletionItem(c) for c in get_game(game).bidding if c.startswith(incomplete.lower())]


def complete_policy(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """The built-in policies, and those installed packages register."""
    from herzla.players.registry import policy_names

    return [CompletionItem(p) for p in policy_names() if p.startswith(incomplete.lower())]


def complete_option(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """``NAME=`` for the rule options of the game given before (every game's, if none is), and
    after ``NAME=`` the option's values."""
    from herzla.contracts import games, get_game

    game = _game(ctx)
    options = {o.name: o for g in ([game] if game else games()) for o in get_game(g).options}
    name, eq, value = incomplete.partition("=")
    if not eq:
        return [CompletionItem(f"{o.name}=", help=visible(o.doc)) for o in options.values()
                if o.name.startswith(name)]
    opt = options.get(name)
    if opt is None:
        return []
    if opt.choices:
        values = list(opt.choices)
    elif isinstance(opt.default, bool):
        values = ["true", "false"]
    else:
        values = [str(opt.default)]
    return [CompletionItem(f"{name}={v}") for v in values if v.startswith(value)]


def complete_rule(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """``herzla rules``' first word: a game, a rule id (``herzla/stock-payout``, the ids illegal
    plays name) or a topic of any game."""
    from herzla.rulebook import entries, illegal_rules, known_games, topics_of

    want = incomplete.lower()
    words = [*known_games(), *illegal_rules()]
    if "/" in want:
        words = [r.id for r in entries()]
    else:
        words += sorted({t for g in known_games() for t in topics_of(g)} - set(words))
    return [CompletionItem(w) for w in dict.fromkeys(words) if w.startswith(want)]


def complete_topic(ctx: Context, param: Parameter, incomplete: str) -> list[CompletionItem]:
    """The topics and rule ids of the game given before (``herzla rules GAME TOPIC``)."""
    from herzla.rulebook import COMMON, entries, known_games, topics_of

    game = ctx.params.get("game")
    if not isinstance(game, str) or game.lower() not in known_games():
        return []
    game = game.lower()
    want = incomplete.lower()
    words = [r.id for r in entries(game)] if "/" in want else topics_of(game)
    if game != COMMON and "/" not in want:
        words += [t for t in topics_of(COMMON) if t not in words]
    return [CompletionItem(w) for w in words if w.startswith(want)]
