"""Local model servers that speak the real OpenAI and Anthropic wires and play a script of
turns; see README.md."""

from .anthropic_server import AnthropicMessagesServer
from .clients import NAVIGATE, model_at
from .openai_server import OpenAIChatServer
from .script import Call, Fail, Hang, Outcome, Received, Reply, Turn
from .server import ScriptedServer

__all__ = [
    "AnthropicMessagesServer",
    "Call",
    "Fail",
    "Hang",
    "NAVIGATE",
    "OpenAIChatServer",
    "Outcome",
    "Received",
    "Reply",
    "ScriptedServer",
    "Turn",
    "model_at",
]
