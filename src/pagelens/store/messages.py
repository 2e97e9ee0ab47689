"""The `messages` table: a session's messages, numbered 1, 2, ... in the order they were added."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, insert, select, update

from pagelens.store.database import Database
from pagelens.store.errors import RecordNotFoundError
from pagelens.store.records import MessageChanges, MessageRecord, Role
from pagelens.store.schema import MESSAGE_FIELDS, MessageRow, SessionRow, utcnow


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
        now = utcnow()
        touch = (
            update(SessionRow)
            .where(SessionRow.id == session_id)
            .values(updated_at=now)
            .returning(SessionRow.id)
            .execution_options(synchronize_session=False)  # no ORM object of it is read after (Core reads)
        )
        following = (
            select(func.coalesce(func.max(MessageRow.sequence_number), 0) + 1)
            .where(MessageRow.session_id == session_id)
            .scalar_subquery()
        )
        add = (
            insert(MessageRow)
            .values(
                {
                    MessageRow.session_id: session_id,
                    MessageRow.sequence_number: following,
                    MessageRow.role: role,
                    MessageRow.content: content,
                    MessageRow.status: status,
                    MessageRow.action_string: action_string,
                    MessageRow.action_payload: action_payload,
                    MessageRow.error: error,
                    MessageRow.details: metadata or {},
                    MessageRow.created_at: now,
                }
            )
            .returning(*MESSAGE_FIELDS)
        )
        async with self._database.transaction() as session:
            # Touching the session's row first locks it until the commit, so appends to one
            # session take turns and two never pick the same number (SQLite's BEGIN
            # IMMEDIATE already does).
            if (await session.execute(touch)).first() is None:
                raise RecordNotFoundError(f"no session has the id {session_id!r}")
            return MessageRecord.model_validate((await session.execute(add)).one())

    async def get(self, message_id: str) -> MessageRecord | None:
        async with self._database.transaction() as session:
            row = await session.get(MessageRow, message_id)
            return MessageRecord.model_validate(row) if row is not None else None

    async def list(self, session_id: str, *, after: int = 0, limit: int | None = None) -> list[MessageRecord]:
        """The session's messages in order, those numbered above `after` (to read only what is new)."""
        query = (
            select(*MESSAGE_FIELDS)
            .where(MessageRow.session_id == session_id, MessageRow.sequence_number > after)
            .order_by(MessageRow.sequence_number)
            .limit(limit)
        )
        async with self._database.transaction() as session:
            return [MessageRecord.model_validate(row) for row in await session.execute(query)]

    async def update(self, message_id: str, changes: MessageChanges) -> MessageRecord:
        values = changes.model_dump(exclude_unset=True)
        if "metadata" in values:
            values["details"] = values.pop("metadata")
        row = await self._database.update_row(MessageRow, message_id, values, MESSAGE_FIELDS)
        if row is None:
            raise RecordNotFoundError(f"no message has the id {message_id!r}")
        return MessageRecord.model_validate(row)
