"""What an output format declares (:class:`OutputFormat`), and the subjects of the commands
that draw (:data:`RECORDS`, :data:`REPLAY`, :data:`EVENING`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from herzla.draw.course import Course
    from herzla.evening import Evening
    from herzla.sheets import ScoreSheet

__all__ = ["EVENING", "RECORDS", "REPLAY", "OutputFormat", "Review"]

#: a review's answer (``review(record).to_dict()``), drawn beside a hand
Review = Mapping[str, Any]

#: what a command draws: a hand record or a list of them (show), the same beside the answer
#: (replay), an evening (pad show)
RECORDS, REPLAY, EVENING = "records", "replay", "evening"


@attrs.frozen(slots=True)
class OutputFormat:
    """One output format: its option ``--NAME``, what it writes (``noun``: "the picture",
    named in ``Wrote the picture to FILE.``), each command's help for it, and its drawings of a
    hand, a score sheet and an evening (each the whole file's text)."""

    name: str
    noun: str
    records_help: str
    #: replay's help: ``Also write ..., as 'herzla show --NAME' draws it (...)``
    replay_help: str
    evening_metavar: str
    evening_help: str
    hand: Callable[[Course, str, Review | None], str]
    sheet: Callable[[ScoreSheet, str, Sequence[Review | None]], str]
    evening: Callable[[Evening], str]

    @property
    def flag(self) -> str:
        return f"--{self.name}"

    @property
    def dest(self) -> str:
        """The command function's parameter that receives the option."""
        return f"format_{self.name.replace('-', '_')}"

    def help(self, subject: str) -> str:
        if subject == EVENING:
            return self.evening_help
        if subject == REPLAY:
            return self.replay_help
        return self.records_help
