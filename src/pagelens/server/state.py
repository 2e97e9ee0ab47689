"""What every route of a daemon shares, and how a route gets it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends
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


async def daemon(connection: HTTPConnection) -> Daemon:
    """What a route (a WebSocket's too) gets through `DaemonState`. A coroutine: FastAPI
    would call a plain function in a thread, a hop there and back on every request."""
    state: Daemon = connection.app.state.daemon
    return state


# A route's parameter: `state: DaemonState`.
DaemonState = Annotated[Daemon, Depends(daemon)]
