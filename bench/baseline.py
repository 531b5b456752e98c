"""A baseline from a git revision, as a bot program for the arena: ``cmd:DIR/.venv/bin/bummerl bot expert``.

    python bench/baseline.py HEAD                     # builds .baselines/<commit>, prints the cmd: spec
    python bench/baseline.py v0.1 --bot heuristic     # the spec for another bot of that revision
    python bench/baseline.py HEAD~2 --dir /tmp/base   # somewhere else
    python bench/baseline.py HEAD --print-only        # the spec only: nothing is built

The revision is resolved to its commit, checked out read-only with ``git worktree add --detach`` into DIR
(default ``.baselines/<commit>`` in the repository, which .gitignore lists), and installed into a virtual
environment of its own, ``DIR/.venv``, with ``pip install DIR`` (the engine has no dependencies: only the
build tools come from PyPI).  A DIR that already has ``.venv/bin/bummerl`` is reused as it is, so a baseline
is built once per commit.  The last line printed is the bot spec; use it as the arena's ``--b``:

    bummerl arena --a expert --b "$(python bench/baseline.py HEAD | tail -1)" --sprt 0,10 --deals 2000

The baseline speaks the bot protocol (docs/protocol.md), so it plays against the working tree's bots in one
arena, each in its own process.  Remove a baseline with ``git worktree remove --force DIR``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

Runner = Callable[..., "subprocess.CompletedProcess[str]"]

#: The cache folder of baselines, relative to the repository's top level.
CACHE = ".baselines"


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line.

    >>> args = parse_args(["HEAD~1", "--bot", "heuristic"])
    >>> args.rev, args.dir, args.bot, args.print_only
    ('HEAD~1', None, 'heuristic', False)
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("rev", help="a git revision: a commit, branch, tag or HEAD~n")
    parser.add_argument("--dir", type=Path, default=None, help=f"where to build it (default {CACHE}/<commit>)")
    parser.add_argument("--bot", default="expert", help="the bot of the baseline to serve (default expert)")
    parser.add_argument("--print-only", action="store_true", help="print the spec; build nothing")
    return parser.parse_args(argv)


def bot_spec(directory: Path, bot: str) -> str:
    """The arena's bot spec for ``bot`` of the baseline in ``directory``.

    >>> bot_spec(Path("/repo/.baselines/abc"), "expert")
    'cmd:/repo/.baselines/abc/.venv/bin/bummerl bot expert'
    """
    return f"cmd:{directory / '.venv' / 'bin' / 'bummerl'} bot {bot}"


def _git(run: Runner, *args: str, cwd: Path | None = None) -> str:
    done = run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return str(done.stdout).strip()


def build(rev: str, directory: Path | None, bot: str, *, print_only: bool = False, run: Runner = subprocess.run) -> str:
    """Build (or reuse) the baseline of ``rev`` and return its bot spec; ``run`` runs every command."""
    top = Path(_git(run, "rev-parse", "--show-toplevel"))
    commit = _git(run, "rev-parse", "--verify", f"{rev}^{{commit}}", cwd=top)
    target = (directory if directory is not None else top / CACHE / commit).resolve()
    spec = bot_spec(target, bot)
    if print_only:
        return spec
    if (target / ".venv" / "bin" / "bummerl").exists():
        print(f"reusing {target} ({commit})", file=sys.stderr)
        return spec
    if not (target / ".git").exists():
        print(f"git worktree add {target} {commit}", file=sys.stderr)
        _git(run, "worktree", "add", "--detach", str(target), commit, cwd=top)
    print(f"installing {target} into {target / '.venv'}", file=sys.stderr)
    run([sys.executable, "-m", "venv", str(target / ".venv")], check=True)
    run([str(target / ".venv" / "bin" / "python"), "-m", "pip", "install", "--quiet", str(target)], check=True)
    return spec


def main(argv: Sequence[str] | None = None, run: Runner = subprocess.run) -> int:
    """Print the spec; 2 for a revision git does not know or a failing command."""
    args = parse_args(argv)
    try:
        print(build(args.rev, args.dir, args.bot, print_only=args.print_only, run=run))
    except subprocess.CalledProcessError as exc:
        detail: Any = exc.stderr.strip() if isinstance(exc.stderr, str) and exc.stderr.strip() else exc
        print(f"baseline: error: {' '.join(map(str, exc.cmd))}: {detail}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
