"""The `chat_cache` table: a chat's messages by the key of what it was about, so a client
that comes back to the same page with the same settings gets its history again."""

from __future__ import annotations

from typing import Any

from pagelens.store.database import Database
from pagelens.store.schema import ChatCacheRow, utcnow


class ChatCacheRepository:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def get(self, key: str) -> list[dict[str, Any]] | None:
        async with self._database.transaction() as session:
            row = await session.get(ChatCacheRow, key)
            return list(row.messages) if row is not None else None

    async def put(self, key: str, messages: list[dict[str, Any]]) -> None:
        async with self._database.transaction() as session:
            row = await session.get(ChatCacheRow, key)
            if row is None:
                session.add(ChatCacheRow(key=key, messages=messages))
            else:
                row.messages, row.updated_at = messages, utcnow()
