"""A hint and the computer's levels as a person at the table hears them: the level of play
named for a player ("club player"), never a policy's name; the reason for the advised move as
a player would say it out loud; the numbers the computer weighed only behind "why?" (the
page's folded part).  The policies' own reasons (:attr:`herzla.players.policy.Hint.reason`)
are said in the second person, as each policy declares them (its ``SAID``); a reason with
numbers in it (the expert's counts of likely deals) goes behind "why?" as it is."""

from __future__ import annotations

from collections.abc import Mapping

from herzla.analysis.expert import HOW as EXPERT_HOW
from herzla.analysis.expert import SAID as EXPERT_SAID
from herzla.analysis.pimc import HOW as PIMC_HOW
from herzla.analysis.pimc import SAID as PIMC_SAID
from herzla.players.heuristic import SAID as HEURISTIC_SAID
from herzla.players.heuristic import WHY
from herzla.players.policy import PolicyError
from herzla.web.speech import N_, _, pgettext

__all__ = ["bid_word", "level_name", "said_reason"]

#: the levels of play (:attr:`herzla.players.policy.Policy.level`) as the pages name them
LEVELS: Mapping[str, str] = {"beginner": N_("a beginner"), "club player": N_("a club player"),
                             "strong": N_("a strong player"), "expert": N_("an expert")}

#: each policy's reasons (the English of :attr:`herzla.players.policy.Hint.reason`) -> the same
#: reason as a player says it, as the policies declare both (``WHY``/``HOW`` and ``SAID``)
_SAID: dict[str, str] = {}
for _reasons, _said in ((WHY, HEURISTIC_SAID), (EXPERT_HOW, EXPERT_SAID), (PIMC_HOW, PIMC_SAID)):
    _SAID.update({_reasons[k]: v for k, v in _said.items() if k in _reasons})


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
        return _(EXPERT_SAID["best"])
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
