"""The store on SQLite and on a real PostgreSQL: opening (default file, URLs, unreachable
servers), the migrations, and what the repositories keep."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import asyncpg
import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, Table, insert, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

import pagelens.store
import pagelens.store.database
from pagelens.errors import ErrorCode
from pagelens.store import (
    URL_ENV,
    MessageChanges,
    RecordNotFoundError,
    RunChanges,
    SessionChanges,
    Store,
    StoreUnavailableError,
    default_database_path,
)
from pagelens.store.migrate import alembic_config
from pagelens.store.schema import Base, MessageRow
from pagelens.store.urls import resolve_url
from tests.store_support import admin_dsn

pytest_plugins = ["tests.store_support"]

# The newest revision shipped: the highest-numbered file of migrations/versions.
VERSIONS = Path(pagelens.store.__file__).parent / "migrations" / "versions"
HEAD = max(path.name[:4] for path in VERSIONS.glob("[0-9]*.py"))
TABLES = {"skills", "meta", "sessions", "messages", "runs", "chat_cache", "alembic_version"}


def table_names(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names())


# Opening


async def test_no_url_opens_the_sqlite_file_in_the_user_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(URL_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected = tmp_path / "data" / "pagelens" / "pagelens.db"
    assert default_database_path() == expected
    async with await Store.open() as store:
        assert store.url == f"sqlite+aiosqlite:///{expected}"
        await store.meta.set("hello", "world")
    assert expected.is_file()


async def test_the_environment_names_the_default_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = tmp_path / "chosen.db"
    monkeypatch.setenv(URL_ENV, f"sqlite:///{chosen}")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    async with await Store.open() as store:
        assert store.url == f"sqlite+aiosqlite:///{chosen}"
    assert chosen.is_file() and not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    ("given", "opened"),
    [
        ("sqlite:///tmp/a.db", "sqlite+aiosqlite:///tmp/a.db"),
        ("sqlite+aiosqlite:///tmp/a.db", "sqlite+aiosqlite:///tmp/a.db"),
        ("postgresql://u:pw@db:5432/x", "postgresql+asyncpg://u:***@db:5432/x"),
        ("postgres://u@db/x", "postgresql+asyncpg://u@db/x"),
        ("postgresql+asyncpg://u@db/x", "postgresql+asyncpg://u@db/x"),
    ],
)
def test_plain_urls_get_the_async_drivers(given: str, opened: str) -> None:
    assert resolve_url(given).render_as_string(hide_password=True) == opened


@pytest.mark.parametrize("url", ["mysql://u:secret@db/x", "not a url", "postgresql+psycopg2://u:secret@db/x"])
async def test_unsupported_urls_are_refused_without_their_password(url: str) -> None:
    with pytest.raises(StoreUnavailableError) as caught:
        await Store.open(url)
    assert caught.value.code == ErrorCode.STORE_UNAVAILABLE
    assert "secret" not in str(caught.value)


async def test_an_unreachable_postgresql_fails_fast_and_hides_the_password() -> None:
    started = time.monotonic()
    with pytest.raises(StoreUnavailableError) as caught:
        await Store.open("postgresql://pagelens:s3cret-pw@127.0.0.1:1/pagelens")
    assert time.monotonic() - started < 5
    assert caught.value.code == ErrorCode.STORE_UNAVAILABLE
    assert "postgresql+asyncpg://pagelens:***@127.0.0.1:1/pagelens" in caught.value.message
    assert "s3cret-pw" not in str(caught.value) and "s3cret-pw" not in repr(caught.value.to_dict())


async def test_an_sqlite_file_in_a_missing_folder_is_unavailable(tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailableError) as caught:
        await Store.open(f"sqlite:///{tmp_path}/missing/folder/pagelens.db")
    assert str(tmp_path / "missing") in caught.value.message


async def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path: Path) -> None:
    async with await Store.open(f"sqlite:///{tmp_path}/p.db") as store, store._database.engine.connect() as connection:
        assert (await connection.scalar(text("PRAGMA journal_mode"))) == "wal"
        assert (await connection.scalar(text("PRAGMA foreign_keys"))) == 1
        assert (await connection.scalar(text("PRAGMA synchronous"))) == 1  # NORMAL: syncs at checkpoints


async def test_a_connection_the_server_closed_is_replaced(postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pagelens.store.database, "IDLE_PING_S", 0.0)  # every connection counts as idle
    async with await Store.open(postgres_url) as store:
        await store.meta.set("before", "1")
        admin = await asyncpg.connect(admin_dsn())
        try:
            closed = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = $1",
                make_url(postgres_url).database,
            )
        finally:
            await admin.close()
        assert closed >= 1
        assert await store.meta.get("before") == "1"


# Migrations


async def test_opening_migrates_to_the_tables_of_the_schema(store: Store) -> None:
    async with store._database.engine.connect() as connection:
        assert await connection.run_sync(table_names) == TABLES
        differences = await connection.run_sync(
            lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
        )
    assert differences == [], "the models and the migrations disagree: write a revision"


async def test_migrations_go_down_and_up_again(store: Store) -> None:
    async with store._database.engine.begin() as connection:
        await connection.run_sync(lambda sync: command.downgrade(alembic_config(sync), "base"))
        assert await connection.run_sync(table_names) <= {"alembic_version"}
        await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "head"))
        assert await connection.run_sync(table_names) == TABLES


async def test_reopening_keeps_the_data_and_migrates_nothing(database_url: str) -> None:
    async with await Store.open(database_url) as store:
        session = await store.sessions.create(title="kept")
        await store.messages.append(session.id, "user", "hello")
    async with await Store.open(database_url) as store:
        reopened = await store.sessions.get(session.id)
        assert reopened is not None and (reopened.id, reopened.title) == (session.id, "kept")
        assert [m.content for m in await store.messages.list(session.id)] == ["hello"]
        async with store._database.engine.connect() as connection:
            assert (await connection.scalar(text("SELECT version_num FROM alembic_version"))) == HEAD


async def test_two_stores_open_one_database_at_once(database_url: str) -> None:
    first, second = await asyncio.gather(Store.open(database_url), Store.open(database_url))
    try:
        await first.meta.set("writer", "first")
        assert await second.meta.get("writer") == "first"
    finally:
        await first.close()
        await second.close()


async def test_a_new_sqlite_file_being_written_by_another_opens_once_it_is_free(tmp_path: Path) -> None:
    """Switching a new SQLite file to WAL needs it to itself, and SQLite refuses that at
    once, without its busy wait, while another connection writes: as when two daemons
    start on one new file and the first is migrating it. The second waits its turn."""
    path = tmp_path / "pagelens.db"
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("CREATE TABLE theirs (x)")
    other.execute("BEGIN IMMEDIATE")
    asyncio.get_running_loop().call_later(0.5, other.execute, "COMMIT")
    started = time.monotonic()
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    try:
        assert time.monotonic() - started >= 0.5
        await store.meta.set("writer", "second")
        assert await store.meta.get("writer") == "second"
    finally:
        await store.close()
        other.close()


# Sessions


async def test_sessions_are_created_read_listed_and_updated(store: Store) -> None:
    created = await store.sessions.create(
        title="Find flights", tab_id="tab-1", url="https://WWW.Example.com:8443/a?q=1", metadata={"k": [1]}
    )
    assert len(created.id) == 36 and created.domain == "example.com"
    assert (created.status, created.is_renamed, created.metadata) == ("active", False, {"k": [1]})
    assert created.created_at.tzinfo is not None
    assert await store.sessions.get(created.id) == created
    assert await store.sessions.get("no-such-id") is None

    renamed = await store.sessions.update(
        created.id, SessionChanges(title="Flights to Lisbon", is_renamed=True, url="https://b.org/")
    )
    assert (renamed.title, renamed.is_renamed, renamed.domain, renamed.tab_id) == (
        "Flights to Lisbon",
        True,
        "b.org",
        "tab-1",
    )
    assert renamed.updated_at > created.updated_at
    assert await store.sessions.get(created.id) == renamed

    cleared = await store.sessions.update(created.id, SessionChanges(tab_id=None, metadata={}))
    assert (cleared.tab_id, cleared.metadata, cleared.title) == (None, {}, "Flights to Lisbon")

    with pytest.raises(RecordNotFoundError) as caught:
        await store.sessions.update("no-such-id", SessionChanges(title="x"))
    assert caught.value.code == ErrorCode.RECORD_NOT_FOUND


async def test_a_rename_is_not_activity(store: Store) -> None:
    older = await store.sessions.create(title="older")
    newer = await store.sessions.create(title="newer")
    renamed = await store.sessions.update(older.id, SessionChanges(title="Mine", is_renamed=True))
    assert (renamed.title, renamed.updated_at) == ("Mine", older.updated_at)
    assert await store.sessions.latest() == newer
    moved = await store.sessions.update(older.id, SessionChanges(url="https://b.org/"))
    assert moved.updated_at > older.updated_at  # the session following its tab is


async def test_nul_characters_are_dropped_from_text_on_both_databases(store: Store) -> None:
    session = await store.sessions.create(title="a\x00b", url="https://x.org/\x00", metadata={"page": "c\x00d"})
    assert await store.sessions.get(session.id) == session  # the record is what was stored
    message = await store.messages.append(session.id, "assistant", "page text\x00 with a NUL", error="e\x00")
    run = await store.runs.create("t\x00ask", session_id=session.id, state={"seen": "\x00"})
    assert (session.title, session.url, session.metadata) == ("ab", "https://x.org/", {"page": "c\x00d"})
    assert (message.content, message.error) == ("page text with a NUL", "e")
    updated = await store.messages.update(message.id, MessageChanges(content="grown\x00", metadata={"k": "\x00"}))
    assert (updated.content, updated.metadata) == ("grown", {"k": "\x00"})
    assert await store.messages.get(message.id) == updated
    assert (run.task, run.state) == ("task", {"seen": "\x00"})  # JSON keeps it, as the escape \u0000
    assert await store.runs.get(run.id) == run
    assert await store.sessions.latest(domain="\x00") is None


async def test_sessions_list_the_most_recently_active_first(store: Store) -> None:
    older = await store.sessions.create(title="older")
    newer = await store.sessions.create(title="newer")
    archived = await store.sessions.create(title="archived", status="archived")
    assert [s.title for s in await store.sessions.list()] == ["archived", "newer", "older"]
    await store.messages.append(older.id, "user", "back to this one")
    assert [s.id for s in await store.sessions.list(status="active")] == [older.id, newer.id]
    assert [s.id for s in await store.sessions.list(limit=2, offset=1)] == [archived.id, newer.id]
    assert [s.id for s in await store.sessions.list(status="archived")] == [archived.id]


async def test_sessions_are_found_by_root_domain_tab_and_recency(store: Store) -> None:
    assert await store.sessions.latest() is None and await store.sessions.count() == 0
    mail = await store.sessions.create(tab_id="tab-1", url="https://mail.google.com/u/0")
    uk = await store.sessions.create(tab_id="tab-2", url="https://a.b.example.co.uk/x")
    assert (mail.domain, uk.domain) == ("google.com", "example.co.uk")
    assert await store.sessions.latest() == uk
    assert await store.sessions.latest(domain="google.com") == mail
    assert await store.sessions.latest(domain="https://www.google.com/search") == mail
    assert await store.sessions.latest(domain="example.org") is None
    assert await store.sessions.latest(domain="about:blank") is None
    assert await store.sessions.of_tab("tab-1") == mail and await store.sessions.of_tab("tab-9") is None
    archived = await store.sessions.create(tab_id="tab-1", status="archived")
    assert await store.sessions.of_tab("tab-1") == mail
    assert (await store.sessions.count(), await store.sessions.count(status="archived")) == (3, 1)
    assert await store.sessions.latest() == archived

    moved = await store.sessions.update(mail.id, SessionChanges(url="https://github.com/x"))
    assert moved.domain == "github.com"
    named = await store.sessions.update(mail.id, SessionChanges(url="http://localhost:8080/", domain="mine"))
    assert (named.url, named.domain) == ("http://localhost:8080/", "mine")


# Messages


async def test_messages_are_numbered_in_order_per_session(store: Store) -> None:
    first, other = await store.sessions.create(), await store.sessions.create()
    for role, content in [("user", "hi"), ("assistant", "hello"), ("user", "bye")]:
        await store.messages.append(first.id, role, content)  # type: ignore[arg-type]
    await store.messages.append(other.id, "system", "you are helpful")

    messages = await store.messages.list(first.id)
    assert [(m.sequence_number, m.role, m.content) for m in messages] == [
        (1, "user", "hi"),
        (2, "assistant", "hello"),
        (3, "user", "bye"),
    ]
    assert [m.sequence_number for m in await store.messages.list(other.id)] == [1]
    assert [m.content for m in await store.messages.list(first.id, after=1)] == ["hello", "bye"]
    assert [m.content for m in await store.messages.list(first.id, after=1, limit=1)] == ["hello"]


async def test_concurrent_appends_get_distinct_numbers(store: Store) -> None:
    session = await store.sessions.create()
    await asyncio.gather(*(store.messages.append(session.id, "user", str(n)) for n in range(8)))
    assert sorted(m.sequence_number for m in await store.messages.list(session.id)) == list(range(1, 9))


async def test_atomic_writes_all_or_nothing(store: Store) -> None:
    async with store.atomic():
        session = await store.sessions.create(title="kept")
        await store.messages.append(session.id, "user", "one")
        await store.messages.append(session.id, "user", "two")
    with pytest.raises(RuntimeError):
        async with store.atomic():
            await store.sessions.update(session.id, SessionChanges(title="lost"))
            await store.messages.append(session.id, "user", "lost")
            raise RuntimeError("the step failed")
    kept = await store.sessions.get(session.id)
    assert kept is not None and kept.title == "kept"
    assert [m.content for m in await store.messages.list(session.id)] == ["one", "two"]


async def test_a_task_started_inside_atomic_writes_on_its_own(store: Store) -> None:
    session = await store.sessions.create()
    with pytest.raises(RuntimeError):
        async with store.atomic():
            await store.messages.append(session.id, "user", "rolled back")
            child = asyncio.create_task(store.messages.append(session.id, "user", "its own"))
            await asyncio.sleep(0.05)
            raise RuntimeError("the step failed")
    await child
    assert [m.content for m in await store.messages.list(session.id)] == ["its own"]


async def test_the_database_refuses_a_duplicate_number(store: Store) -> None:
    session = await store.sessions.create()
    await store.messages.append(session.id, "user", "one")
    row = {"session_id": session.id, "sequence_number": 1, "role": "user", "content": "dup", "status": "complete"}
    table = MessageRow.__table__  # the table itself, by its column names ("metadata" is `details` on the row)
    assert isinstance(table, Table)  # declared as any FromClause
    with pytest.raises(IntegrityError):
        async with store._database.engine.begin() as connection:
            await connection.execute(insert(table).values(id="dup", metadata={}, **row))


async def test_messages_keep_actions_and_can_be_completed(store: Store) -> None:
    session = await store.sessions.create()
    message = await store.messages.append(
        session.id,
        "assistant",
        "",
        status="streaming",
        action_string="click(12)",
        action_payload={"action": "click", "element_id": "12"},
        metadata={"model": "m"},
    )
    assert await store.messages.get(message.id) == message
    done = await store.messages.update(message.id, MessageChanges(content="Clicked.", status="complete"))
    assert (done.content, done.status, done.action_payload, done.metadata) == (
        "Clicked.",
        "complete",
        {"action": "click", "element_id": "12"},
        {"model": "m"},
    )
    failed = await store.messages.update(message.id, MessageChanges(status="error", error="occluded"))
    assert (failed.error, failed.content) == ("occluded", "Clicked.")
    assert await store.messages.get("no-such-id") is None
    with pytest.raises(RecordNotFoundError):
        await store.messages.update("no-such-id", MessageChanges(status="error"))


async def test_a_message_needs_its_session(store: Store) -> None:
    with pytest.raises(RecordNotFoundError):
        await store.messages.append("no-such-session", "user", "hi")


async def test_deleting_a_session_deletes_its_messages_and_keeps_its_runs(store: Store) -> None:
    session = await store.sessions.create()
    message = await store.messages.append(session.id, "user", "hi")
    run = await store.runs.create("task", session_id=session.id)
    async with store._database.engine.begin() as connection:
        await connection.execute(text("DELETE FROM sessions WHERE id = :id"), {"id": session.id})
    assert await store.messages.get(message.id) is None
    kept = await store.runs.get(run.id)
    assert kept is not None and kept.session_id is None


# Runs


async def test_runs_are_created_read_listed_and_updated(store: Store) -> None:
    session = await store.sessions.create()
    run = await store.runs.create("find the cheapest flight", session_id=session.id, url="https://x.org", model="m")
    assert (run.status, run.plan, run.result, run.session_id) == ("pending", None, None, session.id)
    assert await store.runs.get(run.id) == run
    assert await store.runs.get("no-such-id") is None

    plan = [{"step": "search", "done": False}]
    running = await store.runs.update(run.id, RunChanges(status="running", plan=plan))
    assert (running.status, running.plan, running.task) == ("running", plan, "find the cheapest flight")
    finished = await store.runs.update(run.id, RunChanges(status="succeeded", result="42 EUR"))
    assert (finished.status, finished.result, finished.plan) == ("succeeded", "42 EUR", plan)
    assert finished.updated_at >= running.updated_at > run.updated_at

    lone = await store.runs.create("read the news")
    assert [r.id for r in await store.runs.list()] == [lone.id, run.id]
    assert [r.id for r in await store.runs.list(session_id=session.id)] == [run.id]
    with pytest.raises(RecordNotFoundError):
        await store.runs.update("no-such-id", RunChanges(status="failed"))
    with pytest.raises(RecordNotFoundError):
        await store.runs.create("orphan", session_id="no-such-session")


# Meta


async def test_meta_values_are_set_and_overwritten(store: Store) -> None:
    assert await store.meta.get("k") is None
    await store.meta.set("k", "1")
    await store.meta.set("k", "2")
    assert await store.meta.get("k") == "2"


async def test_runs_keep_their_kind_and_state_and_the_chat_cache_its_histories(store: Store) -> None:
    task = await store.runs.create("Search", kind="interact", state={"brain": {"task": "Search"}})
    assert (task.kind, task.state) == ("interact", {"brain": {"task": "Search"}})
    assert (await store.runs.create("Run")).kind == "run"
    updated = await store.runs.update(task.id, RunChanges(state={"pending": None}))
    assert updated.state == {"pending": None} and updated.task == "Search"

    assert await store.chat_cache.get("k" * 64) is None
    await store.chat_cache.put("k" * 64, [{"role": "user", "content": "hi"}])
    await store.chat_cache.put("k" * 64, [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}])
    assert [m["content"] for m in await store.chat_cache.get("k" * 64) or []] == ["hi", "yo"]
