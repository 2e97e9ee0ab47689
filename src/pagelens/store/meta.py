"""The `meta` table: named facts about the database (`skills_seeded`, ...)."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pagelens.store.database import Database
from pagelens.store.schema import MetaRow


class MetaRepository:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def get(self, key: str) -> str | None:
        async with self._database.transaction() as session:
            return await get_in(session, key)

    async def set(self, key: str, value: str) -> None:
        async with self._database.transaction() as session:
            await session.merge(MetaRow(key=key, value=value))


async def get_in(session: AsyncSession, key: str) -> str | None:
    row = await session.get(MetaRow, key)
    return row.value if row is not None else None
