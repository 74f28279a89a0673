"""The rule book as data: every rule with its source and the options that change it.

Each game module writes its own entries (``Game.rules``), and every contract makes an entry of
itself from its declaration (:func:`contract_rule`), so the rule text and the engines read the
same rules; the common ground of every game is :data:`COMMON_RULES`.  The options (values,
default, effect) are read from the contract classes.  ``herzla rules`` prints what this module
finds (herzla.cli.rules).

>>> [r.title for r in find("herzeln", "corner")]
['Domino: Aces turn the corner', 'Domino options: suits and wrap']
>>> [r.id for r in find("herzla", "schleichermord")]
['herzla/schleichermord']
>>> find("herzla", "trumps")[0].id
'common/trick-play'
>>> get_rule("herzeln/no-queens").text
'-20 per Queen.'

An illegal play names the short id of an illegal-play rule; it resolves too, to an entry that
names the rules it rests on:

>>> r = get_rule("follow-suit")
>>> r.title, r.text.endswith("It rests on rule common/trick-play.")
('Illegal play: Follow suit', True)
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

import attrs

from herzla.contracts import (
    BUILTIN_MODULES,
    Contract,
    Rule,
    contract_classes,
    game_of,
    games,
    get_game,
    is_builtin,
)
from herzla.contracts.game import rule
from herzla.contracts.renege import renege_text
from herzla.contracts.vocabulary import ILLEGAL_PLAYS, IllegalRule
from herzla.contracts.words import tr
from herzla.i18n import DEFAULT, N_, _, current
from herzla.kinds import kind_of
from herzla.names import close_names, did_you_mean, find_name
from herzla.options import Option
from herzla.quote import quote

__all__ = [
    "COMMON",
    "COMMON_RULES",
    "SOURCES",
    "Rule",
    "UnknownTopic",
    "contract_rule",
    "entries",
    "find",
    "game_about",
    "get_rule",
    "illegal_entry",
    "illegal_rules",
    "known_games",
    "option_json",
    "resolve_option",
    "rule_json",
    "topics_of",
    "words_of",
]

COMMON = "common"

#: the source tags, as printed
SOURCES = {
    "Herzla": "[Herzla]",
    "Herzeln": "[Herzeln]",
    "Herzerln": "[Herzerln]",
    "family": N_("[family]"),
    "ruling": N_("[ruling]"),
    "plug-in": N_("[plug-in]"),
}

#: title and one-line description of the common ground
COMMON_ABOUT = (N_("Common ground"), N_("what every game shares: cards, rank orders, seats, "
                                        "trick play, the lead-ban escape"))


class UnknownTopic(LookupError):
    """No rule of the game answers to the topic."""


# Topic words are what a player might type: contract ids, the rule's own words, and the words of
# its options.
COMMON_RULES = (
    rule("common/suits", N_("Cards: suits and faces"), "cards suits faces german french "
       "acorns leaves bells eichel gras schellen clubs spades diamonds", "family",
       N_("""Suits map between the German and French faces as in Skat: Acorns/Eichel = Clubs/Kreuz
       (C), Leaves/Gras/Grün = Spades/Pik (S), Hearts/Herz (H), Bells/Schellen = Diamonds/Karo
       (D). Ranks: Ace/Sau/Daus (A), King (K), Ober/Queen/Dame (Q), Unter/Jack/Bube (J), Ten (T),
       9, 8, 7, 6."""),
             words="karten farben bilder eichel gras laub grün herz schelln schellen kreuz "
                   "treff pik karo sau ass daus könig ober dame unter bube zehner"),
    rule("common/card-codes", N_("Card codes"), "cards codes spelling input", "ruling",
       N_("""Card codes are suit then rank: HA, CT, SQ, D7. Output always uses the
       canonical upper-case code. Input is case-insensitive, accepts 10 for T, and also full names
       in English or German and the suit symbols, as long as none is ambiguous. A list of cards is
       written with spaces or commas between the cards: "HA HT SK". A name of several words is
       one card: a word that is a card code by itself is one card, any other word is read with
       the next word or two as one name ("Herz Sau, Herz König", "Herz Sau Herz König HT",
       "Ace of Hearts"). Anything else is an error that names the offending text."""),
             words="karten kürzel schreibweise eingabe"),
    rule("common/rank-orders", N_("Rank orders"), "order rank natural ace-ten",
       "Herzla Herzeln Herzerln",
       N_("""Rank orders, high to low, for winning tricks: natural is A K Q J T 9 8 7 (6), used by
       Herzla and Herzerln; ace-ten is A T K Q J 9 8 7, used by Herzeln."""),
       options="herzla:rank_order",
             words="reihenfolge wert natürlich sau-zehner"),
    rule("common/seats", N_("Seats, dealer and forehand"), "seats dealer forehand clockwise deal",
       "Herzla Herzeln Herzerln",
       N_("""Seats are numbered 0 .. n-1 clockwise. The dealer is a seat; forehand is the seat after
       the dealer and plays first. Dealing and play go clockwise. A hand record names the dealer;
       without one, the dealer is the last seat."""),
             words="plätze platz geber vorhand uhrzeigersinn geben"),
    rule("common/trick-play", N_("Trick play"), "tricks play lead follow farbzwang "
       "stichzwang trumps winner", "Herzla Herzeln Herzerln",
       N_("""There are no trumps. The leader may lead any card unless a lead ban applies. The others
       must follow the led suit if they can (Farbzwang); a player who cannot follow may play any
       card. There is no obligation to win the trick (no Stichzwang). The highest card of the led
       suit wins; the winner leads the next trick."""),
             words="stich stiche ausspielen farbe-bekennen bedienen farbzwang stichzwang trumpf"),
    rule("common/escape", N_("Lead bans have an escape"), "escape lead-ban lead hearts discard "
       "only-hearts heart-lead-ban heart-free", "family ruling",
       N_("""Wherever a rule forbids leading (or discarding) hearts and the player holds nothing but
       hearts, the player must play a heart. A ban never leaves a player without a legal
       card."""),
             words="ausweg verbot herz abwerfen"),
    rule("common/options", N_("Rule options"), "options rulings", "ruling",
       N_("""Rulings a table may well play differently have a named option, so it can say so. Option
       names are the ones users type: --option name=value on the command line, "options":
       {"name": value} in a hand record. Where an option lists its values (name=a|b), the first
       is the default. Booleans are JSON true/false (or "true"/"false" on the command line). An
       unknown option name or value is malformed input."""),
             words="optionen festlegungen"),
    rule("common/conservation", N_("Cards are conserved"), "invariants conservation cards "
       "leftovers", "ruling",
       N_("""Cards are conserved: every card of the pack is in exactly one place (a hand, a trick,
       the row, the leftovers)."""),
             words="karten"),
)

#: the irregularities of play, the same in every game (each game's own page says what an
#: established renege costs there, from its contracts: :func:`renege_entry`)
IRREGULARITIES = (
    rule("renege", N_("Renege (revoke)"), "renege revoke reneging revoking nicht-bedient "
       "verworfen irregularity irregularities penalty corrected established redeal",
       "family ruling",
       N_("""A renege (also revoke; German nicht bedient, verworfen) is a play that breaks a rule
       of play the seat could have kept: not following suit when able (follow-suit), a heart led
       or discarded under a ban (heart-lead-ban, heart-free-first-trick), a pass while able to
       lay (must-play-if-able), a layout card that fits nowhere (not-adjacent,
       must-open-with-jack, must-open-with-heart-jack). A card the seat does not hold
       (not-in-hand) or a play after the end (hand-over) is an error of the record, not a
       renege: no ruling. A renege is corrected while play has not gone on past it (in a trick
       deal, while its trick is incomplete; in a layout deal, before the next seat has moved):
       the card goes back, the seat plays a legal card instead, and there is no penalty. Once
       play has gone on past it, it is established, and the table's option renege settles it:
       penalty (the hand ends at the renege and the offender pays for it, as each game's page
       says: herzla rules GAME renege), redeal (the hand does not count: every score is 0, the
       stock stays as it was, the same dealer deals again; in a partie the deal is played again)
       or none (no ruling: the illegal play is named, nothing more). Only the first illegal play
       of a record is ruled on; nothing after it is applied. The revoke stands once its trick is
       turned, as in Whist and Hearts; the offender pays the whole loss of the hand, as Hearts
       with a pool has it; in a declarer's contract the offender's side loses, as in
       Schafkopf."""),
             words="verleugnen verleugnet renonce nicht-bedient verworfen strafe neu-geben"),
    rule("misdeal", N_("Misdeal"), "misdeal vergeben deal wrong-number irregularity", "family",
       N_("""A deal with a wrong number of cards is dealt again by the same dealer; nothing is
       scored. A hand record with a wrong number of cards is malformed input."""),
             words="vergeben falsch-gegeben geben"),
    rule("out-of-turn", N_("Lead or play out of turn"), "out-of-turn lead play turn irregularity",
       "family",
       N_("""While not everyone has played to a false lead, the cards are taken back without
       penalty; once all have played to it, the trick stands and play goes on from its winner.
       A hand record cannot hold a play out of turn (whose turn it is follows from the rules),
       so this is a rule for the table only."""),
             words="außer-der-reihe ausspielen"),
    rule("exposed-card", N_("Exposed card"), "exposed-card exposed shown card irregularity",
       "ruling", N_("""A card shown by accident carries no penalty."""),
             words="aufgedeckt gezeigt karte"),
)



def localized(r: Rule) -> Rule:
    """A rule with its title, text and example in the current language."""
    return attrs.evolve(r, title=tr(r.title), text=tr(r.text), example=tr(r.example))


def common_rules() -> list[Rule]:
    """The common ground and the irregularities, in the current language."""
    return [localized(r) for r in (*COMMON_RULES, *IRREGULARITIES)]


def contract_rule(cls: type[Contract]) -> Rule:
    """The rule-book entry a contract class makes of itself: its statement from its
    declaration (for the usual number of players and the default options)."""
    contract = cls.default()
    game = game_of(cls)
    ids = [c.id for c in game.contract_classes()]
    words = [cls.id, *cls.topics.split(),
             *(w for w in re.findall(r"[a-z0-9-]+", cls.title.lower())
               if len(w) > 2 and w not in games())]
    number = ""
    if cls.id in game.partie_ids():
        number = f"{ids.index(cls.id) + 1}"
        words.append(number)
    text = contract.describe()
    text = text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
    if not is_builtin(cls):
        counts = ", ".join(map(str, cls.player_counts))
        text += " " + _("A {kind} for {counts} players.").format(kind=kind_of(cls).words,
                                                                  counts=counts)
        if cls.source:
            text += " " + _("Its rules: {source}.").format(source=cls.source)
    title = tr(cls.title)
    if number:
        title = _("{hand} {number}: {title}").format(hand=game.hand_word().capitalize(),
                                                     number=number, title=title)
    return Rule(cls.key(), title, tuple(dict.fromkeys(words)), text, cls.source_tags(),
                tuple(o.name for o in cls.options) if not is_builtin(cls) else (),
                " ".join(tr(cls.example).split()),
                "herzla" if is_builtin(cls) else f"plug-in {cls.__module__}",
                words=tuple(n.lower() for n in cls.names))


def known_games() -> list[str]:
    """Every game the registry knows, and ``common``."""
    return [*games(), COMMON]


def entries(game: str | None = None, common: bool = True) -> list[Rule]:
    """The rules of ``game`` (its own first, then the common ground), or of every game."""
    if game is None:
        out: list[Rule] = common_rules()
        for game_id in games():
            out += entries(game_id, common=False)
        return out
    if game == COMMON:
        return common_rules()
    g = get_game(game)
    module = type(g).__module__
    out = [r if module in BUILTIN_MODULES else attrs.evolve(r, origin=f"plug-in {module}")
           for r in g.rule_book()]
    out += [contract_rule(c) for c in g.contract_classes()]
    out.append(renege_entry(game))
    if common:
        out += common_rules()
    return out


def renege_entry(game: str) -> Rule:
    """A game's page on reneges: what an established renege costs in each of its contracts,
    written from their declarations, and the option that changes it."""
    g = get_game(game)
    texts = []
    for cls in g.contract_classes():
        try:
            texts.append(renege_text(cls.default(), g.lowest_wins))
        except ValueError:  # a contract whose default options cannot be played
            continue
    title = g.title or game
    option = "renege" if any(o.name == "renege" for o in g.options) else ""
    return Rule(f"{game}/renege", _("{game}: what a renege costs").format(game=title),
                ("renege", "revoke", "reneging", "penalty", "irregularity"),
                _("An established renege, with renege=penalty (rule renege): {costs}").format(
                    costs=" ".join(texts)),
                ("ruling",), (option,) if option else (),
                words=("renonce", "verleugnet", "strafe"))


def illegal_rules() -> dict[str, IllegalRule]:
    """Every illegal-play rule herzla can name, by id: the engines' own
    (:data:`~herzla.contracts.vocabulary.ILLEGAL_PLAYS`) and any other a contract's lead ban
    declares (an entry made from the contract)."""
    out = dict(ILLEGAL_PLAYS)
    for game in games():
        for cls in contract_classes(game):
            for n in cls.player_counts:
                try:
                    declared = cls.default(n).declaration
                except ValueError:  # a player count the default options do not allow
                    continue
                for ban in declared.lead_bans:  # none in a layout deal
                    if ban.rule not in out:
                        meaning = (_("{game} {contract}: a card it bans from being led or "
                                     "discarded to the first tricks while holding other cards.")
                                   if ban.discards else
                                   _("{game} {contract}: a card it bans from being led to the "
                                     "first tricks while holding other cards."))
                        out[ban.rule] = IllegalRule(
                            ban.rule, _("{contract}: banned cards").format(
                                contract=tr(cls.title)),
                            meaning.format(game=cls.game, contract=cls.id),
                            (cls.key(), "common/escape"))
    return out


def illegal_entry(illegal: IllegalRule) -> Rule:
    """The rule-book entry of an illegal-play rule: its id as a refused play names it, what it
    forbids and the entries it rests on."""
    rests = ", ".join(_("rule {id}").format(id=e) for e in illegal.entries)
    sources: list[str] = []
    for e in illegal.entries:
        with contextlib.suppress(UnknownTopic):
            sources += [s for s in get_rule(e).sources if s not in sources]
    return Rule(illegal.id, _("Illegal play: {title}").format(title=tr(illegal.title)),
                (illegal.id, "illegal"),
                _("{meaning} It rests on {rules}.").format(meaning=tr(illegal.meaning),
                                                           rules=rests),
                tuple(sources) or ("ruling",))


def get_rule(rule_id: str) -> Rule:
    """The entry with id ``game/name`` (as explanations cite them), or of an illegal-play rule
    (``follow-suit``, as an illegal play names it), or of an irregularity (``renege``), in any
    case; UnknownTopic if none, naming the ids it may mean."""
    if not isinstance(rule_id, str):
        raise UnknownTopic(_("no rule has the id {id}").format(id=quote(rule_id)))
    if "/" not in rule_id:
        irregular = find_name(rule_id, [r.id for r in IRREGULARITIES])
        if irregular is not None:
            return next(r for r in common_rules() if r.id == irregular)
        illegal = illegal_rules()
        name = find_name(rule_id, illegal)
        if name is not None:
            return illegal_entry(illegal[name])
        raise UnknownTopic(_("no rule has the id {id}").format(id=quote(rule_id))
                           + _hint(did_you_mean(rule_id, illegal)))
    game = find_name(rule_id.partition("/")[0], known_games())
    rules = entries(game) if game is not None else []
    ids = [r.id for r in rules]
    found = find_name(rule_id, ids)
    if found is not None:
        return next(r for r in rules if r.id == found)
    # the names after the game's are compared, or every id where the game is none
    close = ([f"{game}/{n}" for n in close_names(rule_id.partition("/")[2],
                                                 [i.partition("/")[2] for i in ids])]
             if ids else close_names(rule_id, [r.id for r in entries()]))
    hint = _("did you mean {names}? ").format(names=_(" or ").join(close)) if close else ""
    raise UnknownTopic(_("no rule has the id {id}").format(id=quote(rule_id)) + _hint(hint))


def _hint(text: str) -> str:
    return f" ({text.strip()})" if text else ""


def _norm(word: str) -> str:
    return re.sub(r"[\s_]+", "-", word.strip().lower())


def _keys(r: Rule) -> set[str]:
    keys = {_norm(t) for t in r.topics}
    keys |= {_norm(name) for _, name in r.option_refs()}
    keys.add(r.id.partition("/")[2])
    keys |= {_norm(w) for w in r.words}
    return keys


def topics_of(game: str) -> list[str]:
    """The topic words a game's own rules answer to (contract ids first)."""
    rules = entries(game, common=False)
    ids = [c.id for c in contract_classes(game)] if game != COMMON else []
    words = sorted({_norm(t) for r in rules for t in r.topics if not t.isdigit()} - set(ids))
    return [*ids, *words]


def words_of(game: str) -> list[str]:
    """The German words a game's own rules answer to (contract ids first), as
    :func:`topics_of` gives the English."""
    rules = entries(game, common=False)
    ids = [c.id for c in contract_classes(game)] if game != COMMON else []
    return [*ids, *sorted({_norm(w) for r in rules for w in r.words} - set(ids))]


def find(game: str, topic: str) -> list[Rule]:
    """The rules of ``game`` (common ground included) that answer to ``topic``.

    A topic is a contract id, a topic word, an option name or a rule id (an illegal-play id
    too), case-insensitive;
    failing an exact match, a singular or plural form, then a word that starts with it.
    UnknownTopic otherwise.
    """
    pool = entries(game)
    want = _norm(topic)
    if not want:
        raise UnknownTopic(_("an empty topic"))
    exact = [r for r in pool if r.id == want]
    if exact:  # an irregularity's id comes with the game's own page on it first
        page = [r for r in pool if r.id == f"{game}/{want}" and any(i.id == want
                                                                    for i in IRREGULARITIES)]
        return page + exact
    illegal = illegal_rules().get(want)
    if illegal is not None:  # an illegal-play id: its entry and the rules of the game behind it
        return [illegal_entry(illegal), *(r for r in pool if r.id in illegal.entries)]
    tests = (
        lambda k: k == want,
        lambda k: k in (want + "s", want.removesuffix("s"), want + "es", want.removesuffix("es")),
        lambda k: len(want) >= 3 and k.startswith(want),
    )
    for test in tests:
        found = [r for r in pool if any(test(k) for k in _keys(r))]
        if found:
            return found
    listed = topics_of if current() == DEFAULT else words_of
    own = listed(game)
    known = list(dict.fromkeys(own + (listed(COMMON) if game != COMMON else [])))
    hint = did_you_mean(want, [*known, *(topics_of(game) if listed is words_of else [])])
    if game == COMMON:
        message = _("no rule of the common ground is about {topic}; {hint}topics: {topics}")
    else:
        message = _("no rule of {game} is about {topic}; {hint}topics: {topics}; and those of "
                    "'herzla rules common'")
    raise UnknownTopic(message.format(game=game, topic=quote(topic), hint=hint,
                                      topics=", ".join(own)))


# -- options ----------------------------------------------------------------------------------
def resolve_option(game: str, name: str) -> Option | None:
    """The option ``name`` of ``game``, as its contract classes declare it."""
    if game not in games():
        return None
    for opt in get_game(game).options:
        if opt.name == name:
            return opt
    return None


def option_json(game: str, opt: Option) -> dict[str, Any]:
    """An option as JSON: its game, name, type, values, default and effect."""
    kind = "choice" if opt.choices else opt.type.__name__
    values: list[Any] | None = None
    if opt.choices:
        values = list(opt.choices)
    elif isinstance(opt.default, bool):
        values = [True, False]
    return {"game": game, "name": opt.name, "type": kind, "values": values,
            "minimum": opt.minimum, "maximum": opt.maximum, "default": opt.default,
            "doc": tr(opt.doc), "rule": opt.rule}


def options_of(r: Rule) -> list[tuple[str, Option]]:
    """The options a rule names, as (game, option)."""
    out = []
    for game, name in r.option_refs():
        opt = resolve_option(game, name)
        if opt is not None:
            out.append((game, opt))
    return out


def rule_json(r: Rule) -> dict[str, Any]:
    """A rule as JSON, its options spelled out from the contract classes."""
    return {
        "id": r.id,
        "game": r.game,
        "origin": r.origin,
        "title": r.title,
        "topics": list(r.topics),
        "sources": list(r.sources),
        "text": r.text,
        "example": r.example or None,
        "options": [option_json(g, o) for g, o in options_of(r)],
    }


def game_about(game: str) -> tuple[str, str]:
    """A game's title and one-line description."""
    if game == COMMON:
        return tr(COMMON_ABOUT[0]), tr(COMMON_ABOUT[1])
    g = get_game(game)
    return g.title, g.summary()


def game_json(game: str) -> dict[str, Any]:
    """A game as JSON: title, players, contracts and options."""
    title, about = game_about(game)
    if game == COMMON:
        return {"id": game, "title": title, "about": about, "players": None, "contracts": [],
                "options": []}
    g = get_game(game)
    return {
        "id": game, "title": title, "about": about,
        "players": g.player_counts(),
        "contracts": [{"id": c.id, "title": tr(c.title), "summary": c.default().describe(),
                       "rule": c.key(), "kind": str(c.kind), "players": list(c.player_counts),
                       "plugin": not is_builtin(c)}
                      for c in g.contract_classes()],
        "partie": g.partie_ids(), "sheet": g.sheet, "lowest_wins": g.lowest_wins,
        "bidding": list(g.bidding), "stock": g.has_stock,
        "options": [option_json(game, o) for o in g.options],
    }
