"""The database pagelens keeps its state in: SQLite by default, PostgreSQL by URL,
migrated by the Alembic revisions shipped in `migrations/`. See docs/store.md."""

from pagelens.store.errors import (
    RecordNotFoundError,
    SkillExistsError,
    SkillNotFoundError,
    StoreError,
    StoreUnavailableError,
)
from pagelens.store.records import (
    MessageChanges,
    MessageRecord,
    Role,
    RunChanges,
    RunRecord,
    SessionChanges,
    SessionRecord,
    SkillFields,
    SkillRecord,
)
from pagelens.store.store import Store
from pagelens.store.urls import URL_ENV, default_database_path

__all__ = [
    "URL_ENV",
    "MessageChanges",
    "MessageRecord",
    "RecordNotFoundError",
    "Role",
    "RunChanges",
    "RunRecord",
    "SessionChanges",
    "SessionRecord",
    "SkillExistsError",
    "SkillFields",
    "SkillNotFoundError",
    "SkillRecord",
    "Store",
    "StoreError",
    "StoreUnavailableError",
    "default_database_path",
]
