"""Opening a PlayBench database: URL choice, SQLite pragmas, schema checks and migrations.

Any SQLAlchemy URL works; SQLite files get WAL journaling (readers never block the writer),
foreign keys, a busy timeout for a second process, and ``synchronous=NORMAL`` - in WAL mode a
committed transaction survives a killed process, which is the crash the recorder must survive;
``PLAYBENCH_SQLITE_SYNC=FULL`` buys safety against power loss too at the cost of an fsync per step.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs
import sqlalchemy as sa
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError, OperationalError
from sqlalchemy.orm import sessionmaker

VERSION_TABLE = "playbench_schema"
ENV_VAR = "PLAYBENCH_DB"
_MIGRATIONS = Path(__file__).with_name("migrations")
_MIGRATION_LOCK = 0x706C6179  # "play": the PostgreSQL advisory lock key migrations hold


class DatabaseProblem(RuntimeError):
    """The database cannot be used; the message says which one and why."""


def default_url() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    directory = Path(platformdirs.user_data_dir("playbench", appauthor=False))
    return f"sqlite:///{directory / 'playbench.sqlite3'}"


def choose_url(explicit: str | None = None) -> str:
    """``--db`` first, then ``PLAYBENCH_DB``, then the default file."""
    return explicit or os.environ.get(ENV_VAR) or default_url()


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    sync = os.environ.get("PLAYBENCH_SQLITE_SYNC", "NORMAL").upper()
    if sync not in {"OFF", "NORMAL", "FULL", "EXTRA"}:
        sync = "NORMAL"
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA busy_timeout=15000")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(f"PRAGMA synchronous={sync}")
    cur.close()


def _alembic_config():
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    return cfg


def known_revisions() -> list[str]:
    """Our schema revisions, oldest first: their ids are the migration files' number prefixes
    (a test checks this against Alembic's own view). Reading the names instead of loading
    Alembic keeps it out of start-up unless a database actually needs migrating."""
    return sorted(p.name.split("_", 1)[0] for p in (_MIGRATIONS / "versions").glob("[0-9]*_*.py"))


def head_revision() -> str:
    return known_revisions()[-1]


def make_engine(url: str) -> Engine:
    """An engine for ``url``; for SQLite files the parent directory must exist."""
    u = sa.engine.make_url(url)
    if u.get_backend_name() == "sqlite":
        if u.database and u.database != ":memory:":
            parent = Path(u.database).expanduser().parent
            if not parent.exists():
                if url == default_url():
                    parent.mkdir(parents=True, exist_ok=True)
                else:
                    raise DatabaseProblem(f"{u.database}: directory {parent} does not exist")
        engine = sa.create_engine(url, connect_args={"timeout": 15})
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return sa.create_engine(url, pool_pre_ping=True)


def _describe(url: str) -> str:
    u = sa.engine.make_url(url)
    return u.database if u.get_backend_name() == "sqlite" else u.render_as_string(hide_password=True)


def _probe_engine(engine: Engine, url: str) -> Engine:
    """For SQLite, a plain engine without our pragmas: switching a foreign file to WAL would
    already change it, and a refused file must stay byte for byte as it was."""
    if engine.dialect.name != "sqlite":
        return engine
    return sa.create_engine(url, poolclass=sa.pool.NullPool)


def check_and_migrate(engine: Engine, url: str) -> str:
    """Refuse databases that are not PlayBench's (or newer than this program), then bring
    the schema to the newest revision. Returns the revision now in place."""
    where = _describe(url)
    known = known_revisions()
    probe = _probe_engine(engine, url)
    try:
        with probe.connect() as conn:
            tables = set(sa.inspect(conn).get_table_names())
            current = conn.exec_driver_sql(
                f"SELECT version_num FROM {VERSION_TABLE}").scalar() if VERSION_TABLE in tables \
                else None
    except (DatabaseError, OperationalError) as err:
        reason = str(getattr(err, "orig", err)) or type(err).__name__
        raise DatabaseProblem(f"{where}: cannot open the database ({reason})") from None
    finally:
        if probe is not engine:
            probe.dispose()
    if tables and VERSION_TABLE not in tables:
        shown = ", ".join(sorted(tables)[:5])
        raise DatabaseProblem(
            f"{where}: not a PlayBench database (it has other tables: {shown}); "
            "choose another file with --db or PLAYBENCH_DB")
    if current is not None and current not in known:
        raise DatabaseProblem(
            f"{where}: written by a newer PlayBench (schema revision {current}); "
            "upgrade PlayBench to open it")
    head = known[-1]
    if current != head:
        from alembic import command
        cfg = _alembic_config()
        with engine.begin() as conn:
            if engine.dialect.name == "postgresql":
                # Two app processes starting on a fresh shared database would both migrate;
                # the second waits here, then finds the schema at head and does nothing.
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    return head


@dataclass
class Database:
    """An open, migrated database and its session factory."""

    url: str
    engine: Engine
    sessions: sessionmaker

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    def dispose(self) -> None:
        self.engine.dispose()


def open_database(url: str | None = None, *, migrate: bool = True) -> Database:
    """Open (and, unless told otherwise, migrate) the database named by ``url``."""
    url = choose_url(url)
    try:
        engine = make_engine(url)
    except sa.exc.ArgumentError as err:
        raise DatabaseProblem(f"bad database URL {url!r}: {err}") from None
    except ModuleNotFoundError as err:
        raise DatabaseProblem(f"no driver for {url!r}: {err}") from None
    if migrate:
        try:
            check_and_migrate(engine, url)
        except Exception:
            engine.dispose()
            raise
    return Database(url, engine, sessionmaker(engine, expire_on_commit=False))
