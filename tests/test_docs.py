"""The documentation's examples run: README and docs/*.md are doctested."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted(p for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")] if p.exists() and ">>> " in p.read_text())


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_markdown_examples_run(path: Path) -> None:
    result = doctest.testfile(
        str(path), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert result.failed == 0, f"{result.failed} example(s) failed in {path.name}"
    assert result.attempted > 0
