"""Which process holds which table, in cluster mode: the SQL of ``bummerl_cluster_nodes`` and ``bummerl_table_owners``.

:class:`Leases` is what :mod:`bummerl.server.cluster` asks the database; every
method is one short transaction, run in the database threads
(:class:`~bummerl.server.database.Database`).  The rules, all decided by the
database (its clock, its row locks), so no two processes ever disagree:

- a process is **alive** while its node row has not expired; its heartbeat
  (:meth:`Leases.beat`) pushes ``expires_at`` to ``now() + ttl``;
- a table is **held** by the node named in its owner row; :meth:`Leases.take`
  is one atomic upsert that succeeds when the table has no owner, when the
  caller holds it already, or when its holder is no longer alive, and raises the
  row's ``generation`` (the :class:`~bummerl.server.storage.Lease`'s fencing token);
- a release (:meth:`Leases.release`) deletes the row only if it still carries the
  releasing lease's generation, so a later take of the same table is never undone.

PostgreSQL only (``ON CONFLICT ... DO UPDATE ... WHERE``, ``make_interval``):
cluster mode needs PostgreSQL anyway for LISTEN/NOTIFY (:mod:`bummerl.server.bus`).
Nothing here knows a game's rules or sees a card.

>>> beat = Beat(held={"t1": 3}, owners={"t2": "b"}, live={"a", "b"})
>>> beat.held["t1"], beat.owners.get("t3"), sorted(beat.live)
(3, None, ['a', 'b'])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from bummerl.server.storage import Lease, StorageError

__all__ = ["Beat", "Leases", "UnknownTableId"]

#: Node rows expired this long ago are deleted (and the owner rows that name them): nobody waits for them.
FORGET_AFTER_SECONDS = 3600

_RENEW = text(
    "INSERT INTO bummerl_cluster_nodes (id, host, pid, started_at, expires_at)"
    " VALUES (:node, :host, :pid, now(), now() + make_interval(secs => :ttl))"
    " ON CONFLICT (id) DO UPDATE SET expires_at = excluded.expires_at"
)
_HELD = text("SELECT table_id, generation FROM bummerl_table_owners WHERE node_id = :node")
_OWNERS = text(
    "SELECT o.table_id, o.node_id FROM bummerl_table_owners o"
    " JOIN bummerl_cluster_nodes n ON n.id = o.node_id AND n.expires_at > now()"
    " WHERE o.table_id IN :ids"
).bindparams(bindparam("ids", expanding=True))
_LIVE = text("SELECT id FROM bummerl_cluster_nodes WHERE expires_at > now()")
_FORGET_NODES = text(
    "DELETE FROM bummerl_cluster_nodes WHERE expires_at < now() - make_interval(secs => :age) AND id <> :node"
)
_FORGET_OWNERS = text(
    "DELETE FROM bummerl_table_owners o WHERE NOT EXISTS (SELECT 1 FROM bummerl_cluster_nodes n WHERE n.id = o.node_id)"
)
# One statement: the row lock that ON CONFLICT takes makes two takes of one table wait for each other, and a
# take waits for a write that holds the row FOR SHARE (storage._hold) to commit.
_TAKE = text(
    "INSERT INTO bummerl_table_owners AS o (table_id, node_id, generation, taken_at)"
    " VALUES (:table_id, :node, 1, now())"
    " ON CONFLICT (table_id) DO UPDATE"
    " SET node_id = excluded.node_id, generation = o.generation + 1, taken_at = excluded.taken_at"
    " WHERE o.node_id = excluded.node_id OR NOT EXISTS"
    " (SELECT 1 FROM bummerl_cluster_nodes n WHERE n.id = o.node_id AND n.expires_at > now())"
    " RETURNING generation"
)
_HOLDER = text("SELECT node_id FROM bummerl_table_owners WHERE table_id = :table_id")
_RELEASE = text(
    "DELETE FROM bummerl_table_owners WHERE table_id = :table_id AND node_id = :node AND generation = :generation"
)
_LEAVE_TABLES = text("DELETE FROM bummerl_table_owners WHERE node_id = :node")
_LEAVE_NODE = text("DELETE FROM bummerl_cluster_nodes WHERE id = :node")


class UnknownTableId(StorageError):
    """No table has this id (a take needs a stored table)."""


@dataclasses.dataclass(frozen=True)
class Beat:
    """What one heartbeat found: the caller's tables with their generations, the live holders of the tables it
    asked about, and the live nodes (the caller among them)."""

    held: dict[str, int]
    owners: dict[str, str]
    live: set[str]


class Leases:
    """The ownership rows of one process (``node``), whose node row lives ``ttl`` seconds past each beat."""

    def __init__(self, engine: Engine, node: str, ttl: float, host: str, pid: int) -> None:
        self.engine = engine
        self.node = node
        self.ttl = ttl
        self.host = host[:255]
        self.pid = pid

    def beat(self, watched: Iterable[str] = (), forget: bool = False) -> Beat:
        """Renew this node; the tables it holds, the live holders of ``watched`` tables, and the live nodes.

        ``forget``: also delete node rows expired for an hour and the owner rows
        that name no node (a cleanup; every few minutes is enough).
        """
        ids = list(watched)
        with self.engine.begin() as db:
            db.execute(_RENEW, {"node": self.node, "host": self.host, "pid": self.pid, "ttl": self.ttl})
            if forget:
                db.execute(_FORGET_NODES, {"age": FORGET_AFTER_SECONDS, "node": self.node})
                db.execute(_FORGET_OWNERS)
            held = {str(t): int(g) for t, g in db.execute(_HELD, {"node": self.node})}
            owners = {str(t): str(n) for t, n in db.execute(_OWNERS, {"ids": ids})} if ids else {}
            live = {str(n) for (n,) in db.execute(_LIVE)}
        return Beat(held, owners, live)

    def live(self) -> set[str]:
        """The live nodes now (the caller among them), without renewing anything."""
        with self.engine.connect() as db:
            return {str(n) for (n,) in db.execute(_LIVE)}

    def take(self, table_id: str) -> Lease | str:
        """Take ``table_id`` for this node: its :class:`Lease`, or the id of the live node that holds it.

        :class:`UnknownTableId` when no table has this id.
        """
        for _ in range(3):
            try:
                with self.engine.begin() as db:
                    generation = db.execute(_TAKE, {"table_id": table_id, "node": self.node}).scalar()
                    if generation is not None:
                        return Lease(self.node, int(generation))
                    holder = db.execute(_HOLDER, {"table_id": table_id}).scalar()
            except IntegrityError:
                # The owner row refers to its table: an id that is no table's is refused by the foreign key.
                raise UnknownTableId(f"no table {table_id!r}") from None
            if holder is not None:
                return str(holder)
            # The holder let it go between the two statements: try again.
        raise StorageError(f"table {table_id} changed hands three times in a row; try again")

    def release(self, leases: Iterable[tuple[str, Lease]]) -> None:
        """Let go of tables (``(table_id, lease)`` pairs) unless they were taken again since."""
        rows = [{"table_id": t, "node": lease.node, "generation": lease.generation} for t, lease in leases]
        if rows:
            with self.engine.begin() as db:
                db.execute(_RELEASE, rows)

    def leave(self) -> None:
        """This node stops: every table it holds is free at once, and it is no longer alive."""
        with self.engine.begin() as db:
            db.execute(_LEAVE_TABLES, {"node": self.node})
            db.execute(_LEAVE_NODE, {"node": self.node})
