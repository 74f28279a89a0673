"""The decorator that compiles the kernel: numba's ``njit``, or (without numba) one that leaves
the functions Python: the modules then only import, the compiled path being off."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["njit"]

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:  # one signature for mypy, with numba installed or not
    def njit(**_options: Any) -> Callable[[F], F]: ...
else:
    try:
        from numba import njit
    except ImportError:  # pragma: no cover - without the fast extra the module only imports
        def njit(**_options):
            """No numba: the functions stay Python (never called: the compiled path is off)."""
            return lambda f: f
