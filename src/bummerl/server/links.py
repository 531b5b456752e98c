"""One client's WebSocket at one table, wherever the table is live: the socket route talks only to a :class:`TableLink`.

A single process holds every table it serves: its links always lead to the
live :class:`~bummerl.server.rooms.Room`, and a message of the client is
answered as it always was (:func:`~bummerl.server.rooms.handle_client_text`).
In cluster mode (:mod:`bummerl.server.cluster`) another process may hold the
table: the link then knows that process (:attr:`TableLink.owner`) and the
cluster relays the client's messages to it and its answers back; when the table
changes hands, the cluster points the link at the new place and the client
notices nothing but a fresh ``state``.

The link never decides anything about the game; it only knows where the table is.
"""

from __future__ import annotations

from typing import Any, Protocol

from bummerl.server.connections import Connection
from bummerl.server.rooms import Room, disconnect_client, handle_client_text

__all__ = ["Relay", "TableLink"]


class Relay(Protocol):
    """What carries a link's messages to the process that holds its table (:class:`bummerl.server.cluster.Cluster`)."""

    async def relay(self, link: TableLink, text: str) -> None: ...

    def unlink(self, link: TableLink) -> None: ...


class TableLink:
    """A client's connection (:attr:`conn`) to table ``table_id``: live here (:attr:`room`) or at :attr:`owner`."""

    def __init__(self, table_id: str, relay: Relay | None = None) -> None:
        #: The cluster's relay (``None``: one process, every table is live here).
        self.relay = relay
        self.table_id = table_id
        self.conn = Connection()
        #: The live table when this process holds it.
        self.room: Room | None = None
        #: Else the node id of the process that holds it (``None`` while that is being found out).
        self.owner: str | None = None
        #: Whether the client has had its ``welcome`` (a new holder then sends only a state).
        self.welcomed = False
        #: Whether an action or a deal went to the holder and no answer came back yet.
        self.pending = False
        #: Requests sent to the holder, and the last message numbered by it that reached the client.
        self.sent = 0
        self.received = 0

    def send(self, message: dict[str, Any]) -> None:
        """Send the client a message of this process's own (an error about its messages, a pong)."""
        room = self.room
        if room is not None:
            room.send(self.conn, message)
        else:
            self.conn.send(message)

    async def handle_text(self, text: str) -> None:
        """Answer one message of the client, here or through the process that holds the table."""
        room = self.room
        if room is not None:
            await handle_client_text(room, self.conn, text)
            self.welcomed = self.welcomed or self.conn.hello
            return
        assert self.relay is not None, "only a cluster has tables held elsewhere"
        await self.relay.relay(self, text)

    async def close(self) -> None:
        """The socket closed: the table forgets the client, and the players hear it if it held a seat."""
        room = self.room
        if self.relay is not None:
            self.relay.unlink(self)
        if room is not None:
            await disconnect_client(room, self.conn)
