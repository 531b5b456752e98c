"""A throwaway PostgreSQL server for tests: its own cluster in a temporary folder, gone afterwards.

``postgres_server`` (session scope) runs ``initdb`` and ``pg_ctl start`` from
Debian's ``postgresql`` package (``/usr/lib/postgresql/*/bin``, or the folder
in ``BUMMERL_PG_BIN``), listening on a free port of 127.0.0.1 only, with its
Unix socket inside the temporary folder, and creates the database ``bummerl``;
it yields the running cluster (``postgres_server.url()`` is the SQLAlchemy URL
of that database).  ``postgres_url`` gives every test an empty schema of its
own in that database, as a URL whose connections use only that schema::

    from pg_server import postgres_server, postgres_url  # fixtures for this module

    def test_something(postgres_url: str) -> None:
        repo = Repository(postgres_url)

(A schema takes milliseconds, a fresh database half a second.)  Every
connection of a test's URL carries the schema's name as its
``application_name``: :meth:`PostgresCluster.sessions` finds them.

PostgreSQL refuses to run as root, and CI runs as root: then the server runs as
the ``postgres`` system user (made by the Debian package) through ``runuser``.
Without the binaries or the ``psycopg`` driver the tests are skipped, with the
reason, except when ``CI`` is set: there a missing piece fails the tests, so a
broken install step cannot hide behind a skip.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["DATABASE", "PostgresCluster", "find_pg_bin", "postgres_server", "postgres_url", "start_cluster"]

#: The superuser of the test cluster (no password: the cluster trusts 127.0.0.1 and its own socket).
USER = "bummerl"
#: The database the tests use (one schema per test).
DATABASE = "bummerl"


def find_pg_bin() -> Path | None:
    """The folder with ``initdb`` and ``pg_ctl``: ``BUMMERL_PG_BIN``, the newest Debian version, or ``PATH``."""
    candidates: list[Path] = []
    if os.environ.get("BUMMERL_PG_BIN"):
        candidates.append(Path(os.environ["BUMMERL_PG_BIN"]))
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = [p for p in debian.iterdir() if p.name.isdigit()]
        candidates += [p / "bin" for p in sorted(versions, key=lambda p: int(p.name), reverse=True)]
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclasses.dataclass
class PostgresCluster:
    """A running test cluster: where it lives and how to reach it."""

    bin_dir: Path
    root: Path
    port: int
    #: ``["runuser", "-u", "postgres", "--"]`` when we are root, else empty.
    run_as: list[str]
    _names: Iterator[int] = dataclasses.field(default_factory=itertools.count)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    def url(self, database: str = DATABASE, schema: str | None = None) -> str:
        """The SQLAlchemy URL of ``database``; with ``schema``, connections see only that schema."""
        url = f"postgresql+psycopg://{USER}@127.0.0.1:{self.port}/{database}"
        if schema is None:
            return url
        # libpq's options: the search path (CREATE TABLE lands there) and a name for pg_stat_activity.
        return f"{url}?options=-csearch_path%3D{schema}&application_name={schema}"

    def run(self, tool: str, *args: str) -> None:
        """Run ``bin_dir/tool`` as the cluster's owner; a failure raises with the tool's output and the log."""
        command = [*self.run_as, str(self.bin_dir / tool), *args]
        # cwd: the postgres user may not be allowed into the directory pytest runs in.
        done = subprocess.run(command, cwd=self.root, capture_output=True, text=True, timeout=120, check=False)
        if done.returncode != 0:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}{tail}")

    def sql(self, statement: str, *params: object, database: str = DATABASE) -> list[tuple[object, ...]]:
        """Run one statement as the superuser, outside any transaction; its rows."""
        import psycopg

        with psycopg.connect(host="127.0.0.1", port=self.port, user=USER, dbname=database, autocommit=True) as db:
            # Bytes: psycopg's types take only literal strings as queries, and ours are built.
            cursor = db.execute(statement.encode(), params or None)
            return cursor.fetchall() if cursor.description else []

    def new_schema(self) -> str:
        """A new empty schema in :data:`DATABASE`; the URL whose connections use it (and are named after it)."""
        name = f"test_{next(self._names)}"
        self.sql(f"CREATE SCHEMA {name}")
        return self.url(schema=name)

    def sessions(self, url: str) -> list[str]:
        """The states (``idle``, ``idle in transaction``, ...) of the open connections of a :meth:`new_schema` URL."""
        name = url.rpartition("application_name=")[2]
        rows = self.sql("SELECT state FROM pg_stat_activity WHERE application_name = %s", name)
        return [str(state) for (state,) in rows]

    def drop_sessions(self, url: str) -> int:
        """Cut every connection of a :meth:`new_schema` URL, as a database restart would; how many."""
        name = url.rpartition("application_name=")[2]
        return len(self.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s", name))


@contextlib.contextmanager
def start_cluster(bin_dir: Path, *, durable: bool = False) -> Iterator[PostgresCluster]:
    """initdb a cluster in a new temporary folder, start it, and stop and delete it at the end.

    ``durable``: with fsync on, as in production (bench/web_load.py measures with it); tests run without.
    """
    as_root = os.geteuid() == 0
    # As root, in /tmp: the postgres user must reach the folder, and $TMPDIR may be root's own.
    root = Path(tempfile.mkdtemp(prefix="bummerl-pg-", dir="/tmp" if as_root else None))
    run_as: list[str] = []
    if as_root:
        owner = pwd.getpwnam("postgres")  # KeyError: no postgres user, the package is not installed
        os.chown(root, owner.pw_uid, owner.pw_gid)
        run_as = ["runuser", "-u", "postgres", "--"]
    cluster = PostgresCluster(bin_dir, root, _free_port(), run_as)
    try:
        cluster.run("initdb", "-D", str(cluster.data_dir), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        for attempt in range(3):
            # Only loopback and a socket in our folder; fsync off: a test database need not survive a power cut.
            options = f"-h 127.0.0.1 -p {cluster.port} -k {root}"
            if not durable:
                options += " -c fsync=off -c full_page_writes=off"
            try:
                cluster.run(
                    "pg_ctl",
                    "-D",
                    str(cluster.data_dir),
                    "-l",
                    str(root / "server.log"),
                    "-o",
                    options,
                    "-w",
                    "-t",
                    "60",
                    "start",
                )
                break
            except RuntimeError:
                if attempt == 2:
                    raise
                # Another process took the port between _free_port and the start: try another one.
                cluster.port = _free_port()
        try:
            cluster.sql(f"CREATE DATABASE {DATABASE}", database="postgres")
            yield cluster
        finally:
            cluster.run("pg_ctl", "-D", str(cluster.data_dir), "-m", "immediate", "-w", "stop")
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {reason}: the PostgreSQL tests cannot run", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresCluster]:
    """A running PostgreSQL cluster for the whole test session."""
    bin_dir = find_pg_bin()
    if bin_dir is None:
        _unavailable("no PostgreSQL server binaries (initdb, pg_ctl; Debian: apt-get install postgresql)")
    if importlib.util.find_spec("psycopg") is None:
        _unavailable("the psycopg driver is not installed (pip install -e '.[postgres]')")
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            _unavailable("running as root and there is no 'postgres' user to run the server as")
    assert bin_dir is not None
    with start_cluster(bin_dir) as cluster:
        yield cluster


@pytest.fixture
def postgres_url(postgres_server: PostgresCluster) -> str:
    """An empty schema of its own for the test, as an SQLAlchemy URL."""
    return postgres_server.new_schema()
