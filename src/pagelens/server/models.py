"""The language models a daemon talks to: each opened once (a client keeps its HTTP
connections) and closed when the daemon stops; and `GET /api/models`, those a person may
pick for a run."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel

from pagelens.agent.llm import ChatModel, ModelConfig, ModelError, open_model, resolve_model
from pagelens.agent.llm.models import AUTO_ORDER, PROVIDERS
from pagelens.server import errors
from pagelens.server.state import Daemon, DaemonState

router = APIRouter(tags=["runs"], responses=errors.RESPONSES)

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


class ModelList(BaseModel):
    default: str | None  # what a run that names no model uses; None: nothing is configured
    models: list[str]  # the default first


@router.get("/api/models")
async def list_models(state: DaemonState) -> ModelList:
    """The model ids a run may name: the daemon's default, then the default model of each
    provider that has a key. Ids only, never a key or a base URL."""
    default = _configured(state.config.model)
    ids = [config.id for config in (default, *map(_configured, _provider_defaults())) if config is not None]
    return ModelList(default=default.id if default else None, models=list(dict.fromkeys(ids)))


def _provider_defaults() -> list[str]:
    return [f"{name}/{PROVIDERS[name].default_model}" for name in AUTO_ORDER if PROVIDERS[name].default_model]


def _configured(model_id: str) -> ModelConfig | None:
    try:
        return resolve_model(model_id)
    except ModelError:  # no key for it, or a config file that does not read
        return None
