"""The actions of the OpenSpiel games: a card, a card laid at the lower end, a pass, an
announcement; and the sizes of a game's action and chance spaces."""

from __future__ import annotations

from herzla.kinds.codec import MoveCodec
from herzla.openspiel.engine import announcements, card_slots, has_bidding, has_passes
from herzla.quote import quote

#: a card (its index, ``herzla.cards``) played, or laid at the upper end or the only end it fits
CARD_ACTIONS = 36
#: ``LOWER + index``: in the domino, a card that fits both ends laid at the lower end ("D7-")
LOWER = 36
#: a pass in a layout deal, or in the bidding; ``PASS + k`` announces the ``k``-th contract of
#: the game's bidding (``Game.bidding``; Herzla: 1 Beddl, 2 Mord)
PASS = 72

#: the moves as actions: the codec the environments use too (:mod:`herzla.kinds.codec`), on every
#: card's index
CODEC = MoveCodec({i: i for i in range(CARD_ACTIONS)}, LOWER, PASS)


def bid_actions(game: str) -> dict[int, str]:
    """The actions of the bidding and the words they say: pass, then each contract announced."""
    return {PASS + k: word for k, word in enumerate(announcements(game))}


def num_actions(game: str) -> int:
    """The distinct actions of a herzla game, from its declarations: the cards of its packs; with
    layout deals, the lower-end cards and a pass; with bidding, a pass and each announcement."""
    if has_bidding(game):
        return PASS + len(announcements(game))
    if has_passes(game):
        return PASS + 1
    return card_slots(game)


def chance_outcomes(game: str) -> int:
    """The most chance outcomes of a herzla game: the cards of its packs, by index."""
    return card_slots(game)


def announcement_action(game: str, word: str) -> int:
    """The action that says ``word`` (``pass`` or a contract the game's bidding announces);
    ValueError if the game has no bidding or no such announcement."""
    if not has_bidding(game):
        raise ValueError(f"{game} has no bidding: {quote(word)} is not an announcement")
    for action, said in bid_actions(game).items():
        if said == word:
            return action
    raise ValueError(f"{quote(word)} is not an announcement of {game}")
