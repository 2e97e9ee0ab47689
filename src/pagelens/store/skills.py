"""The `skills` table: the agent's libraries for the sites they name."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pagelens.store.database import Database
from pagelens.store.errors import SkillExistsError, SkillNotFoundError
from pagelens.store.meta import get_in
from pagelens.store.records import SkillFields, SkillRecord
from pagelens.store.schema import MetaRow, SkillRow

SEEDED_KEY = "skills_seeded"


class SkillRepository:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def list(self) -> list[SkillRecord]:
        async with self._database.transaction() as session:
            rows = await session.scalars(select(SkillRow).order_by(SkillRow.name))
            return [SkillRecord.model_validate(row) for row in rows]

    async def get(self, name: str) -> SkillRecord:
        async with self._database.transaction() as session:
            return SkillRecord.model_validate(await _existing(session, name))

    async def create(self, fields: SkillFields) -> SkillRecord:
        async with self._database.transaction() as session:
            if await session.get(SkillRow, fields.name) is not None:
                raise SkillExistsError(f"a skill named {fields.name!r} exists; rewrite or update it")
            row = SkillRow(**_columns(fields))
            session.add(row)
            await _flush_name(session, fields.name)
            return SkillRecord.model_validate(row)

    async def replace(self, name: str, fields: SkillFields) -> SkillRecord:
        """Give the skill `name` new fields, its name included (a rename when it differs)."""
        async with self._database.transaction() as session:
            row = await _existing(session, name)
            if fields.name != name and await session.get(SkillRow, fields.name) is not None:
                raise SkillExistsError(f"cannot rename {name!r}: a skill named {fields.name!r} exists")
            for column, value in _columns(fields).items():
                setattr(row, column, value)
            await _flush_name(session, fields.name)
            return SkillRecord.model_validate(row)

    async def delete(self, name: str) -> None:
        async with self._database.transaction() as session:
            await session.delete(await _existing(session, name))

    async def seed(self, defaults: Sequence[SkillFields]) -> bool:
        """Add `defaults` once in the life of the database: later calls, and skills the
        user deleted since, are left alone. True when this call seeded them."""
        try:
            async with self._database.transaction() as session:
                if await get_in(session, SEEDED_KEY) is not None:
                    return False
                for fields in defaults:
                    if await session.get(SkillRow, fields.name) is None:
                        session.add(SkillRow(**_columns(fields)))
                session.add(MetaRow(key=SEEDED_KEY, value="1"))
                try:
                    await session.flush()
                except IntegrityError as exc:
                    raise _SeededMeanwhile from exc
                return True
        except _SeededMeanwhile:  # another process seeded between our check and our write
            return False


class _SeededMeanwhile(Exception):
    pass


def _columns(fields: SkillFields) -> dict[str, object]:
    return fields.model_dump(include=set(SkillFields.model_fields))


async def _existing(session: AsyncSession, name: str) -> SkillRow:
    row = await session.get(SkillRow, name)
    if row is None:
        raise SkillNotFoundError(f"no skill is named {name!r}")
    return row


async def _flush_name(session: AsyncSession, name: str) -> None:
    # Another writer may have taken the name between the check and this write.
    try:
        await session.flush()
    except IntegrityError as exc:
        raise SkillExistsError(f"a skill named {name!r} exists") from exc
