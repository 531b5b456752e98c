"""The results of finished games, stored in the background until the database takes them.

A game's ``game_over`` reaches its players at once; its result and record are
written by :class:`ResultStore` in the background, retried with backoff while
the database refuses them, and tried once more when the app stops.  Every
action of a game is stored before it is played, so nothing is lost if the
server stops first: the table's next load finishes the game again from its
actions and hands the result here again.

Once a result is stored, the games of its table are rated
(:meth:`~bummerl.server.people_ratings.PeopleRatings.rate_table_of`; nothing
for a table that is not rated), retried like the result; :meth:`ResultStore.start`
rates what a stop left between the two writes.  A game is never rated twice, so
a result handed here again rates nothing again.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Mapping
from typing import Any

from bummerl.server.config import ServerConfig
from bummerl.server.database import Database
from bummerl.server.people_ratings import PeopleRatings
from bummerl.server.storage import MATCH_OUTCOME, GameData, Repository, StorageError
from bummerl.server.tasks import TaskSet

__all__ = ["FinishedGame", "ResultStore"]

log = logging.getLogger("bummerl.server")


@dataclasses.dataclass(frozen=True)
class FinishedGame:
    """A game that just ended: what the database must keep of it (stored in the background)."""

    game_id: int
    result: dict[str, Any]
    record: str
    #: Whether its table is rated (:attr:`~bummerl.server.storage.TableData.rated`): only then are its games rated
    #: after the result is stored.  ``True`` when not known: the rating itself finds an unrated table.
    rated: bool = True


class ResultStore:
    """Writes finished games' results and records, retrying until the database takes them."""

    def __init__(self, repo: Repository, db: Database, config: ServerConfig) -> None:
        self.repo = repo
        self.db = db
        self.config = config
        #: Results of finished games not stored yet (retried in the background).
        self._pending: dict[int, FinishedGame] = {}
        self._tasks = TaskSet()
        #: The people's ratings, moved by each stored game of a rated table.
        self.ratings = PeopleRatings(repo)

    async def start(self) -> None:
        """At start-up: rate, in the background, the finished games of rated tables that no rating has seen."""
        self._tasks.spawn(self._catch_up())

    async def _catch_up(self) -> None:
        try:
            rated = await self.db.run(self.ratings.catch_up)
        except StorageError as exc:
            # Not lost: each table's next stored game rates its table's earlier games first.
            log.error("the ratings could not catch up at start-up: %s", exc)
            return
        if rated:
            log.info("%d game(s) left unrated by the last stop were rated", rated)

    def store(self, finished: FinishedGame) -> None:
        """Store a finished game's result in the background, retrying with backoff until the database takes it."""
        self._pending[finished.game_id] = finished
        self._tasks.spawn(self._store(finished))

    def pending(self) -> dict[int, FinishedGame]:
        """The results :meth:`store` has not written yet, by game id (this process's only).

        Take them *before* reading games from the database and give them to
        :meth:`as_finished`: a write that lands between the two is then seen in
        one or the other (taken after the read, it could be in neither).
        """
        return dict(self._pending)

    @staticmethod
    def as_finished(game: GameData, pending: Mapping[int, FinishedGame]) -> GameData:
        """``game`` as the database will have it once its pending result (in ``pending``) is written.

        ``game_over`` reaches the players before the background write lands (or
        while the database refuses it), so a client that asks for the game, its
        record, replay or analysis at once must not be told that it still runs.
        In cluster mode another process's pending result is not known here; its
        answer waits for that write.
        """
        finished = pending.get(game.id)
        if game.finished or finished is None:
            return game
        result = {k: v for k, v in finished.result.items() if k != MATCH_OUTCOME}
        return dataclasses.replace(game, finished=True, result=result, record=finished.record)

    async def _store(self, finished: FinishedGame) -> None:
        wait = self.config.storage_retry_first
        while True:
            try:
                # In turn with the moves' batches (bummerl.server.database, "Group commit").
                await self.db.write(self.repo.finish_game, finished.game_id, finished.result, finished.record)
                del self._pending[finished.game_id]
                break
            except StorageError as exc:
                log.error("the result of game %s was not stored (retry in %.1f s): %s", finished.game_id, wait, exc)
            await asyncio.sleep(wait)
            wait = min(wait * 2, self.config.storage_retry_max)
        if finished.rated:
            # An unrated table (a game against bots, a friends' table) skips the query that would say so: one
            # per game, about 1.5% of the server's interpreter time at 200 bot tables flat out (bench/web_load.py).
            await self._rate(finished.game_id)

    async def _rate(self, game_id: int) -> None:
        """Rate the stored game's table (its earlier games first), retrying with backoff while the database refuses."""
        wait = self.config.storage_retry_first
        while True:
            try:
                await self.db.write(self.ratings.rate_table_of, game_id)
                return
            except StorageError as exc:
                log.error("game %s was not rated (retry in %.1f s): %s", game_id, wait, exc)
            await asyncio.sleep(wait)
            wait = min(wait * 2, self.config.storage_retry_max)

    async def shutdown(self) -> None:
        """Stop retrying, and try each result still waiting once more (else the table's next load stores it)."""
        await self._tasks.cancel_all()
        for finished in list(self._pending.values()):
            try:
                await self.db.run(self.repo.finish_game, finished.game_id, finished.result, finished.record)
            except StorageError as exc:
                log.error("the result of game %s was not stored before the stop: %s", finished.game_id, exc)
