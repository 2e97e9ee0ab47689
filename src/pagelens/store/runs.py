"""The `runs` table: tasks given to the agent, their plans and outcomes. Statements are
Core ones (a write returns the row it wrote): a step of the agent runs them on every call."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, or_, select

from pagelens.store.database import Database
from pagelens.store.errors import RecordNotFoundError
from pagelens.store.records import RunChanges, RunRecord
from pagelens.store.schema import RUN_FIELDS, RunRow, utcnow
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

    async def claim(self, run_id: str, holder: str, *, until: datetime) -> RunRecord | None:
        """Lease the run to `holder` until `until`, unless another's lease on it has not
        run out: the run as claimed, or None (leased, or no such run). One conditional
        UPDATE: of two claims at the same time, from any daemons, one wins."""
        free = or_(RunRow.leased_until.is_(None), RunRow.leased_until <= utcnow())
        values = {"lease_holder": holder, "leased_until": until}
        row = await self._database.update_row(RunRow, run_id, values, RUN_FIELDS, where=(free,))
        return RunRecord.model_validate(row) if row is not None else None

    async def renew(self, run_id: str, holder: str, *, until: datetime) -> bool:
        """Extend `holder`'s lease to `until`; False when it no longer holds the run."""
        values = {"leased_until": until}
        held = (RunRow.lease_holder == holder,)
        return await self._database.update_row(RunRow, run_id, values, (RunRow.id,), where=held) is not None

    async def release(self, run_id: str, holder: str, changes: RunChanges) -> RunRecord | None:
        """Write `changes` and end `holder`'s lease, if it still holds the run; None when
        it does not (its lease ran out and another took the run, or no such run)."""
        values = {**changes.model_dump(exclude_unset=True), "lease_holder": None, "leased_until": None}
        held = (RunRow.lease_holder == holder,)
        row = await self._database.update_row(RunRow, run_id, values, RUN_FIELDS, where=held)
        return RunRecord.model_validate(row) if row is not None else None
