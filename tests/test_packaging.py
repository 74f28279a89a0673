"""What herzla ships: the licence in the repository and in the wheel's metadata, and an sdist
that carries everything its own default tests read."""

from __future__ import annotations

import email
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_licence_is_mit_in_the_repository_and_the_project() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    classifiers = set(PROJECT["classifiers"])
    assert "License :: OSI Approved :: MIT License" in classifiers
    assert any(c.startswith("Development Status :: ") for c in classifiers)
    low = PROJECT["requires-python"].removeprefix(">=")
    assert f"Programming Language :: Python :: {low}" in classifiers
    assert PROJECT["keywords"]


def _build(kind: str, out: Path) -> Path:
    """The wheel or the sdist pip builds from the repository (hatchling fetched as usual)."""
    if kind == "wheel":
        cmd = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)]
        subprocess.run(cmd, check=True, capture_output=True, timeout=600)
        return next(out.glob("herzla-*.whl"))
    # the PEP 517 hook, as a build front end calls it
    build = "import sys, hatchling.build as b; print(b.build_sdist(sys.argv[1]))"
    env = out / "env"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(env),
                    "hatchling>=1.27"], check=True, capture_output=True, timeout=600)
    done = subprocess.run([sys.executable, "-c", build, str(out)], check=True, cwd=ROOT,
                          capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(env), "PATH": "/usr/bin:/bin"})
    return out / done.stdout.strip().splitlines()[-1]


@pytest.mark.slow
def test_the_wheel_carries_the_licence(tmp_path: Path) -> None:
    wheel = _build("wheel", tmp_path)
    with zipfile.ZipFile(wheel) as z:
        info = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_bytes(z.read(info))
        licences = [n for n in z.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert licences and z.read(licences[0]).startswith(b"MIT License")
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    classifiers = meta.get_all("Classifier") or []
    assert "License :: OSI Approved :: MIT License" in classifiers
    assert any(c.startswith("Development Status") for c in classifiers)
    assert "herzla" in meta["Keywords"]


@pytest.mark.slow
def test_the_sdist_carries_what_its_tests_read(tmp_path: Path) -> None:
    sdist = _build("sdist", tmp_path)
    with tarfile.open(sdist) as tar:
        names = {n.partition("/")[2] for n in tar.getnames()}
    # the training script the net's tests rerun, the licence, the docs the doc tests run
    for needed in ("tools/train_net.py", "LICENSE", "README.md", "conftest.py",
                   "docs/policies.md", "tests/test_net.py", "pyproject.toml"):
        assert needed in names, needed
    tracked = subprocess.run(["git", "ls-files", "herzla", "tests", "docs", "tools", "benchmarks",
                              "deploy"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode == 0:  # a git checkout: every tracked file of these folders is there
        missing = [p for p in tracked.stdout.split() if p not in names
                   and (ROOT / p).exists()]
        assert not missing, missing[:10]


def test_the_quick_start_installs_into_a_virtual_environment_first() -> None:
    """Debian's Python refuses ``pip install`` outside a virtual environment: the README's
    quick start makes and enters one before its first install."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Quick start")
    begin = text.index("```sh\n", start) + len("```sh\n")
    lines = text[begin:text.index("```", begin)].strip().splitlines()
    assert lines[0] == "python3 -m venv .venv && . .venv/bin/activate"
    assert all("pip install" in line for line in lines[1:])
    assert "virtual environment" in text[start:text.index("```sh", start)]
    ci = ROOT / ".ci" / "run"
    if ci.exists():  # a checkout (the sdist carries no CI): CI runs the README's test command
        assert lines[2] in ci.read_text(encoding="utf-8")
