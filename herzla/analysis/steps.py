"""``herzla.analysis.steps``: a hand's plays (or a line of best play) as steps a player can read:
who played each card, which trick it belongs to and who won the trick; in the layout deals every
lay and every pass, the passes a record leaves out written in.

>>> import json
>>> from herzla.records import read_record
>>> rec = read_record(json.load(open("docs/examples/herzla-two-void.json")))
>>> first = record_steps(rec)[:4]
>>> [(s.seat, s.play) for s in first], first[-1].trick, first[-1].winner
([(0, 'C7'), (1, 'CA'), (2, 'C8'), (3, 'C9')], 1, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from herzla.hand import PASS, Hand, as_move
from herzla.i18n import _
from herzla.records import Play, Record

__all__ = ["Step", "line_steps", "parse_play", "record_steps", "walk"]


@attrs.frozen(slots=True)
class Step:
    """One play of a hand.

    ``index``: its place among the hand's plays from the first one, every pass counted (in the
    trick deals, and in layout records that write every pass, the index into ``plays``).
    ``play``: as :func:`herzla.solve` names plays: a card code, a lay with its end mark only where
    the card fits both ends of its row, or ``"pass"``.  ``trick``: the trick (from 1) the card
    is played to, ``winner``: the seat that won it, on the card that completes it (trick deals;
    None in the layout deals).  ``out``: the seat laid its last card (layout deals).
    ``written``: False for a pass the record left out.
    """

    index: int
    seat: int
    play: str
    trick: int | None = None
    winner: int | None = None
    out: bool = False
    written: bool = True


def parse_play(text: str) -> Play:
    """A play as :func:`herzla.solve` writes it in ``line`` (``"C7"``, ``"H9+"``, ``"pass"``)."""
    return as_move(text)


def walk(state: Hand, plays: Sequence[Play], first: int = 0
         ) -> tuple[list[Step], list[Play]]:
    """Play ``plays`` (legal: :func:`herzla.records.replay` checks them) on ``state`` and say
    what each was; the steps and the plays with every pass written, numbered from ``first``."""
    steps: list[Step] = []
    done: list[Play] = []
    for play in plays:
        card = play.card
        if card is not None:
            # a seat that cannot lay and does not hold the card passed (records may leave it out)
            for _ in range(state.players):
                if (state.over or state.hands[state.turn] >> card.index & 1
                        or not state.must_pass):
                    break
                steps.append(Step(first + len(steps), state.turn, "pass", written=False))
                done.append(PASS)
                state._play(PASS)
        seat = state.turn
        # the steps of a trick deal name their trick and, on its last card, the trick's winner
        place = state.trick_place
        won = state._play(play)
        text = str(state.moves[-1])
        if place is not None:
            steps.append(Step(first + len(steps), seat, text, place[0],
                              won.winner if won is not None else None))
        else:
            steps.append(Step(first + len(steps), seat, text,
                              out=card is not None and not state.hands[seat]))
        done.append(play)
    return steps, done


def record_steps(record: Record) -> list[Step]:
    """The record's plays, as steps (the record's plays must be legal)."""
    return walk(record.start(), record.plays)[0]


def line_steps(record: Record, line: Sequence[str]) -> list[Step]:
    """A line of plays from the position the record reaches (as :func:`herzla.solve` gives it
    in ``line``), as steps numbered on from the record's plays."""
    return _record_and_line(record, line)[1]


def _record_and_line(record: Record, line: Sequence[str]) -> tuple[list[Step], list[Step]]:
    """The record's plays and then ``line``, as steps (one replay of the record for both)."""
    state = record.start()
    before, _ = walk(state, record.plays)
    return before, walk(state, [parse_play(p) for p in line], len(before))[0]


def line_text(rec: Record, line: Iterable[str]) -> list[str]:
    """A line of best play from the position ``rec`` reaches, as a player reads it: trick by
    trick with the seat of each card and the trick's winner (layout deals: every lay and pass
    by seat, a row of moves per round)."""
    played, steps = _record_and_line(rec, list(line))
    if not steps:
        return []
    if steps[0].trick is None:
        return layout_rounds(steps)
    before = [s for s in played if s.trick == steps[0].trick]
    out: list[str] = []
    for trick in sorted({s.trick for s in steps if s.trick is not None}):
        cards = [s for s in steps if s.trick == trick]
        text = ", ".join(_seat_play(s) for s in cards)
        head = _("trick {k}").format(k=trick)
        if trick == steps[0].trick and before:
            head += _(" ({plays} played)").format(plays=", ".join(_seat_play(s) for s in before))
        if cards[-1].winner is not None:
            text += _("; seat {seat} wins").format(seat=cards[-1].winner)
        out.append(f"{head}: {text}")
    return out


def _seat_play(step: Step) -> str:
    """``seat 2 HA``."""
    return _("seat {seat} {play}").format(seat=step.seat, play=step.play)


def layout_rounds(steps: list[Step]) -> list[str]:
    """Layout moves by seat, a line per round (a seat that laid its last card is out)."""
    rounds: list[list[str]] = []
    last = None
    for s in steps:
        if last is None or s.seat <= last:
            rounds.append([])
        rounds[-1].append(_seat_play(s) + (_(" (out)") if s.out else ""))
        last = s.seat
    return [", ".join(r) for r in rounds]
