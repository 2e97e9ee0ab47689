"""What every route of a daemon shares, and how a route gets it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from starlette.requests import HTTPConnection

from pagelens.server.config import ServerConfig
from pagelens.server.push import Broker
from pagelens.store import Store


@dataclass
class Daemon:
    config: ServerConfig
    token: str
    store: Store
    broker: Broker
    extras: dict[str, Any] = field(default_factory=dict)  # what route modules keep (models, the browser)


def daemon(connection: HTTPConnection) -> Daemon:
    """A route's dependency, a WebSocket's too: `state: Daemon = Depends(daemon)`."""
    state: Daemon = connection.app.state.daemon
    return state
