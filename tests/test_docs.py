"""The documentation's examples run: README and docs/*.md are doctested."""

from __future__ import annotations

import doctest
import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(p for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")] if p.exists() and ">>> " in p.read_text())
#: Pages whose examples need an extra: page -> (extra, the modules it installs).  Without it the page is skipped
#: with the reason; under CI, which installs every extra, it fails instead.
NEEDS = {"rl.md": ("pettingzoo", ("pettingzoo", "gymnasium")), "rl_openspiel.md": ("openspiel", ("pyspiel",))}


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_markdown_examples_run(path: Path) -> None:
    extra, modules = NEEDS.get(path.name, ("", ()))
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        reason = f"{path.name} needs the '{extra}' extra: pip install -e '.[{extra}]' ({missing[0]} is missing)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    result = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert result.failed == 0, f"{result.failed} example(s) failed in {path.name}"
    assert result.attempted > 0
