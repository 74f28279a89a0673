"""The language of the current context: a context variable, so that a thread, an asyncio task
or one request of the table app each has its own (English until chosen)."""

from __future__ import annotations

import contextvars

__all__ = ["DEFAULT", "LANGUAGES", "current", "current_language"]

#: the languages herzla speaks, the first the default
LANGUAGES: tuple[str, ...] = ("en", "de")
DEFAULT = "en"

current_language: contextvars.ContextVar[str] = contextvars.ContextVar("herzla_language",
                                                                       default=DEFAULT)


def current() -> str:
    """The language of the current context (``en`` unless chosen)."""
    return current_language.get()
