"""``python -m bummerl.server.migrations``: Alembic's command line on Bummerl's migrations.

Every ``alembic`` command, configured by :func:`bummerl.server.migrations.config`
(no ``alembic.ini``); commands that read or change a database need
``--database-url`` (any URL ``bummerl serve`` takes)::

    python -m bummerl.server.migrations revision -m "add a column"  # versions/0006_add_a_column.py
    python -m bummerl.server.migrations history
    python -m bummerl.server.migrations --database-url sqlite:///bummerl.db current
    python -m bummerl.server.migrations --database-url sqlite:///bummerl.db upgrade head

``upgrade`` is what the server does at start-up: a database from before
Alembic is recognised and stamped first.  ``revision`` numbers the new
revision after the newest one unless ``--rev-id`` is given.
"""

from __future__ import annotations

from argparse import Namespace
from collections.abc import Sequence

from alembic import command
from alembic.config import CommandLine, Config

from bummerl.server.migrations import config, next_revision_id, upgrade
from bummerl.server.storage import Repository


def main(argv: Sequence[str] | None = None) -> None:
    cli = CommandLine(prog="python -m bummerl.server.migrations")
    cli.parser.add_argument("--database-url", metavar="URL", help="the database of the commands that need one")
    options = cli.parser.parse_args(argv)
    if not hasattr(options, "cmd"):
        cli.parser.error("too few arguments")
    run = options.cmd[0]
    if run is command.revision and options.rev_id is None:
        options.rev_id = next_revision_id()
    if options.database_url is None:
        cli.run_cmd(_with_options(config(), options), options)
        return
    repo = Repository(options.database_url)
    try:
        with repo.engine.begin() as db:
            if run is command.upgrade and not options.sql:
                upgrade(db, options.revision)
            else:
                cli.run_cmd(_with_options(config(db), options), options)
    finally:
        repo.dispose()


def _with_options(cfg: Config, options: Namespace) -> Config:
    # As `alembic` does: env.py and the commands see the command line (`-x`, `--autogenerate`, ...).
    cfg.cmd_opts = options
    return cfg


if __name__ == "__main__":
    main()
