"""The `runs` table: tasks given to the agent, their plans and outcomes. Statements are
Core ones (a write returns the row it wrote): a step of the agent runs them on every call."""

from __future__ import annotations

from typing import Any

from sqlalchemy import insert, select

from pagelens.store.database import Database
from pagelens.store.errors import RecordNotFoundError
from pagelens.store.records import RunChanges, RunRecord
from pagelens.store.schema import RUN_FIELDS, RunRow
from pagelens.store.sessions import require_session


class RunRepository:
    def __init__(self, database: Database) -> None:
        self._database = database

    async def create(
        self,
        task: str,
        *,
        session_id: str | None = None,
        url: str | None = None,
        model: str | None = None,
        plan: Any = None,
        status: str = "pending",
        kind: str = "run",
        state: Any = None,
    ) -> RunRecord:
        # Returned as written (RETURNING): the record is what the database keeps.
        add = (
            insert(RunRow)
            .values(
                {
                    RunRow.task: task,
                    RunRow.session_id: session_id,
                    RunRow.url: url,
                    RunRow.model: model,
                    RunRow.plan: plan,
                    RunRow.status: status,
                    RunRow.kind: kind,
                    RunRow.state: state,
                }
            )
            .returning(*RUN_FIELDS)
        )
        async with self._database.transaction() as session:
            if session_id is not None:
                await require_session(session, session_id)
            return RunRecord.model_validate((await session.execute(add)).one())

    async def get(self, run_id: str) -> RunRecord | None:
        async with self._database.transaction() as session:
            row = (await session.execute(select(*RUN_FIELDS).where(RunRow.id == run_id))).one_or_none()
            return RunRecord.model_validate(row) if row is not None else None

    async def list(self, *, session_id: str | None = None, kind: str | None = None, limit: int = 50) -> list[RunRecord]:
        """Runs (of a session, of a kind), the most recently created first."""
        query = select(*RUN_FIELDS).order_by(RunRow.created_at.desc(), RunRow.id).limit(limit)
        if session_id is not None:
            query = query.where(RunRow.session_id == session_id)
        if kind is not None:
            query = query.where(RunRow.kind == kind)
        async with self._database.transaction() as session:
            return [RunRecord.model_validate(row) for row in await session.execute(query)]

    async def update(self, run_id: str, changes: RunChanges) -> RunRecord:
        values = changes.model_dump(exclude_unset=True)
        row = await self._database.update_row(RunRow, run_id, values, RUN_FIELDS)
        if row is None:
            raise RecordNotFoundError(f"no run has the id {run_id!r}")
        return RunRecord.model_validate(row)
