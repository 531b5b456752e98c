"""run.sh installs what each command needs (issue 24, item 9: "The start command installs what serving needs; the
test command installs everything").

run.sh runs here in a copy of the checkout whose ``.venv`` is a stand-in: its ``python`` writes down the
``pip install`` it was asked for and its ``bummerl`` the command it was started with, so each test sees what
would have been installed without installing anything.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EVERY_EXTRA = "browser dev openspiel pettingzoo postgres ray tournament web"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="run.sh is a bash script")


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    for name in ("run.sh", "pyproject.toml", "setup.py"):
        shutil.copy2(ROOT / name, tmp_path / name)
    (tmp_path / "src" / "bummerl").mkdir(parents=True)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    # `python -m pip install -q -e SPEC` writes SPEC (pip's own upgrade is left out); `bummerl ARGS` writes ARGS.
    (bin_dir / "python").write_text(
        '#!/usr/bin/env bash\n[ "$3" = install ] && [ "$5" = -e ] && echo "${@: -1}" >>"$(dirname "$0")/../pip.log"\n'
        "exit 0\n"
    )
    (bin_dir / "bummerl").write_text('#!/usr/bin/env bash\necho "$*" >>"$(dirname "$0")/../bummerl.log"\n')
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    return tmp_path


def run(checkout: Path, *args: str, **env: str) -> list[str]:
    """Run ``./run.sh ARGS``; the ``pip install`` specs it asked for."""
    log = checkout / ".venv" / "pip.log"
    log.unlink(missing_ok=True)
    subprocess.run(
        ["bash", str(checkout / "run.sh"), *args], check=True, capture_output=True, env={**os.environ, **env}
    )
    return log.read_text().split() if log.exists() else []


def stamp(checkout: Path) -> str:
    return (checkout / ".venv" / ".bummerl-installed").read_text().strip()


def test_start_installs_the_web_extra_and_play_the_engine_alone(checkout: Path) -> None:
    assert run(checkout, "play", "--lang", "en") == ["."]
    assert stamp(checkout) == ""
    assert run(checkout, "start", "--port", "8765") == [".[web]"]
    assert stamp(checkout) == "web"
    assert (checkout / ".venv" / "bummerl.log").read_text().splitlines() == ["play --lang en", "serve --port 8765"]
    # Installed once: the next start and play install nothing.
    assert run(checkout, "start") == [] and run(checkout, "play") == []


def test_a_postgresql_url_adds_its_driver(checkout: Path) -> None:
    assert run(checkout, "start", "--database-url", "postgresql+psycopg://anna@db/bummerl") == [".[postgres,web]"]
    assert run(checkout, "start") == []
    assert run(checkout, "play") == []
    other = checkout / "other"
    shutil.copytree(checkout, other, ignore=shutil.ignore_patterns(".bummerl-installed"))
    assert run(other, "start", BUMMERL_DATABASE_URL="postgresql://anna@db/bummerl") == [".[postgres,web]"]


def test_everything_after_start_and_nothing_more_for_start_after_that(checkout: Path) -> None:
    """``setup`` installs what ``test`` needs (``test`` itself goes on to its checks); what ``start`` installed
    stays, and a command whose extras are in the stamp installs nothing."""
    run(checkout, "start")
    assert run(checkout, "setup") == [f".[{EVERY_EXTRA.replace(' ', ',')}]"]
    assert stamp(checkout) == EVERY_EXTRA
    assert run(checkout, "start") == [] and run(checkout, "play") == []


def test_a_changed_build_input_installs_again_with_the_same_extras(checkout: Path) -> None:
    run(checkout, "start")
    later = (checkout / ".venv" / ".bummerl-installed").stat().st_mtime + 10
    os.utime(checkout / "pyproject.toml", (later, later))
    assert run(checkout, "play") == [".[web]"]
