"""The game model: a :class:`Game` per game (its contracts, partie, score sheet, bidding) and the
rule-book entries (:class:`Rule`) each game module writes next to its contracts.

A game module (``herzla.contracts.herzeln``) defines its contract classes and one ``GAME``, a
:class:`Game` subclass instance; the ``herzla.contracts`` entry points find both.  A plug-in that
only adds contract classes gets a plain :class:`Game` made from them.

Metadata of a game (class attributes):

``id``, ``title``, ``about``, ``brief``
    The game id, a display title, one sentence on what it is and a few words for a list of
    games (``herzla --help``).  Like the text of the game's ``rules``, they may name what the
    declarations say as ``{fact}`` (:meth:`Game.facts`: ``{partie}``, ``{partie_order}``,
    ``{last}``, ``{players}``, ``{cards}``, ``{bidding}``, ``{totals}``), so that no number a
    declaration knows is written twice; :meth:`Game.fill` writes them in.
``contracts``
    Its contract classes, in partie order.
``partie``
    How many of the first contracts form a partie (0: the game has none).
``sheet``
    What a list of records forms: ``"partie"``, ``"session"`` (the stock carried along) or
    ``"match"``.
``lowest_wins``
    Whether the lowest total wins (penalty points), else the highest.
``bidding``
    The contract ids the bidding chooses between, in their code order, the first being the one
    played when nobody announces; empty when the game has no bidding.
``rules``
    The game's own rule-book entries, beside the entries its contracts make of themselves.
``hand_name``
    What the game calls one hand of a partie: ``deal`` (Herzeln) or ``round`` (Herzerln).

Hooks: ``dealer(first, index, players, opts)`` (who deals the ``index``-th hand of a partie or
session), ``resolve_bids(...)`` (the bidding, for many hands at once), ``match_over(...)`` (when a
match ends) and ``check_options(opts)``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from herzla.contracts.words import and_list, tr
from herzla.i18n import DEFAULT, _, current, ngettext, npgettext
from herzla.options import Option

if TYPE_CHECKING:  # numpy: for the type checker only, `import herzla` goes without it
    import numpy as np
    import numpy.typing as npt

    from herzla.contracts.base import Contract

__all__ = ["Game", "Rule", "Sheet", "rule"]


@attrs.frozen(slots=True)
class Rule:
    """One entry of the rule book.

    ``id`` is ``game/name`` (``herzla/stock-payout``); ``topics`` the words it answers to;
    ``sources`` its source tags (``Herzla``, ``Herzeln``, ``Herzerln``: the game's founding text;
    ``family``: a convention of the related games; ``ruling``: a decision of this project;
    ``plug-in``); ``options`` names the options that change it (``name`` for an option of its own
    game, ``game:name`` for another game's); ``example`` gives worked numbers, or is empty.
    """

    id: str
    title: str
    topics: tuple[str, ...]
    text: str
    sources: tuple[str, ...]
    options: tuple[str, ...] = ()
    example: str = ""
    origin: str = "herzla"
    #: words in German it answers to as well (``Vorhand``, ``Geber``), for ``herzla rules``
    words: tuple[str, ...] = ()

    @property
    def game(self) -> str:
        """The game of the rule; ``common`` for an illegal-play rule (an id without a game)."""
        game, sep, _ = self.id.partition("/")
        return game if sep else "common"

    def option_refs(self) -> list[tuple[str, str]]:
        """(game, option name) for each option named."""
        out = []
        for ref in self.options:
            game, sep, name = ref.partition(":")
            out.append((game, name) if sep else (self.game, ref))
        return out


def rule(id: str, title: str, topics: str, sources: str, text: str, options: str = "",
         example: str = "", words: str = "") -> Rule:
    """A rule from words: topics, sources, options and German search words (``words``)
    separated by spaces; text and example wrapped freely (runs of white space become one
    space)."""
    return Rule(id, title, tuple(topics.split()), " ".join(text.split()),
                tuple(sources.split()), tuple(options.split()), " ".join(example.split()),
                words=tuple(words.split()))


def signed(n: int) -> str:
    """A total as the rule book writes it: ``+80``, ``−33`` (a minus sign), ``0``."""
    return f"+{n}" if n > 0 else f"\u2212{-n}" if n < 0 else "0"


def _table_sizes(classes: Sequence[type[Contract]]) -> list[int]:
    """The numbers of players every one of ``classes`` is played by, the usual one first."""
    if not classes:
        return []
    return [n for n in classes[0].player_counts if all(n in c.player_counts for c in classes)]


class Sheet(enum.StrEnum):
    """What a list of a game's hand records forms (:func:`herzla.sheets.score_sheet`): a
    ``partie`` of the game's deals in their fixed order, a ``session`` carrying the stock from
    hand to hand, or a ``match`` of hands until the game's match end.  A game may name one by its
    text (``sheet = "partie"``); any other word is an error where the sheet is written."""

    PARTIE = "partie"
    SESSION = "session"
    MATCH = "match"


class Game:
    """A game of the family: its contracts and how its hands add up (see the module notes)."""

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    about: ClassVar[str] = ""
    brief: ClassVar[str] = ""
    contracts: ClassVar[tuple[type[Contract], ...]] = ()
    partie: ClassVar[int] = 0
    sheet: ClassVar[Sheet | str] = Sheet.SESSION
    lowest_wins: ClassVar[bool] = False
    bidding: ClassVar[tuple[str, ...]] = ()
    rules: ClassVar[tuple[Rule, ...]] = ()
    hand_name: ClassVar[str] = "deal"
    #: the German pack's suits (C S H D) as the game's players name them in German: the
    #: Bavarian Gras and Schelln; the Austrian games say Laub
    german_suits: ClassVar[tuple[str, str, str, str]] = ("Eichel", "Gras", "Herz", "Schelln")

    def __init__(self, contracts: Sequence[type[Contract]] = ()) -> None:
        self._contracts: tuple[type[Contract], ...] = tuple(contracts) or self.contracts

    def __repr__(self) -> str:
        return f"<game {self.id}>"

    @classmethod
    def of(cls, game_id: str, contracts: Sequence[type[Contract]]) -> Game:
        """The plain game of a plug-in that declares contract classes only."""
        sub: type[Game] = type(f"Game[{game_id}]", (cls,), {
            "id": game_id, "title": game_id, "about": "a game added by a plug-in"})
        return sub(contracts)

    # -- what it is made of ---------------------------------------------------------------
    def contract_classes(self) -> tuple[type[Contract], ...]:
        """Its contract classes: its own in partie order, then any that plug-ins add."""
        return self._contracts

    def with_contracts(self, extra: Sequence[type[Contract]]) -> Game:
        """This game with plug-in contract classes added after its own."""
        ids = {c.id for c in self._contracts}
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._contracts = self._contracts + tuple(c for c in extra if c.id not in ids)
        return new

    @property
    def has_stock(self) -> bool:
        return any(c.has_stock for c in self._contracts)

    @property
    def options(self) -> tuple[Option, ...]:
        """The options of its contracts, each once."""
        seen: dict[str, Option] = {}
        for cls in self._contracts:
            for o in cls.options:
                seen.setdefault(o.name, o)
        return tuple(seen.values())

    def player_counts(self) -> list[int]:
        return sorted({n for c in self._contracts for n in c.player_counts})

    def partie_ids(self) -> list[str]:
        """The contract ids of a partie, in order (empty: no partie)."""
        return [c.id for c in self._contracts[: self.partie]]

    def hand_word(self, n: int = 1) -> str:
        """What the game calls ``n`` hands of a partie, in the current language (``deal``,
        ``deals``; Herzeln's Tour, Touren)."""
        return npgettext("hand of a partie", "deal", "deals", n)

    # -- what the declarations say, in words -------------------------------------------------
    def facts(self) -> dict[str, str]:
        """What the game's declarations say, by name, for its texts (see the module notes).

        ``partie``: ``8 deals``; ``partie_order``: the contract ids of a partie; ``last``: the
        title of its last hand (without a parenthesis); ``players``: ``4``, ``3 or 4``, ``3 to
        8``; ``cards``: the pack of the usual table; ``bidding``: the titles of the contracts the
        bidding chooses between; ``totals``: what each hand of a partie adds up to over the
        seats, per number of players, and the partie's total; ``hand_sizes``: the cards each
        seat is dealt, per number of players (``12 each with 3 players, 9 with 4``);
        ``leftovers``: the cards left aside, where some are (``with 5 and 8 players: 1 and 4
        cards``); ``ban_RULE`` (the rule id of a lead ban, ``-`` written ``_``): the hands of a
        partie that declare it (``rounds 2 and 5 (hearts, king-of-hearts)``).
        """
        classes = self._contracts
        counts = self.player_counts()
        if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
            players = _("{low} to {high}").format(low=counts[0], high=counts[-1])
        else:
            players = _(" or ").join(map(str, counts))
        partie = classes[: self.partie]
        last = re.sub(r"\s*\(.*\)", "", partie[-1].title) if partie else ""
        by_id = {c.id: c for c in classes}
        return {
            "partie": f"{len(partie)} {self.hand_word(len(partie))}",
            "partie_order": ", ".join(self._named(c.id) for c in partie),
            "last": last,
            "players": players,
            "cards": str(len(classes[0].default().pack().cards)) if classes else "",
            "bidding": ", ".join(by_id[b].title for b in self.bidding if b in by_id),
            "totals": "; ".join(self._totals(n) for n in _table_sizes(partie)),
            **self._deal_facts(classes[0] if classes else None),
            **self._ban_facts(),
        }

    @staticmethod
    def _deal_facts(first: type[Contract] | None) -> dict[str, str]:
        if first is None:
            return {"hand_sizes": "", "leftovers": ""}
        sizes = []
        aside = []
        for i, n in enumerate(sorted(first.player_counts)):
            contract = first.default(n)
            sizes.append(_("{cards} each with {n} players") if i == 0
                         else _("{cards} with {n}"))
            sizes[-1] = sizes[-1].format(cards=contract.hand_size, n=n)
            if contract.leftovers:
                aside.append((n, contract.leftovers))
        leftovers = ""
        if aside:
            leftovers = (ngettext("with {players} players: {cards} card",
                                  "with {players} players: {cards} cards",
                                  1 if aside == [(aside[0][0], 1)] else 2).format(
                players=and_list([str(n) for n, _k in aside]),
                cards=and_list([str(k) for _n, k in aside])))
        return {"hand_sizes": and_list(sizes), "leftovers": leftovers}

    def _ban_facts(self) -> dict[str, str]:
        hands: dict[str, list[tuple[int, str]]] = {}
        for i, cls in enumerate(self._contracts[: self.partie], 1):
            for ban in getattr(cls.default().declaration, "lead_bans", ()):  # layout: none
                hands.setdefault(ban.rule, []).append((i, cls.id))
        out = {}
        for rule_id, found in hands.items():
            word = self.hand_word(len(found))
            out["ban_" + rule_id.replace("-", "_")] = (
                f"{word} {and_list([str(i) for i, _ in found])} "
                f"({', '.join(self._named(cid) for _, cid in found)})")
        return out

    def _named(self, contract_id: str) -> str:
        """A contract in a text of the game: its id in English, its title in another language
        (the ids are English words)."""
        if current() == DEFAULT:
            return contract_id
        return next(tr(c.title) for c in self._contracts if c.id == contract_id)

    def _totals(self, players: int) -> str:
        totals = [c.default(players).score_total() for c in self._contracts[: self.partie]]
        each = ", ".join("?" if t is None else signed(t) for t in totals)
        whole = "" if None in totals else _(" (partie {total})").format(
            total=signed(sum(t or 0 for t in totals)))
        return _("{players} players: {each}{whole}").format(players=players, each=each,
                                                             whole=whole)

    def fill(self, text: str) -> str:
        """``text`` with each ``{fact}`` written in (:meth:`facts`); other braces stay."""
        if "{" not in text:
            return text
        facts = self.facts()
        return re.sub(r"\{([a-z_]+)\}", lambda m: facts.get(m.group(1), m.group(0)), text)

    def summary(self) -> str:
        """``about`` with the facts written in."""
        return self.fill(tr(self.about))

    def short(self) -> str:
        """``brief`` (else ``about``) with the facts written in."""
        return self.fill(tr(self.brief or self.about))

    def rule_book(self) -> tuple[Rule, ...]:
        """The game's own rule-book entries, their text and examples with the facts written in."""
        return tuple(attrs.evolve(r, title=tr(r.title), text=self.fill(tr(r.text)),
                                  example=self.fill(tr(r.example))) for r in self.rules)

    # -- hooks ------------------------------------------------------------------------------
    def dealer(self, first: int, index: int, players: int, opts: Mapping[str, Any]) -> int:
        """The dealer of hand ``index`` (from 0) of a partie whose first dealer is ``first``."""
        return first

    def rotation_text(self, opts: Mapping[str, Any]) -> str:
        """How the deal passes in a partie, in words."""
        return "one dealer for the whole partie"

    def match_over(self, totals: Sequence[int], hands: int, opts: Mapping[str, Any]) -> bool:
        """Whether a match (``sheet == "match"``) is over after ``hands`` hands."""
        return False

    def match_text(self, opts: Mapping[str, Any]) -> str:
        return ""

    def resolve_bids(self, wants: Sequence[npt.NDArray[np.int8]], opts: Mapping[str, Any]
                     ) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """The bidding of many hands: ``wants[i]`` holds, per hand, what the ``i``-th seat from
        forehand announces (0: pass, else the code of a contract in ``bidding``).  Returns the
        contract code and the declarer's turn from forehand (-1 when nobody announced)."""
        raise NotImplementedError(f"{self.id} has no bidding")
