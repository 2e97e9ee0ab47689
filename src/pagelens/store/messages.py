"""The `messages` table: a session's messages, numbered 1, 2, ... in the order they were added."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from pagelens.store.database import Database
from pagelens.store.errors import RecordNotFoundError
from pagelens.store.records import MessageChanges, MessageRecord, Role
from pagelens.store.schema import MessageRow, utcnow
from pagelens.store.sessions import existing_session


class MessageRepository:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def append(
        self,
        session_id: str,
        role: Role,
        content: str,
        *,
        status: str = "complete",
        action_string: str | None = None,
        action_payload: dict[str, Any] | None = None,
        error: str | None = None,
        metadata: dict[str, Any] | None = None,
    ) -> MessageRecord:
        """Add a message after the session's last one; the session counts as active now."""
        async with self._database.transaction() as session:
            # Locking the session's row makes appends to one session take turns, so two
            # writers never pick the same number (SQLite's BEGIN IMMEDIATE already does).
            owner = await existing_session(session, session_id, for_update=True)
            last = await session.scalar(
                select(func.max(MessageRow.sequence_number)).where(MessageRow.session_id == session_id)
            )
            row = MessageRow(
                session_id=session_id,
                sequence_number=(last or 0) + 1,
                role=role,
                content=content,
                status=status,
                action_string=action_string,
                action_payload=action_payload,
                error=error,
                details=metadata or {},
            )
            session.add(row)
            owner.updated_at = utcnow()
            await session.flush()
            return MessageRecord.model_validate(row)

    async def get(self, message_id: str) -> MessageRecord | None:
        async with self._database.transaction() as session:
            row = await session.get(MessageRow, message_id)
            return MessageRecord.model_validate(row) if row is not None else None

    async def list(self, session_id: str, *, after: int = 0, limit: int | None = None) -> list[MessageRecord]:
        """The session's messages in order, those numbered above `after` (to read only what is new)."""
        query = (
            select(MessageRow)
            .where(MessageRow.session_id == session_id, MessageRow.sequence_number > after)
            .order_by(MessageRow.sequence_number)
            .limit(limit)
        )
        async with self._database.transaction() as session:
            return [MessageRecord.model_validate(row) for row in await session.scalars(query)]

    async def update(self, message_id: str, changes: MessageChanges) -> MessageRecord:
        async with self._database.transaction() as session:
            row = await session.get(MessageRow, message_id)
            if row is None:
                raise RecordNotFoundError(f"no message has the id {message_id!r}")
            values = changes.model_dump(exclude_unset=True)
            if "metadata" in values:
                row.details = values.pop("metadata")
            for column, value in values.items():
                setattr(row, column, value)
            await session.flush()
            return MessageRecord.model_validate(row)
