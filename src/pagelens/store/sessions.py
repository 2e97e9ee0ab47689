"""The `sessions` table: the agent's conversations, newest activity first."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pagelens.store.database import Database
from pagelens.store.errors import RecordNotFoundError
from pagelens.store.records import SessionChanges, SessionRecord
from pagelens.store.schema import SessionRow


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
        row = SessionRow(
            title=title,
            tab_id=tab_id,
            url=url,
            domain=domain_of(url),
            details=metadata or {},
            status=status,
            is_renamed=False,
        )
        async with self._database.transaction() as session:
            session.add(row)
            await session.flush()
            return SessionRecord.model_validate(row)

    async def get(self, session_id: str) -> SessionRecord | None:
        async with self._database.transaction() as session:
            row = await session.get(SessionRow, session_id)
            return SessionRecord.model_validate(row) if row is not None else None

    async def list(self, *, status: str | None = None, limit: int = 50, offset: int = 0) -> list[SessionRecord]:
        """Sessions with the most recent activity first."""
        query = select(SessionRow).order_by(SessionRow.updated_at.desc(), SessionRow.id)
        if status is not None:
            query = query.where(SessionRow.status == status)
        async with self._database.transaction() as session:
            rows = await session.scalars(query.limit(limit).offset(offset))
            return [SessionRecord.model_validate(row) for row in rows]

    async def update(self, session_id: str, changes: SessionChanges) -> SessionRecord:
        async with self._database.transaction() as session:
            row = await existing_session(session, session_id)
            values = changes.model_dump(exclude_unset=True)
            if "metadata" in values:
                row.details = values.pop("metadata")
            if "url" in values:
                row.domain = domain_of(values["url"])
            for column, value in values.items():
                setattr(row, column, value)
            await session.flush()
            return SessionRecord.model_validate(row)


async def existing_session(session: AsyncSession, session_id: str, *, for_update: bool = False) -> SessionRow:
    row = await session.get(SessionRow, session_id, with_for_update=for_update)
    if row is None:
        raise RecordNotFoundError(f"no session has the id {session_id!r}")
    return row


def domain_of(url: str | None) -> str | None:
    """The host a session's URL is on, lower case and without its port."""
    return urlsplit(url).hostname if url else None
