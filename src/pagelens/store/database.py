"""The engine and its transactions: SQLite set up for a store several processes share,
and the driver's failures turned into the store's typed errors. A transaction opened
while another of the same database is open in the same task joins it (`atomic`)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

from pydantic_core import from_json, to_json
from sqlalchemy import Connection, Row, event, select, update
from sqlalchemy.engine import URL
from sqlalchemy.exc import DisconnectionError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry
from sqlalchemy.util import await_

from pagelens.errors import first_line
from pagelens.store.errors import StoreError

# A PostgreSQL server that does not answer fails the open after this long, not the driver's minute.
CONNECT_TIMEOUT_S = 10.0
# Connections a store keeps open to PostgreSQL (and as many more at the busiest).
POSTGRES_POOL_SIZE = 20
# A pooled connection unused this long is pinged before use.
IDLE_PING_S = 5.0
_LAST_USED = "pagelens_last_used"
# How long an SQLite writer waits for another's lock (a daemon under load, a migration on a
# busy machine) before it fails with "database is locked".
SQLITE_LOCK_WAIT_S = 30.0
_WAL_RETRY_S = 0.05


def create_engine(url: URL) -> AsyncEngine:
    engine = _engine(url)
    event.listen(engine.sync_engine, "before_cursor_execute", _without_nul, retval=True)
    return engine


def _engine(url: URL) -> AsyncEngine:
    # JSON columns (a task's state, a plan) through pydantic's Rust codec: the standard
    # library's takes several times longer on a task's state, written on every step.
    codec = {"json_serializer": _json_text, "json_deserializer": from_json}
    if url.get_backend_name() == "sqlite":
        # One connection, shared: SQLite writes one transaction at a time anyway, and
        # waiting for the connection here is first come, first served, where connections
        # polling for the file's lock let an unlucky writer starve until "database is locked".
        engine = create_async_engine(
            url,
            connect_args={"timeout": SQLITE_LOCK_WAIT_S},
            pool_size=1,
            max_overflow=0,
            pool_timeout=SQLITE_LOCK_WAIT_S,
            **codec,
        )
        event.listen(engine.sync_engine, "connect", _configure_sqlite)
        event.listen(engine.sync_engine, "begin", _begin_immediate)
        return engine
    # Connections beyond the pool's size are closed when given back: with the default five, a
    # daemon under load opened and closed one (TLS attempt and login included) every few calls.
    engine = create_async_engine(
        url,
        connect_args={"timeout": CONNECT_TIMEOUT_S},
        pool_size=POSTGRES_POOL_SIZE,
        max_overflow=POSTGRES_POOL_SIZE,
        **codec,
    )
    event.listen(engine.sync_engine, "checkout", _ping_when_idle)
    return engine


def _ping_when_idle(dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: Any) -> None:
    # A connection idle for a while may have been closed by the server (a restart, an idle
    # timeout): it is tried before use, and replaced if dead. One busy is not: the ping
    # (three round trips with asyncpg) would double a daemon step's. If the server goes
    # away under load, the statement that finds out fails, and the pool then replaces
    # every connection opened before.
    now = time.monotonic()
    idle = now - record.info.get(_LAST_USED, now)
    record.info[_LAST_USED] = now
    if idle < IDLE_PING_S:
        return
    try:
        dbapi_connection.ping()
    except Exception as exc:
        raise DisconnectionError(f"a pooled connection was dead: {exc}") from exc


def _without_nul(
    _connection: Connection, _cursor: Any, statement: str, parameters: Any, _context: Any, _executemany: bool
) -> tuple[str, Any]:
    # PostgreSQL's text cannot hold U+0000, which valid JSON and page text may carry: it is
    # dropped from every string a statement binds, on both databases, so both keep the
    # same. (JSON columns keep it: their text writes it as the escape \u0000.)
    return statement, _nul_dropped(parameters)


def _nul_dropped(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "") if "\x00" in value else value
    if isinstance(value, tuple | list):
        return type(value)(_nul_dropped(item) for item in value)
    if isinstance(value, dict):
        return {key: _nul_dropped(item) for key, item in value.items()}
    return value


def _json_text(value: Any) -> str:
    return to_json(value).decode()


def _configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets a reader (the CLI) work while a writer (the daemon) holds the file; SQLite
    # enforces foreign keys only when asked, per connection; and a writer waits for
    # another's lock a while instead of failing at once. In WAL mode, synchronous=NORMAL
    # syncs at checkpoints instead of at every commit: a commit survives the process
    # being killed, not the machine losing power in the next instants (docs/store.md).
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout={int(SQLITE_LOCK_WAIT_S * 1000)}")
    _switch_to_wal(cursor)
    for pragma in ("synchronous=NORMAL", "foreign_keys=ON"):
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()
    # The driver would otherwise begin transactions itself, late (not before DDL, so two
    # processes could run the same migration) and deferred; `_begin_immediate` does it.
    dbapi_connection.isolation_level = None


def _switch_to_wal(cursor: Any) -> None:
    # Switching a file to WAL needs it to itself. While another connection writes to it
    # (a second daemon starting on the same new file, migrating it), SQLite refuses at once,
    # without the busy wait: tried again until the lock wait is over. A file in WAL already
    # stays so, and is not refused.
    deadline = time.monotonic() + SQLITE_LOCK_WAIT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        await_(asyncio.sleep(_WAL_RETRY_S))  # this runs inside the driver's call from the event loop


def _begin_immediate(connection: Connection) -> None:
    # Every transaction takes the write lock when it starts: a transaction that reads and
    # then writes (the next message number, the migrations) cannot be overtaken by another
    # writer between the two, and a second writer waits (busy_timeout) instead of failing.
    connection.exec_driver_sql("BEGIN IMMEDIATE")


class Database:
    """An engine and the sessions made on it; each `transaction()` commits or rolls back as a whole."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session in a transaction; inside another transaction of this database (in
        the same task), that one. A failure of the database becomes StoreError; errors
        the caller raises (typed ones included) roll back and pass through."""
        current = _open.get()
        # A task started inside inherits the variable, not the right to share the session.
        if current is not None and current[0] is self and current[2] is asyncio.current_task():
            yield current[1]
            return
        try:
            async with self._sessions.begin() as session:
                joined = _open.set((self, session, asyncio.current_task()))
                try:
                    yield session
                finally:
                    _open.reset(joined)
        except SQLAlchemyError as exc:
            raise StoreError(f"the database failed: {first_line(exc)}") from exc

    async def update_row(
        self, table: Any, row_id: str, values: dict[str, Any], fields: Sequence[Any], *, where: Sequence[Any] = ()
    ) -> Row[Any] | None:
        """Set `values` on the row of `table` whose id is `row_id` and read back its
        `fields` in the same statement (UPDATE ... RETURNING); with no values, just read
        them. None when there is no such row, or it does not meet the conditions `where`."""
        conditions = (table.id == row_id, *where)
        statement: Any = select(*fields).where(*conditions)
        if values:
            statement = (
                update(table)
                .where(*conditions)
                .values({getattr(table, key): value for key, value in values.items()})
                .returning(*fields)
                .execution_options(synchronize_session=False)  # no ORM object of it is read after
            )
        async with self.transaction() as session:
            return (await session.execute(statement)).one_or_none()


# The transaction open in this task, which the repositories' calls join.
_Open = tuple[Database, AsyncSession, asyncio.Task[Any] | None]  # the database, its session, the task that opened it
_open: ContextVar[_Open | None] = ContextVar("pagelens_store_transaction", default=None)
