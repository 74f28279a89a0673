"""What a new user tripped on (issue 14): each case fails without its fix."""

from __future__ import annotations

import pydoc

import herzla


# -- the package namespace --------------------------------------------------------------------
def test_dir_lists_the_lazy_names() -> None:
    names = dir(herzla)
    for name in ("simulate", "solve", "advise", "SimResult", "SolveResult", "AdviceResult"):
        assert name in names
    assert "Any" not in names and "TYPE_CHECKING" not in names
    assert not hasattr(herzla, "Any") and not hasattr(herzla, "TYPE_CHECKING")


def test_help_shows_the_lazy_functions() -> None:
    text = pydoc.render_doc(herzla, renderer=pydoc.plaintext)
    for name in ("simulate", "solve", "advise"):
        assert f"{name}(" in text
