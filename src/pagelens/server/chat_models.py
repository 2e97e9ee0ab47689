"""The bodies of `POST /v1/agent` and `/v1/agent/history` (docs/server-agent.md), and the conversation in
the shape the side panel keeps it: pi-ai's `Message[]`.

Accepted messages (docs/server-agent.md):

- `{role: "user", content: string | [{type: "text", text} | {type: "image", data, mimeType}]}`
- `{role: "assistant", content: string | [{type: "text", text} | {type: "thinking", thinking}
  | {type: "toolCall", id, name, arguments}], ...}`
- `{role: "toolResult", toolCallId, toolName, content: string | [text and image blocks], isError}`

Other keys (timestamp, api, usage, details, ...) are kept as they are, so the cached
history gives the client back what it sent."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pagelens.agent.toolset import TOOLS
from pagelens.server.limits import MAX_URL

MAX_PAGE_CONTENT = 500_000  # characters: the text of a long page, a long video's transcript
MAX_MESSAGES = 1_000  # a long chat, tool turns included
MAX_TITLE = 1_000  # characters
MAX_SETTING = 200  # characters of a model id, a length, a language


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class TextBlock(_Open):
    type: Literal["text"]
    text: str


class ImageBlock(_Open):
    type: Literal["image"]
    data: str
    mimeType: str  # noqa: N815


class ThinkingBlock(_Open):
    type: Literal["thinking"]
    thinking: str


class ToolCallBlock(_Open):
    type: Literal["toolCall"]
    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


UserBlock = Annotated[TextBlock | ImageBlock, Field(discriminator="type")]
AssistantBlock = Annotated[TextBlock | ThinkingBlock | ToolCallBlock, Field(discriminator="type")]


class UserMessage(_Open):
    role: Literal["user"]
    content: str | list[UserBlock]


class Usage(_Open):
    input: int = 0
    output: int = 0
    cacheRead: int = 0  # noqa: N815
    cacheWrite: int = 0  # noqa: N815
    totalTokens: int = 0  # noqa: N815


StopReason = Literal["stop", "length", "toolUse", "error", "aborted"]


class AssistantMessage(_Open):
    """The model's turn; the daemon answers with one (`stopReason` "toolUse" when it asks
    the client to run tools)."""

    role: Literal["assistant"] = "assistant"
    content: str | list[AssistantBlock]
    provider: str | None = None
    model: str | None = None
    usage: Usage | None = None
    stopReason: StopReason | None = None  # noqa: N815
    timestamp: int | None = None


class ToolResultMessage(_Open):
    role: Literal["toolResult"]
    toolCallId: str  # noqa: N815
    toolName: str  # noqa: N815
    content: str | list[UserBlock]
    isError: bool = False  # noqa: N815


ChatMessage = Annotated[UserMessage | AssistantMessage | ToolResultMessage, Field(discriminator="role")]


class HistoryBody(BaseModel):
    """What a chat is about: the key of its cached history."""

    url: str = Field("", max_length=MAX_URL)
    pageContent: str = Field("", max_length=MAX_PAGE_CONTENT)  # noqa: N815
    cacheContent: str = Field("", max_length=MAX_PAGE_CONTENT)  # noqa: N815
    model: str | None = Field(
        None, max_length=MAX_SETTING, description="provider/model or auto; default: the daemon's model."
    )
    length: str | None = Field(None, max_length=MAX_SETTING)
    language: str = Field("auto", max_length=MAX_SETTING)
    automationEnabled: bool = False  # noqa: N815


class AgentBody(HistoryBody):
    title: str = Field("", max_length=MAX_TITLE)
    # At least the user's turn: the side panel asks when the user has said something.
    messages: list[ChatMessage] = Field(min_length=1, max_length=MAX_MESSAGES)
    tools: list[str] = Field(default_factory=list, description="Names of pagelens.agent.toolset tools.")

    @field_validator("tools")
    @classmethod
    def _known_tools(cls, names: list[str]) -> list[str]:
        unknown = [name for name in names if name not in TOOLS]
        if unknown:
            raise ValueError(f"unknown tools {unknown}; the tools are {', '.join(TOOLS)}")
        return names
