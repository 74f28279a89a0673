"""docs/hosting.md says what the repository ships: the Caddyfile shown is deploy/Caddyfile
word for word, and the systemd unit starts herzla serve as the page (and tests/test_hosting.py,
which runs it behind Caddy) says."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_caddyfile_shown_is_the_one_shipped() -> None:
    page = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    shown = re.search(r"```caddyfile\n(.*?)```", page, re.S)
    assert shown is not None
    assert shown.group(1) == (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")


def test_the_unit_starts_herzla_as_the_page_says() -> None:
    page = " ".join((ROOT / "docs" / "hosting.md").read_text(encoding="utf-8").split())
    unit = (ROOT / "deploy" / "herzla@.service").read_text(encoding="utf-8")
    start = re.search(r"^ExecStart=/opt/herzla/venv/bin/(herzla serve .*)$", unit, re.M)
    assert start is not None
    assert f"`{start.group(1)}`" in page
    assert "EnvironmentFile=/etc/herzla/herzla.env" in unit and "/etc/herzla/herzla.env" in page
    # the test behind Caddy starts herzla serve with the same options
    test = (ROOT / "tests" / "test_hosting.py").read_text(encoding="utf-8")
    for option in ("--host", "127.0.0.1", "--proxy", "--token"):
        assert f'"{option}"' in test and option in start.group(1)
