"""The tables, as SQLAlchemy ORM classes. The migrations in `migrations/versions/` create
them; a test checks the two agree, so change both together (a new revision, never an
edit of a released one)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    Label,
    String,
    Text,
    UniqueConstraint,
    inspect,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    return datetime.now(UTC)


def new_id() -> str:
    return str(uuid.uuid4())


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp that comes back aware, in UTC: SQLite keeps no time zone, so what it
    returns is naive and is read as the UTC it was written in."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {datetime: UtcDateTime, dict[str, Any]: JSON, list[str]: JSON}


class Timestamped:
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class MetaRow(Base):
    """Facts about the database itself, such as whether the default skills were seeded."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class SkillRow(Timestamped, Base):
    __tablename__ = "skills"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    description: Mapped[str] = mapped_column(Text)
    patterns: Mapped[list[str]]
    library: Mapped[str] = mapped_column(Text)
    instructions: Mapped[str] = mapped_column(Text)


class SessionRow(Timestamped, Base):
    """A conversation between a user and the agent, usually about one tab."""

    __tablename__ = "sessions"
    # The newest session overall, of a root domain, of a tab (revision 0003).
    __table_args__ = (
        Index("ix_sessions_updated_at", "updated_at"),
        Index("ix_sessions_domain_updated_at", "domain", "updated_at"),
        Index("ix_sessions_tab_id_updated_at", "tab_id", "updated_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    tab_id: Mapped[str | None] = mapped_column(String(100))
    title: Mapped[str] = mapped_column(Text)
    is_renamed: Mapped[bool] = mapped_column(Boolean, default=False)
    url: Mapped[str | None] = mapped_column(Text)
    domain: Mapped[str | None] = mapped_column(String(255))
    # `metadata` is taken by SQLAlchemy's declarative classes; the column keeps the name.
    details: Mapped[dict[str, Any]] = mapped_column("metadata")
    status: Mapped[str] = mapped_column(String(20))


class MessageRow(Base):
    __tablename__ = "messages"
    __table_args__ = (UniqueConstraint("session_id", "sequence_number"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    session_id: Mapped[str] = mapped_column(ForeignKey("sessions.id", ondelete="CASCADE"), index=True)
    sequence_number: Mapped[int] = mapped_column(Integer)
    role: Mapped[str] = mapped_column(String(20))
    content: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(20))
    action_string: Mapped[str | None] = mapped_column(Text)
    action_payload: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(Text)
    details: Mapped[dict[str, Any]] = mapped_column("metadata")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RunRow(Timestamped, Base):
    """One task the agent was given, its plan and its outcome."""

    __tablename__ = "runs"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    session_id: Mapped[str | None] = mapped_column(ForeignKey("sessions.id", ondelete="SET NULL"), index=True)
    task: Mapped[str] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(Text)
    model: Mapped[str | None] = mapped_column(String(200))
    status: Mapped[str] = mapped_column(String(20))
    plan: Mapped[Any] = mapped_column(JSON, nullable=True)  # whatever shape the planner gives it
    result: Mapped[str | None] = mapped_column(Text)
    # "run": the daemon's agent carries it out; "interact": a client does, step by step,
    # and `state` is the task between two of its calls.
    kind: Mapped[str] = mapped_column(String(20), default="run", server_default="run")
    state: Mapped[Any] = mapped_column(JSON, nullable=True)
    # Who holds the run, and until when (revision 0004): an interact task is held by the
    # call whose step is under way. An expired lease is free, so a daemon killed
    # mid-step does not keep its task.
    lease_holder: Mapped[str | None] = mapped_column(String(36))
    leased_until: Mapped[datetime | None]


def fields(entity: type[Base]) -> tuple[Label[Any], ...]:
    """Every column of `entity`, named as its attribute (`details` for the column
    `metadata`): what a Core statement selects or returns for a record to read."""
    return tuple(column.label(key) for key, column in inspect(entity).columns.items())


class ChatCacheRow(Timestamped, Base):
    """A chat's history under its cache key (a hash of what the chat was about)."""

    __tablename__ = "chat_cache"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    messages: Mapped[Any] = mapped_column(JSON)


SESSION_FIELDS = fields(SessionRow)
MESSAGE_FIELDS = fields(MessageRow)
RUN_FIELDS = fields(RunRow)
