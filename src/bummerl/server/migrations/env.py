"""Alembic's environment for Bummerl: run the revisions of ``versions/`` on the connection it was given.

Alembic runs this file for every command that needs the database.  The
connection comes from ``config.attributes["connection"]``
(:func:`bummerl.server.migrations.config`), already in a transaction: Alembic
then begins none of its own, and the caller commits the whole upgrade at once.
This file never makes an engine of its own, so every database is reached the
way the server reaches it (:class:`~bummerl.server.storage.Repository`).
"""

from __future__ import annotations

from alembic import context
from alembic.util import CommandError

# The models' metadata: `revision --autogenerate` and the tests compare the migrated database with it.
# The tournaments' and the players' tables join it when their modules are imported.
import bummerl.server.players
import bummerl.server.tournament_store  # noqa: F401
from bummerl.server.storage import _Base

if context.is_offline_mode():
    raise CommandError("offline migrations (--sql) are not supported: the server migrates its database at start-up")
connection = context.config.attributes.get("connection")
if connection is None:
    raise CommandError("this command needs a database: python -m bummerl.server.migrations --database-url URL ...")
context.configure(connection=connection, target_metadata=_Base.metadata)
with context.begin_transaction():
    context.run_migrations()
