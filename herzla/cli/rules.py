"""``herzla rules [GAME] [TOPIC] [--json]``: the rule book, by game and topic."""

from __future__ import annotations

import contextlib
import json
import re
import textwrap
from collections.abc import Iterable, Sequence

import click

from herzla.cli.common import fail
from herzla.cli.complete import complete_rule, complete_topic
from herzla.contracts import get_game
from herzla.contracts.words import tr
from herzla.i18n import DEFAULT, N_, _, current, ngettext
from herzla.names import did_you_mean
from herzla.options import Option
from herzla.quote import quote, visible
from herzla.rulebook import (
    COMMON,
    IRREGULARITIES,
    SOURCES,
    Rule,
    UnknownTopic,
    entries,
    find,
    game_about,
    game_json,
    get_rule,
    illegal_rules,
    known_games,
    options_of,
    rule_json,
    topics_of,
    words_of,
)

__all__ = ["render_rule", "rules_command"]

WIDTH = 79


def _wrap(text: str, indent: str = "  ", first: str | None = None) -> list[str]:
    """``text`` wrapped; an amount stays with its unit (``80 ct``)."""
    kept = re.sub(r"(\d) (ct|€)\b", "\\1\0\\2", text)
    return [line.replace("\0", " ") for line in textwrap.wrap(
        kept, WIDTH, initial_indent=indent if first is None else first,
        subsequent_indent=indent, break_on_hyphens=False, break_long_words=False)]


def _values(opt: Option) -> str:
    if opt.choices:
        return "|".join(opt.choices)
    if isinstance(opt.default, bool):
        return "true|false" if opt.default else "false|true"
    return "N"


def _default(opt: Option) -> str:
    return str(opt.default).lower() if isinstance(opt.default, bool) else str(opt.default)


def render_rule(rule: Rule, game: str | None = None) -> list[str]:
    """A rule as readable lines: title, tags and id, text, example, options, topics."""
    tags = " ".join(_(SOURCES[s]) if s in SOURCES else f"[{s}]" for s in rule.sources)
    where = _("rule {id}").format(id=rule.id) + (
        "" if rule.origin == "herzla" else f", {rule.origin}")
    lines = [f"{rule.title}  {tags}  ({where})"]
    lines += _wrap(rule.text)
    if rule.example:
        lines += _wrap(_("Example: {example}").format(example=rule.example))
    for g, opt in options_of(rule):
        prefix = (_("{game} option").format(game=g)
                  if g != (game or rule.game) or rule.game == COMMON else _("Option"))
        kind = ""
        if not opt.choices and not isinstance(opt.default, bool):
            low, high = opt.minimum, opt.maximum
            kind = (_("a whole number {low} to {high}") if low is not None and high is not None
                    else _("a whole number >= {low}") if low is not None
                    else _("a whole number <= {high}") if high is not None
                    else _("a whole number")).format(low=low, high=high)
            kind += ", "
        # in German the option's German names beside its own: either may be typed
        name = "/".join((opt.name, *opt.names)) if current() != DEFAULT else opt.name
        lines += _wrap(_("{prefix} {name}={values} ({kind}default {default}): {doc}.").format(
            prefix=prefix, name=name, values=_values(opt), kind=kind,
            default=_default(opt), doc=tr(opt.doc)), indent="      ", first="  ")
    words = [t for t in rule.topics if not t.isdigit()]
    if current() != DEFAULT:  # the words it answers to in the language read
        words = list(rule.words)
    if words:
        lines += _wrap(_("Topics: {topics}").format(topics=", ".join(words)), indent="      ",
                       first="  ")
    return lines


def _game_header(game: str) -> list[str]:
    title, about = game_about(game)
    if game == COMMON:
        return [f"{title}: {about}."]
    lines = [_("{title} (game {game})").format(title=title, game=game),
             *_wrap(f"{about}.", indent="")]
    g = get_game(game)
    lines += _wrap(_("Players: {players}. Contracts: {contracts}.").format(
        players=", ".join(map(str, g.player_counts())),
        contracts=", ".join(c.id if current() == DEFAULT else f"{tr(c.title)} ({c.id})"
                            for c in g.contract_classes())), indent="")
    if g.options:
        lines += _wrap(_("Options (defaults): {options}.").format(
            options=", ".join(f"{o.name}={_default(o)}" for o in g.options)), indent="")
    return lines


def _print(lines: Iterable[str]) -> None:
    for line in lines:
        click.echo(visible(line))  # a plug-in's rule text cannot reach the terminal raw


def _print_rules(rules: Sequence[Rule], game: str | None) -> None:
    shown_common = False
    for i, rule in enumerate(rules):
        if rule.game == COMMON and game not in (None, COMMON) and not shown_common:
            shown_common = True
            click.echo("")
            click.echo(_("Common ground, for every game:"))
        if i:
            click.echo("")
        _print(render_rule(rule, game))


def _listing() -> list[str]:
    lines = [_("The rule book, by game and topic:"),
             _("  herzla rules GAME          every rule of a game, the common ground at the end"),
             _("  herzla rules GAME TOPIC    the rules about a topic: a contract id, a word, an"),
             _("                             option name or a rule id (--json: as JSON)"),
             _("  herzla rules RULE-ID       one rule, by the id explanations cite"),
             "", _("Games:")]
    for g in known_games():
        _title, about = game_about(g)
        lines += _wrap(f"{g:<12} {about}", indent=" " * 15, first="  ")
    lines += ["", _("Topics:")]
    for g in known_games():
        words = topics_of(g) if current() == DEFAULT else words_of(g)
        lines += _wrap(f"{g}: {', '.join(words)}", indent="      ", first="  ")
    return lines


def _unknown_word(word: str) -> str:
    """No game, rule or topic answers to ``word`` (a lone argument)."""
    want = word.strip().lower()
    pool = [*known_games(), *illegal_rules(), *{t for g in known_games() for t in topics_of(g)}]
    hint = did_you_mean(want, pool)
    return _("no game, rule or topic named {word} ({hint}games: {games}; 'herzla rules' lists "
             "the topics)").format(word=quote(word), hint=hint, games=", ".join(known_games()))


def _suggest_game(game: str) -> str:
    known = known_games()
    hint = did_you_mean(game, known)
    return _("unknown game {game} ({hint}known: {known})").format(
        game=quote(game), hint=hint, known=", ".join(known))


def _dump(obj: object) -> None:
    click.echo(visible(json.dumps(obj, indent=1, ensure_ascii=False)))


@click.command("rules", help=N_("""The rule text, with its source and the option that changes it.

    \b
    herzla rules                  the games and the topics the rule book knows
    herzla rules GAME             every rule of a game (herzla, herzla-kids, herzeln,
                                  herzerln, common), the common ground at the end
    herzla rules GAME TOPIC       the rules about a topic: a contract id (domino, beddl),
                                  a word (stock, lead, corner) or an option name
    herzla rules TOPIC            the rules about a topic in every game
    herzla rules RULE-ID          one rule by its id, as explanations cite it
                                  (herzla/stock-payout)
    """))
@click.argument("game", required=False, shell_complete=complete_rule)
@click.argument("topic", required=False, shell_complete=complete_topic)
@click.option("--json", "as_json", is_flag=True, help=N_("Print the entries as JSON."))
def rules_command(game: str | None, topic: str | None, as_json: bool) -> None:
    if game is None:
        if as_json:
            _dump({"game": None, "topic": None,
                   "games": [game_json(g) for g in known_games()],
                   "topics": {g: topics_of(g) for g in known_games()},
                   "entries": [rule_json(r) for r in entries()]})
        else:
            _print(_listing())
        return
    name = game.strip().lower()
    rules: list[Rule]
    if topic is None and name in {r.id for r in IRREGULARITIES}:
        # an irregularity: its rule, then each game's page on it
        rules = [get_rule(name)]
        for g in known_games():
            with contextlib.suppress(UnknownTopic):
                rules.append(get_rule(f"{g}/{name}"))
        if as_json:
            _dump({"game": None, "topic": name, "entries": [rule_json(r) for r in rules]})
        else:
            _print_rules(rules, None)
        return
    if topic is None and ("/" in name or name in illegal_rules()):
        try:
            rules = [get_rule(name)]
        except UnknownTopic as exc:
            fail(str(exc))
        if "/" not in name:  # an illegal-play rule: its entry, then the rules it rests on
            rules += [get_rule(e) for e in illegal_rules()[name].entries]
            if as_json:
                _dump({"game": None, "topic": name, "entries": [rule_json(r) for r in rules]})
            else:
                _print_rules(rules, None)
            return
        if as_json:
            _dump({"game": rules[0].game, "topic": name, "entries": [rule_json(rules[0])]})
        else:
            _print(render_rule(rules[0]))
        return
    if name not in known_games():
        if topic is not None:
            fail(_suggest_game(game))
        rules = []
        for g in known_games():
            with contextlib.suppress(UnknownTopic):
                rules += [r for r in find(g, name) if r not in rules]
        if not rules:
            fail(_unknown_word(game))
        if as_json:
            _dump({"game": None, "topic": game, "entries": [rule_json(r) for r in rules]})
        else:
            click.echo(_("The rules about {topic} in every game:").format(topic=quote(game)))
            for rule in rules:
                click.echo("")
                _print(render_rule(rule))
        return
    if topic is None:
        rules = entries(name)
    else:
        try:
            rules = find(name, topic)
        except UnknownTopic as exc:
            fail(str(exc))
    if as_json:
        out = {"game": name, "topic": topic, **({} if topic else {"about": game_json(name)}),
               "entries": [rule_json(r) for r in rules]}
        _dump(out)
        return
    if topic is None:
        _print(_game_header(name))
    else:
        n = len(rules)
        title = game_about(name)[0]
        click.echo(visible(ngettext("{title} (game {game}): {n} rule about {topic}",
                                    "{title} (game {game}): {n} rules about {topic}", n).format(
            title=title, game=name, n=n, topic=quote(topic))))
    click.echo("")
    _print_rules(rules, name)


