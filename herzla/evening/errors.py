"""The one error of the evening: :class:`EveningError`."""

from __future__ import annotations

from herzla.records import RecordError

__all__ = ["EveningError"]


class EveningError(RecordError):
    """An evening, an entry or a list of hand records that does not fit, with the problem named
    in one line.

    It is a :class:`~herzla.records.RecordError` (so a ValueError), so every reader that refuses
    a bad hand record refuses a bad list or evening the same way.  ``needs`` names the tallies
    any one of which a deal lacks (as :class:`~herzla.contracts.MissingTally` does, in the
    entry's words: ``hearts``, ``captured``, ``tricks``, ``made``, ``last_trick``, ``order``).
    """

    def __init__(self, message: str, needs: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.needs = needs
