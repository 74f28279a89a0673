"""A hint and the computer's levels as a person at the table hears them: the level of play
named for a player ("club player"), never a policy's name; the reason for the advised move as
a player would say it out loud; the numbers the computer weighed only behind "why?" (the
page's folded part).  The policies' own reasons (:attr:`herzla.players.policy.Hint.reason`)
are said here in the second person; a reason with numbers in it (the expert's counts of
likely deals) goes behind "why?" as it is."""

from __future__ import annotations

from collections.abc import Mapping

from herzla.analysis.expert import HOW as EXPERT_HOW
from herzla.analysis.pimc import HOW as PIMC_HOW
from herzla.players.heuristic import WHY
from herzla.players.policy import PolicyError
from herzla.web.speech import N_, _, pgettext

__all__ = ["bid_word", "level_name", "said_reason"]

#: the levels of play (:attr:`herzla.players.policy.Policy.level`) as the pages name them
LEVELS: Mapping[str, str] = {"beginner": N_("a beginner"), "club player": N_("a club player"),
                             "strong": N_("a strong player"), "expert": N_("an expert")}

#: what a player says for each rule of the heuristic's (keyed by its rules' reasons)
_SAID_WHY = {
    "only": N_("It is the only card you may play."),
    "lead-high": N_("Lead your highest card: you want the tricks."),
    "lead-low": N_("Lead your lowest card that cannot hurt you."),
    "lead-low-danger": N_("Every card you hold can hurt you: lead your lowest."),
    "duck": N_("Stay just under the card that is taking the trick."),
    "duck-last": N_("You cannot stay under it and you play last: the trick is yours anyway, "
                    "so get rid of your highest card."),
    "duck-low": N_("You cannot stay under it: play your lowest card."),
    "win-last": N_("You play last: take the trick with the lowest card that does."),
    "win-high": N_("Go for the trick with your highest card."),
    "follow-low": N_("Follow suit with your lowest card."),
    "discard-danger": N_("You cannot follow suit: get rid of your most dangerous card."),
    "discard-high": N_("You cannot follow suit: get rid of your highest card."),
    "discard-low": N_("You cannot follow suit: throw away your lowest card."),
    "lay-far": N_("Lay towards the cards you hold far out in that row."),
    "lay-fits": N_("Lay it where most of your other cards fit afterwards."),
    "pass": N_("None of your cards fits: pass."),
}
#: what a player says for each way the searching players choose
_SAID_HOW = {
    "only": N_("It is your only move."),
    "best": N_("Over the ways the others' cards may lie, it comes out best on average."),
    "heuristic": N_("Several moves come out the same; this is the one a good player prefers."),
    "prior": N_("Over the ways the others' cards may lie it comes out best, with what the "
                "computer learned from many hands."),
    "coalition": N_("Here the others play together against one: against them it comes out "
                    "best."),
    "rollout": N_("Several cards come out the same; played on, this one does best."),
    "first": N_("Several cards come out the same; any of them will do."),
}
_SAID: dict[str, str] = {WHY[k]: v for k, v in _SAID_WHY.items() if k in WHY}
for _how in (EXPERT_HOW, PIMC_HOW):
    _SAID.update({_how[k]: v for k, v in _SAID_HOW.items() if k in _how})


def level_name(policy: str) -> str:
    """The level of play of the policy named ``policy``, as the pages name it ("a club
    player"); "the computer" for a policy without a level."""
    from herzla.players.registry import policy_of

    try:
        level = policy_of(policy).level
    except PolicyError:
        level = None
    return _(LEVELS[level]) if level is not None and level in LEVELS else _("the computer")


def said_reason(reason: str | None, weighed: bool) -> str:
    """The reason for an advised move as a player says it (``weighed``: the computer weighed
    values for each move, which the page shows behind "why?")."""
    if reason in _SAID:
        return _(_SAID[reason])
    if weighed:
        return _(_SAID_HOW["best"])
    return reason or ""


def bid_word(game: str, bid: str) -> str:
    """An announcement of ``game`` in words: "Pass" (German "Weiter"), else the title of the
    contract announced ("Beddl", "Mord")."""
    from herzla.contracts import contract_classes

    if bid == "pass":
        return pgettext("announcement", "Pass")
    for c in contract_classes(game):
        if c.id == bid and c.title:
            return _(c.title)
    return bid
