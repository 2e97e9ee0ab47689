"""Step-API tasks live in `runs` (a `kind` and the task's `state` between calls);
`chat_cache` keeps chat histories by their cache key.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as runs:
        runs.add_column(sa.Column("kind", sa.String(20), nullable=False, server_default="run"))
        runs.add_column(sa.Column("state", sa.JSON(), nullable=True))
    op.create_table(
        "chat_cache",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("messages", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_cache")
    with op.batch_alter_table("runs") as runs:
        runs.drop_column("state")
        runs.drop_column("kind")
