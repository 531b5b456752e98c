"""Settings of the web server: where the database lives, how bots and analyses run.

>>> config = ServerConfig(data_dir=Path("/tmp/bummerl-doc"))
>>> config.resolved_database_url()
'sqlite:////tmp/bummerl-doc/bummerl.db'
>>> ServerConfig(database_url="postgresql+psycopg://u@h/db").resolved_database_url()
'postgresql+psycopg://u@h/db'

Nothing here touches the disk: :meth:`ServerConfig.prepare` creates the data
folder when the app starts.

The settings of ``bummerl serve`` come from its flags, else from environment
variables named ``BUMMERL_`` and the setting (:class:`ServeSettings`,
:func:`serve_settings`), else from their defaults: a deployment (a container, a
service manager) sets them without a command line.

>>> s = serve_settings({"port": 9000}, {"BUMMERL_PORT": "8080", "BUMMERL_DATABASE_URL": "sqlite:///x.db"})
>>> s.port, s.database_url, s.host
(9000, 'sqlite:///x.db', '127.0.0.1')
>>> serve_settings({}, {"BUMMERL_PORT": "eighty"})
Traceback (most recent call last):
...
bummerl.server.config.SettingError: BUMMERL_PORT: 'eighty' is not a whole number
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Literal

import platformdirs

__all__ = [
    "ENV_PREFIX",
    "STATIC_DIR",
    "ExecutorKind",
    "QuickMatchSettings",
    "ServeSettings",
    "ServerConfig",
    "SettingError",
    "TournamentSettings",
    "check_settings",
    "default_data_dir",
    "serve_settings",
]

#: The front end shipped with the package, served at ``/``.
STATIC_DIR = Path(__file__).resolve().parent / "static"

ExecutorKind = Literal["process", "thread"]


def default_data_dir() -> Path:
    """The user's data folder for Bummerl (e.g. ``~/.local/share/bummerl`` on Linux)."""
    return Path(platformdirs.user_data_dir("bummerl", appauthor=False))


@dataclasses.dataclass(frozen=True)
class TournamentSettings:
    """The bounds and pace of the tournaments of one app (:attr:`ServerConfig.tournaments`)."""

    #: Seconds between two looks at the running tournaments' tables.
    poll_seconds: float = 2.0
    #: Participants of one tournament at most (humans and bots).
    max_players: int = 64
    #: Bots among them at most: a tournament of bots alone plays without a human, on the server's CPU.
    max_bots: int = 16
    #: Unfinished tournaments that one client made in the last day.
    max_per_client: int = 5
    #: Tournaments being played at once, in all.
    max_running: int = 100
    #: Seconds a process's claim on a tournament lasts (cluster mode).
    claim_seconds: float = 30.0
    #: The move clock of a tournament's tables when the organiser names none (seconds per move).
    move_seconds: int = 60
    #: The longest move clock an organiser may choose (the shortest is the clock's own, 5 s).
    max_move_seconds: int = 300


@dataclasses.dataclass(frozen=True)
class QuickMatchSettings:
    """The bounds of quick match (:mod:`bummerl.server.quickmatch`; docs/security.md says why each is what it is)."""

    #: The move clock of a quick-match table (seconds per move; :mod:`bummerl.server.clock`).
    move_seconds: int = 30
    #: Seconds a ticket lives without a poll (the page polls every second): a closed tab stops waiting.
    ticket_seconds: float = 15.0
    #: People waiting at once, in all.
    max_waiting: int = 1000
    #: People waiting at once from one client key (an address: the players behind one router share it).
    max_per_client: int = 8
    #: The longest wait for bots a player may choose (seconds).
    max_bot_wait: int = 120
    #: Seconds the lobby's counts are kept before they are counted again.
    counts_seconds: float = 2.0
    #: Seconds a seated player has to open their table; one who has not is a no-show.
    no_show_seconds: float = 20.0
    #: Seconds a no-show may not ask again; an address with ``no_shows_per_client`` no-shows in this time may not
    #: either (a flood that never sits down seats honest people at tables nobody else comes to).
    bar_seconds: float = 300.0
    no_shows_per_client: int = 3


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

    # ---- fair bot scheduling (bummerl.server.scheduler) --------------------------------------
    #: Threads for the quick bots (random, heuristic), which never wait behind a search.
    quick_bot_threads: int = 2
    #: The least share of its own time budget a searching bot gets when many decisions wait.
    min_time_scale: float = 0.05
    #: Seconds after which a decision is given up and the heuristic bot plays instead.
    bot_timeout: float = 10.0

    # ---- memory: which tables stay loaded (bummerl.server.manager) ---------------------------
    #: A table nobody is connected to and nothing happened at for this long leaves memory
    #: (it reloads from the database on demand).
    table_idle_seconds: float = 600.0
    #: How often idle tables are looked for.
    sweep_seconds: float = 30.0
    #: Tables in memory at most; a new table is refused with 503 when all of them are busy.
    max_live_tables: int = 2000
    #: Loaded tables one client may have created (and not yet left idle).
    max_tables_per_client: int = 10

    # ---- rate limits per client (bummerl.server.limits; the ``limits`` notation) --------------
    create_rate: str = "10/minute"
    join_rate: str = "20/minute"
    analysis_rate: str = "10/minute"
    #: Every other API request (reads, polls).
    api_rate: str = "20/second"
    #: WebSocket handshakes (a page opens one per table, and again after a dropped connection).
    connect_rate: str = "60/minute"
    #: Analyses waiting or running at once, for all clients together.
    max_queued_analyses: int = 20

    # ---- the database (bummerl.server.database) ----------------------------------------------
    #: Threads that run database calls (none runs on the event loop).
    db_threads: int = 4
    #: Seconds an SQLite call waits for a lock before the request is answered 503.
    db_busy_timeout: float = 2.0
    #: Seconds between retries of a write the database refused, doubling up to ``storage_retry_max``.
    storage_retry_first: float = 0.5
    storage_retry_max: float = 15.0

    # ---- the move clock of a table that has one (bummerl.server.clock; docs/web.md) -------------
    #: Seconds a seat's player may be away (no connection) while it is their move before the bot moves for them
    #: (never more than the table's time per move).
    clock_grace_seconds: float = 30.0
    #: Moves the bot plays for one seat in one game because its time ran out before it takes the seat over
    #: for the rest of that game (the game counts as abandoned for that player).
    clock_strikes: int = 3

    # ---- tournaments (bummerl.server.tournaments; docs/web-tournaments.md) ------------------------
    tournaments: TournamentSettings = TournamentSettings()

    # ---- quick match (bummerl.server.quickmatch; docs/web.md) ------------------------------------
    quickmatch: QuickMatchSettings = QuickMatchSettings()

    # ---- several processes on one PostgreSQL (bummerl.server.cluster; docs/web.md) -------------
    #: ``None``: cluster mode on PostgreSQL, one process on SQLite; ``False``: one process on PostgreSQL too;
    #: ``True``: cluster mode (PostgreSQL only).
    cluster: bool | None = None
    #: Seconds after a process's last heartbeat (it beats every quarter of this) before another process may
    #: take its tables: how long the tables of a process that died wait for a new holder.
    lease_seconds: float = 10.0
    #: Seconds an HTTP request waits for the process that holds a table to answer (then ``503``).
    relay_timeout: float = 3.0

    # The connection edge (docs/security.md says why each default is what it is).
    #: The address players open (``https://schnapsen.example``): invitation links start with it and a
    #: WebSocket's ``Origin`` must be it.  ``None``: invitations are paths (``/#/join/CODE``) that the
    #: front end completes with its own address, and the ``Origin`` must match the request's ``Host``.
    public_url: str | None = None
    #: Further origins (``https://other.example``) whose pages may open the table WebSockets.
    allowed_origins: tuple[str, ...] = ()
    #: Seconds a new WebSocket has to send a valid ``hello`` before it is closed (4408).
    hello_timeout: float = 10.0
    #: Seconds a WebSocket may stay without a frame from its client (a ``ping`` message or a
    #: WebSocket ping counts) before it is closed (4408); the front end pings every 25 s.
    idle_timeout: float = 120.0
    #: Seconds the server pings a WebSocket (protocol level), and waits for the pong, to find dead peers.
    ws_ping_interval: float | None = 20.0
    ws_ping_timeout: float | None = 20.0
    #: Whether the WebSockets may compress their messages (``permessage-deflate``, uvicorn's default and every
    #: browser's wish).  Off: zlib on every frame cost the server about 3% of its interpreter time at 200 tables
    #: flat out (bench/web_load.py, docs/web.md "Many people at once"), and each socket's compressor and
    #: decompressor held tens of KB; a ``state`` is about 2 KB, a few a minute at a person's pace.
    ws_per_message_deflate: bool = False
    #: Seconds a client has to send one whole HTTP request (head and body), counted from the connection
    #: or from the first byte of the next request on it; then ``408`` and the connection is closed.
    request_timeout: float = 10.0
    #: Seconds an idle keep-alive HTTP connection stays open between requests (uvicorn's ``timeout_keep_alive``).
    keep_alive_timeout: int = 5
    #: Simultaneous connections (HTTP and WebSocket) of one client key (an IPv4 address, an IPv6 /64); 0: no cap.
    max_connections_per_client: int = 32
    #: Simultaneous connections of all clients together; ``bummerl serve`` keeps it below the file limit.
    max_connections: int = 1000

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


# ------------------------------------------------------------------ the settings of ``bummerl serve``
#: Environment variables of the settings are named this and the setting in capitals (``BUMMERL_PORT``).
ENV_PREFIX = "BUMMERL_"


class SettingError(ValueError):
    """A setting's value that does not fit it; the message names the variable (or flag) and the value."""


@dataclasses.dataclass(frozen=True)
class ServeSettings:
    """What ``bummerl serve`` is told: each field is a flag (``--data-dir``) and a variable (``BUMMERL_DATA_DIR``).

    A flag beats the variable, the variable beats the default (:func:`serve_settings`); docs/web.md lists them.
    """

    host: str = "127.0.0.1"
    port: int = 8000
    #: ``None``: SQLite in :attr:`data_dir`.
    database_url: str | None = None
    #: ``None``: the user's data folder.
    data_dir: Path | None = None
    #: ``None``: the number of cores.
    bot_workers: int | None = None
    analysis_level: str = "expert"
    bot_delay: float = 0.4
    log_level: str = "warning"
    #: ``None``: ``http://HOST:PORT`` (none for a wildcard host).
    public_url: str | None = None
    #: The flag is repeated; the variable is comma-separated.
    allowed_origins: tuple[str, ...] = ()
    #: ``None``: on with PostgreSQL.
    cluster: bool | None = None
    lease_seconds: float = 10.0
    max_connections: int = 1000
    max_connections_per_client: int = 32
    clock_grace_seconds: float = 30.0
    clock_strikes: int = 3
    #: Quick match: seconds per move at its tables (0: no clock), and people waiting at once in all.
    quick_match_seconds: int = 30
    quick_match_max_waiting: int = 1000
    #: Tournaments: the clock of their tables when the organiser names none, and the longest one allowed.
    tournament_move_seconds: int = 60
    tournament_max_move_seconds: int = 300


def _boolean(text: str) -> bool:
    word = text.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError("is not a yes or no (true/false, 1/0, yes/no, on/off)")


def _number(kind: type[int] | type[float]) -> Callable[[str], object]:
    def parse(text: str) -> object:
        try:
            value = kind(text.strip())
        except ValueError:
            raise ValueError("is not a whole number" if kind is int else "is not a number") from None
        if not math.isfinite(value):  # nan, inf: a bot that never plays, a lease never over
            raise ValueError("is not a finite number")
        return value

    return parse


_PARSERS: dict[object, Callable[[str], object]] = {
    str: str,
    int: _number(int),
    float: _number(float),
    bool: _boolean,
    Path: Path,
    tuple[str, ...]: lambda text: tuple(p.strip() for p in text.split(",") if p.strip()),
}


def _port(text: str) -> object:
    port = _number(int)(text)
    if not 0 <= port <= 65535:  # type: ignore[operator]
        raise ValueError("is not a port (0 to 65535)")
    return port


def _log_level(text: str) -> object:
    if text.strip().lower() not in _LOG_LEVELS:
        raise ValueError(f"is not a log level ({', '.join(_LOG_LEVELS)})")
    return text.strip().lower()


#: uvicorn's log levels (its ``Config`` fails with a traceback on any other).
_LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def _move_seconds(*, none: bool) -> Callable[[str], object]:
    """A move clock's seconds: 5 to 600 (:mod:`bummerl.server.clock`), or 0 for no clock where ``none``."""

    def parse(text: str) -> object:
        seconds = _number(int)(text)
        if none and seconds == 0:
            return seconds
        if not 5 <= seconds <= 600:  # type: ignore[operator]
            raise ValueError("is not a time per move (5 to 600 seconds" + (", or 0 for none)" if none else ")"))
        return seconds

    return parse


def _positive(text: str) -> object:
    value = _number(int)(text)
    if value < 1:  # type: ignore[operator]
        raise ValueError("is not a positive whole number")
    return value


#: Settings whose values are narrower than their type.
_FIELD_PARSERS: dict[str, Callable[[str], object]] = {
    "port": _port,
    "log_level": _log_level,
    "quick_match_seconds": _move_seconds(none=True),
    "quick_match_max_waiting": _positive,
    "tournament_move_seconds": _move_seconds(none=False),
    "tournament_max_move_seconds": _move_seconds(none=False),
}


def check_settings(s: ServeSettings) -> None:
    """:class:`SettingError` for a flag's value that its variable would not take (the flags skip the parsers),
    or a tournament clock's default above its most.

    >>> check_settings(ServeSettings(quick_match_seconds=3))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bummerl.server.config.SettingError: --quick-match-seconds: 3 is not a time per move (5 to 600 seconds, ...)
    """
    for name in (
        "quick_match_seconds",
        "quick_match_max_waiting",
        "tournament_move_seconds",
        "tournament_max_move_seconds",
    ):
        value = getattr(s, name)
        try:
            _FIELD_PARSERS[name](str(value))
        except ValueError as exc:
            raise SettingError(f"--{name.replace('_', '-')}: {value!r} {exc}") from None
    if s.tournament_move_seconds > s.tournament_max_move_seconds:
        raise SettingError(
            f"--tournament-move-seconds: {s.tournament_move_seconds} is more than --tournament-max-move-seconds "
            f"({s.tournament_max_move_seconds})"
        )


def _parser(annotation: object) -> Callable[[str], object]:
    """How a variable's text becomes a value of the field's type (``X | None``: as ``X``; empty text: ``None``)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    optional = typing.get_origin(annotation) in (typing.Union, types.UnionType)
    inner = _PARSERS[args[0] if optional else annotation]
    if not optional:
        return inner
    return lambda text: None if not text.strip() else inner(text)


def serve_settings(flags: Mapping[str, object], environ: Mapping[str, str]) -> ServeSettings:
    """The settings from ``flags`` (by field name; ``None`` or absent: not given), else ``environ``
    (``BUMMERL_`` and the field's name in capitals), else the defaults.

    :class:`SettingError` naming the variable for a value that does not fit.

    >>> serve_settings({}, {"BUMMERL_CLUSTER": "no", "BUMMERL_ALLOWED_ORIGINS": "https://a.example, https://b.example"})
    ... # doctest: +ELLIPSIS
    ServeSettings(..., allowed_origins=('https://a.example', 'https://b.example'), cluster=False, ...)
    """
    hints = typing.get_type_hints(ServeSettings)
    values: dict[str, object] = {}
    for field in dataclasses.fields(ServeSettings):
        given = flags.get(field.name)
        if given is not None:
            values[field.name] = tuple(given) if isinstance(given, list) else given
            continue
        var = ENV_PREFIX + field.name.upper()
        text = environ.get(var)
        if text is None:
            continue
        try:
            values[field.name] = _FIELD_PARSERS.get(field.name, _parser(hints[field.name]))(text)
        except ValueError as exc:
            raise SettingError(f"{var}: {text!r} {exc}") from None
    return ServeSettings(**values)  # type: ignore[arg-type]
