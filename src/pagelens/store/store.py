"""`Store`: the database opened, migrated to the newest schema, and its repositories."""

from __future__ import annotations

import contextlib
from types import TracebackType

from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from pagelens.errors import first_line
from pagelens.store.chat_cache import ChatCacheRepository
from pagelens.store.database import Database, create_engine
from pagelens.store.errors import StoreUnavailableError
from pagelens.store.messages import MessageRepository
from pagelens.store.meta import MetaRepository
from pagelens.store.migrate import upgrade
from pagelens.store.runs import RunRepository
from pagelens.store.sessions import SessionRepository
from pagelens.store.skills import SkillRepository
from pagelens.store.urls import redact_text, resolve_url, shown


class Store:
    """The database pagelens keeps its state in. `await Store.open(url)` (or `async with
    await Store.open() as store:`), then `store.skills`, `store.sessions`,
    `store.messages`, `store.runs`, `store.meta`, `store.chat_cache`."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self.skills = SkillRepository(database)
        self.sessions = SessionRepository(database)
        self.messages = MessageRepository(database)
        self.runs = RunRepository(database)
        self.meta = MetaRepository(database)
        self.chat_cache = ChatCacheRepository(database)

    def atomic(self) -> contextlib.AbstractAsyncContextManager[object]:
        """One transaction for every call of the repositories made inside it (in this
        task): all of them are written, or none. Fewer commits, too: a step of the agent
        writes its run, its session and its message at once. Keep slow work (a model's
        answer) out of it: on SQLite it holds the only connection."""
        return self._database.transaction()

    @property
    def url(self) -> str:
        """The database's URL, its password masked."""
        return shown(self._database.engine.url)

    @classmethod
    async def open(cls, url: str | None = None) -> Store:
        """Open the database at `url` (None: $PAGELENS_DATABASE_URL, else the SQLite file
        in the user's data dir) and migrate it. Raises StoreUnavailableError when it
        cannot be reached, opened or migrated."""
        resolved = resolve_url(url)
        engine = create_engine(resolved)
        try:
            async with engine.begin() as connection:
                await connection.run_sync(upgrade)
        except (SQLAlchemyError, OSError) as exc:
            await engine.dispose()
            reason = _reason(exc, resolved)
            raise StoreUnavailableError(f"cannot open the database at {shown(resolved)}: {reason}") from exc
        return cls(Database(engine))

    async def close(self) -> None:
        await self._database.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()


def _reason(exc: BaseException, url: URL) -> str:
    # A driver may quote the URL it was given; the password must not reach the message.
    text = redact_text(first_line(exc))
    return text.replace(url.password, "***") if isinstance(url.password, str) and url.password else text
