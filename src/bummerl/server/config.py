"""Settings of the web server: where the database lives, how bots and analyses run.

>>> config = ServerConfig(data_dir=Path("/tmp/bummerl-doc"))
>>> config.resolved_database_url()
'sqlite:////tmp/bummerl-doc/bummerl.db'
>>> ServerConfig(database_url="postgresql+psycopg://u@h/db").resolved_database_url()
'postgresql+psycopg://u@h/db'

Nothing here touches the disk: :meth:`ServerConfig.prepare` creates the data
folder when the app starts.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Literal

import platformdirs

__all__ = ["STATIC_DIR", "ExecutorKind", "ServerConfig", "default_data_dir"]

#: The front end shipped with the package, served at ``/``.
STATIC_DIR = Path(__file__).resolve().parent / "static"

ExecutorKind = Literal["process", "thread"]


def default_data_dir() -> Path:
    """The user's data folder for Bummerl (e.g. ``~/.local/share/bummerl`` on Linux)."""
    return Path(platformdirs.user_data_dir("bummerl", appauthor=False))


@dataclasses.dataclass(frozen=True)
class ServerConfig:
    """Everything :func:`bummerl.server.app.create_app` can be told.

    ``bot_executor`` ``"process"`` runs bots in worker processes (real
    parallelism on several cores); ``"thread"`` runs them in threads of this
    process (tests, and bots registered at run time that a fresh process would
    not know).  Either way a bot never runs on the event loop.
    """

    #: Any SQLAlchemy URL; ``None``: SQLite ``bummerl.db`` in :attr:`data_dir`.
    database_url: str | None = None
    #: ``None``: :func:`default_data_dir`.
    data_dir: Path | None = None
    static_dir: Path = STATIC_DIR
    bot_executor: ExecutorKind = "process"
    #: Worker count for bots (``None``: the number of CPU cores).
    bot_workers: int | None = None
    #: The bot level that annotates finished games (``bummerl.analysis``).
    analysis_level: str = "expert"
    analysis_executor: ExecutorKind = "process"
    #: Seconds a bot waits before it acts, so a human can follow the play (0 in tests).
    bot_delay: float = 0.0
    #: The bot a new table gets when the request names none.
    default_bot: str = "hard"

    def resolved_data_dir(self) -> Path:
        return self.data_dir if self.data_dir is not None else default_data_dir()

    def resolved_database_url(self) -> str:
        if self.database_url is not None:
            return self.database_url
        return f"sqlite:///{self.resolved_data_dir() / 'bummerl.db'}"

    def prepare(self) -> None:
        """Create the data folder when the database is the default SQLite file."""
        if self.database_url is None:
            self.resolved_data_dir().mkdir(parents=True, exist_ok=True)
