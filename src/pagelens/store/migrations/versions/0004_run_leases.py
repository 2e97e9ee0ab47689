"""A lease on a run: the call that holds it (`lease_holder`) and until when
(`leased_until`). An interact task is leased by the call whose step is under way, so a
second call on it, on any daemon, is refused instead of forking the task.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as runs:
        runs.add_column(sa.Column("lease_holder", sa.String(36), nullable=True))
        runs.add_column(sa.Column("leased_until", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runs") as runs:
        runs.drop_column("leased_until")
        runs.drop_column("lease_holder")
