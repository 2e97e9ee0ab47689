"""The `sessions` table: the agent's conversations, newest activity first, each on the
root domain of its URL (domains.py). Statements are Core ones (a write returns the row
it wrote): a daemon runs them on every call."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, func, insert, select
from sqlalchemy.ext.asyncio import AsyncSession

from pagelens.store.database import Database
from pagelens.store.domains import root_domain
from pagelens.store.errors import RecordNotFoundError
from pagelens.store.records import SessionChanges, SessionRecord
from pagelens.store.schema import SESSION_FIELDS, SessionRow

# Changes that only name the session: not activity, so its `updated_at` stays.
_NAMING = frozenset({"title", "is_renamed"})


class SessionRepository:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def create(
        self,
        *,
        title: str = "",
        tab_id: str | None = None,
        url: str | None = None,
        metadata: dict[str, Any] | None = None,
        status: str = "active",
    ) -> SessionRecord:
        # Returned as written (RETURNING): the record is what the database keeps.
        add = (
            insert(SessionRow)
            .values(
                {
                    SessionRow.title: title,
                    SessionRow.tab_id: tab_id,
                    SessionRow.url: url,
                    SessionRow.domain: root_domain(url),
                    SessionRow.details: metadata or {},
                    SessionRow.status: status,
                    SessionRow.is_renamed: False,
                }
            )
            .returning(*SESSION_FIELDS)
        )
        async with self._database.transaction() as session:
            return SessionRecord.model_validate((await session.execute(add)).one())

    async def get(self, session_id: str) -> SessionRecord | None:
        return await self._first(select(*SESSION_FIELDS).where(SessionRow.id == session_id))

    async def list(self, *, status: str | None = None, limit: int = 50, offset: int = 0) -> list[SessionRecord]:
        """Sessions with the most recent activity first."""
        query = _newest_first()
        if status is not None:
            query = query.where(SessionRow.status == status)
        async with self._database.transaction() as session:
            rows = await session.execute(query.limit(limit).offset(offset))
            return [SessionRecord.model_validate(row) for row in rows]

    async def count(self, *, status: str | None = None) -> int:
        query = select(func.count()).select_from(SessionRow)
        if status is not None:
            query = query.where(SessionRow.status == status)
        async with self._database.transaction() as session:
            return int(await session.scalar(query) or 0)

    async def latest(self, *, domain: str | None = None) -> SessionRecord | None:
        """The session with the most recent activity, of all or of one root domain (a
        host or URL given is taken to its root: `www.google.com` finds `google.com`'s)."""
        query = _newest_first()
        if domain is not None:
            root = root_domain(domain)
            if root is None:  # `about:blank` is on no domain; `== None` would match every such session
                return None
            query = query.where(SessionRow.domain == root)
        return await self._first(query)

    async def of_tab(self, tab_id: str) -> SessionRecord | None:
        """The tab's chat (tabId → sessionId): its active session with the most recent activity."""
        return await self._first(_newest_first().where(SessionRow.tab_id == tab_id, SessionRow.status == "active"))

    async def update(self, session_id: str, changes: SessionChanges) -> SessionRecord:
        values = changes.model_dump(exclude_unset=True)
        if "metadata" in values:
            values["details"] = values.pop("metadata")
        if "url" in values and "domain" not in values:
            values["domain"] = root_domain(values["url"])
        if values and values.keys() <= _NAMING:
            values["updated_at"] = SessionRow.updated_at  # set to itself: no onupdate
        row = await self._database.update_row(SessionRow, session_id, values, SESSION_FIELDS)
        if row is None:
            raise RecordNotFoundError(f"no session has the id {session_id!r}")
        return SessionRecord.model_validate(row)

    async def _first(self, query: Select[Any]) -> SessionRecord | None:
        async with self._database.transaction() as session:
            row = (await session.execute(query.limit(1))).first()
            return SessionRecord.model_validate(row) if row is not None else None


def _newest_first() -> Select[Any]:
    # The id breaks ties between sessions touched in the same instant, so pages never overlap.
    return select(*SESSION_FIELDS).order_by(SessionRow.updated_at.desc(), SessionRow.id)


async def require_session(session: AsyncSession, session_id: str) -> None:
    """RecordNotFoundError unless the session exists."""
    if await session.scalar(select(SessionRow.id).where(SessionRow.id == session_id)) is None:
        raise RecordNotFoundError(f"no session has the id {session_id!r}")
