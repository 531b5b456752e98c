"""The expert's analyses of finished games: computed in one worker, cached in the database, bounded.

An analysis takes up to a minute of a core, so the server runs one at a time
(the other cores stay with the tables' bots) and keeps at most
``max_queued_analyses`` waiting or running; a request beyond that is answered
``503`` with ``Retry-After`` (docs/security.md).  Each client may start
``analysis_rate`` of them (:mod:`bummerl.server.limits`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging

from bummerl.server.config import ServerConfig
from bummerl.server.database import Database
from bummerl.server.scheduler import make_executor
from bummerl.server.storage import Repository, StorageError
from bummerl.server.tasks import TaskSet
from bummerl.server.workers import analyze_record

__all__ = ["AnalysisRunner", "QueueFull"]

log = logging.getLogger("bummerl.server")


class QueueFull(Exception):
    """As many analyses wait as the server allows."""


class AnalysisRunner:
    """Runs analyses of finished games in a worker and caches them in the database."""

    def __init__(self, repo: Repository, db: Database, config: ServerConfig) -> None:
        self.repo = repo
        self.db = db
        self.config = config
        self._executor: concurrent.futures.Executor | None = None
        self._tasks = TaskSet()

    @property
    def queued(self) -> int:
        """Analyses waiting or running."""
        return len(self._tasks)

    def check_room(self) -> None:
        """:class:`QueueFull` when as many analyses wait as allowed."""
        if self.queued >= self.config.max_queued_analyses:
            raise QueueFull(f"{self.queued} analyses are waiting; ask again in a minute")

    async def start(self, game_id: int, record: str) -> bool:
        """Start the analysis of a finished game unless it runs or ran; whether this call started it.

        :class:`QueueFull` when as many analyses wait as allowed.
        """
        self.check_room()
        if not await self.db.run(self.repo.claim_analysis, game_id):
            return False  # running or done already
        if self._executor is None:
            # One worker: an analysis is long and must leave the other cores to the tables.
            self._executor = make_executor(self.config.analysis_executor, 1)
        self._tasks.spawn(self._run(game_id, record))
        return True

    async def _run(self, game_id: int, record: str) -> None:
        loop = asyncio.get_running_loop()
        assert self._executor is not None
        try:
            result = await loop.run_in_executor(self._executor, analyze_record, record, self.config.analysis_level)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.error("analysis of game %s failed: %s", game_id, exc)
            await self._store(game_id, "failed", {"message": f"{type(exc).__name__}: {exc}"})
            return
        await self._store(game_id, "done", result)

    async def _store(self, game_id: int, status: str, analysis: dict[str, object]) -> None:
        # Retried until the database takes it (a stopped server forgets a "running" analysis at its
        # next start, and the next request computes it again).
        wait = self.config.storage_retry_first
        while True:
            try:
                await self.db.run(self.repo.store_analysis, game_id, status, analysis)
                return
            except StorageError as exc:
                log.error("the analysis of game %s was not stored (retry in %.1f s): %s", game_id, wait, exc)
            await asyncio.sleep(wait)
            wait = min(wait * 2, self.config.storage_retry_max)

    async def shutdown(self) -> None:
        await self._tasks.cancel_all()
        if self._executor is not None:
            # An analysis can take a minute: do not wait for it (it is started again next time).
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
