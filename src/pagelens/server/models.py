"""The language models a daemon talks to: each opened once (a client keeps its HTTP
connections) and closed when the daemon stops."""

from __future__ import annotations

from pagelens.agent.llm import ChatModel, ModelConfig, open_model, resolve_model
from pagelens.server.state import Daemon

_OPEN = "models"


def chat_model(daemon: Daemon, model_id: str | None) -> ChatModel:
    """The client for `model_id` (None or "auto": the daemon's own model, itself `auto`
    unless `pagelens serve` was given one).
    Resolved on each call, so a key set in the environment takes effect at once; opened
    once per resolved config (a changed key or base URL opens a new client)."""
    config = resolve_model(daemon.config.model if model_id in (None, "auto") else model_id)
    models: dict[ModelConfig, ChatModel] = daemon.extras[_OPEN] if _OPEN in daemon.extras else _registry(daemon)
    if config not in models:
        models[config] = open_model(config)
    return models[config]


def _registry(daemon: Daemon) -> dict[ModelConfig, ChatModel]:
    models: dict[ModelConfig, ChatModel] = {}

    async def close_all() -> None:
        for model in models.values():
            await model.aclose()

    daemon.extras[_OPEN] = models
    daemon.extras.setdefault("on_close", []).append(close_all)
    return models
