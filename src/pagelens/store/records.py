"""What the repositories take and give back: plain pydantic models, detached from the
database, so callers never meet a lazy ORM object outside its session."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["user", "assistant", "system"]


class Record(BaseModel):
    model_config = ConfigDict(from_attributes=True, frozen=True)


class SkillFields(BaseModel):
    """A skill as its author writes it. The agent's `Skill` adds the validation."""

    name: str
    description: str
    patterns: list[str]
    library: str = ""
    instructions: str = ""


class SkillRecord(SkillFields, Record):
    created_at: datetime
    updated_at: datetime


class SessionRecord(Record):
    id: str
    tab_id: str | None
    title: str
    is_renamed: bool
    url: str | None
    domain: str | None
    metadata: dict[str, Any] = Field(validation_alias="details")
    status: str
    created_at: datetime
    updated_at: datetime


class SessionChanges(BaseModel):
    """The fields of a session to change; those left out keep their value."""

    tab_id: str | None = None
    title: str | None = None
    is_renamed: bool | None = None
    url: str | None = None  # its root domain becomes the session's domain, unless `domain` is given too
    domain: str | None = None
    metadata: dict[str, Any] | None = None
    status: str | None = None


class MessageRecord(Record):
    id: str
    session_id: str
    sequence_number: int
    role: Role
    content: str
    status: str
    action_string: str | None
    action_payload: dict[str, Any] | None
    error: str | None
    metadata: dict[str, Any] = Field(validation_alias="details")
    created_at: datetime


class MessageChanges(BaseModel):
    """The fields of a message to change (a streamed answer grows, then completes or fails)."""

    content: str | None = None
    status: str | None = None
    action_string: str | None = None
    action_payload: dict[str, Any] | None = None
    error: str | None = None
    metadata: dict[str, Any] | None = None


class RunRecord(Record):
    id: str
    session_id: str | None
    task: str
    url: str | None
    model: str | None
    status: str
    plan: Any
    result: str | None
    kind: str
    state: Any
    created_at: datetime
    updated_at: datetime


class RunChanges(BaseModel):
    status: str | None = None
    plan: Any = None
    result: str | None = None
    model: str | None = None
    state: Any = None
