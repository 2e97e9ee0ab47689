"""Sessions and messages as the daemon's JSON speaks of them: camelCase, the names of the
spec (3.3 for messages), the same message shape in GET responses and in pushed events,
so a client merges both into one list (dedup by messageId, sort by sequenceNumber)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, TypeAdapter
from pydantic.alias_generators import to_camel

from pagelens.store import MessageRecord, Role, SessionRecord

_TIME: TypeAdapter[datetime] = TypeAdapter(datetime)


def wire_time(moment: datetime) -> str:
    """A time as the daemon's JSON writes every time, a model's datetime fields included:
    ISO 8601, UTC as `Z`."""
    text: str = _TIME.dump_python(moment, mode="json")
    return text


class Wire(BaseModel):
    """A body the daemon sends or reads: snake_case in Python, camelCase on the wire."""

    model_config = ConfigDict(alias_generator=to_camel, validate_by_name=True, serialize_by_alias=True)


class SessionOut(Wire):
    session_id: str
    title: str
    is_renamed: bool
    url: str | None
    domain: str | None  # the root domain of `url`; metadata.initialUrl/initialDomain keep where it began
    tab_id: str | None
    status: str
    metadata: dict[str, Any]
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, record: SessionRecord) -> SessionOut:
        return cls(session_id=record.id, **record.model_dump(exclude={"id"}))


class MessageOut(Wire):
    message_id: str
    role: Role
    content: str
    timestamp: datetime
    sequence_number: int  # 1, 2, ... per session, in the order the messages were added
    status: str
    action_string: str | None
    action_payload: dict[str, Any] | None
    error: str | None
    metadata: dict[str, Any]

    @classmethod
    def of(cls, record: MessageRecord) -> MessageOut:
        return cls(
            message_id=record.id,
            timestamp=record.created_at,
            **record.model_dump(exclude={"id", "session_id", "created_at"}),
        )


class NewMessageEvent(Wire):
    """Pushed to a session's watchers when a message is added to it."""

    type: Literal["new_message"] = "new_message"
    session_id: str
    message: MessageOut
