"""Indexes for finding a session: the newest overall, the newest of a root domain and the
newest of a tab, which the daemon looks up on every request of the extension.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

INDEXES = {
    "ix_sessions_updated_at": ["updated_at"],
    "ix_sessions_domain_updated_at": ["domain", "updated_at"],
    "ix_sessions_tab_id_updated_at": ["tab_id", "updated_at"],
}


def upgrade() -> None:
    for name, columns in INDEXES.items():
        op.create_index(name, "sessions", columns)


def downgrade() -> None:
    for name in INDEXES:
        op.drop_index(name, table_name="sessions")
