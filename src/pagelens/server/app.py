"""The daemon as an ASGI app: its state (store, push, token), authentication, CORS, the
body limit, the error shape, the routes of each module (sessions, interact, chat, runs)
and the web UI."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

import pagelens
from pagelens.errors import ErrorCode, PagelensError
from pagelens.server import errors, routes, runs, ui
from pagelens.server.auth import bearer_matches
from pagelens.server.config import ServerConfig
from pagelens.server.limits import BodyLimit
from pagelens.server.models import chat_model
from pagelens.server.push import Broker, open_broker
from pagelens.server.state import Daemon
from pagelens.store import Store
from pagelens.tokens import count_tokens

OPEN_PATHS = frozenset({"/healthz"})


class BearerAuth:
    """Every request but OPEN_PATHS and the web UI's files carries `Authorization: Bearer
    <token>`. A WebSocket, which a browser cannot give headers, may carry it as `?token=`."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or scope["path"] in OPEN_PATHS or _ui_file(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http" and scope["method"] == "OPTIONS":  # CORS preflight carries no credentials
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        header = headers.get(b"authorization", b"").decode("latin-1")
        if not bearer_matches(header, self.token) and not self._query_token(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4401, "reason": "unauthorized"})
                return
            response = errors.error_response(
                ErrorCode.UNAUTHORIZED, "send Authorization: Bearer <token> (pagelens serve prints where it is kept)"
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _query_token(self, scope: Scope) -> bool:
        if scope["type"] != "websocket":
            return False
        values = parse_qs(scope.get("query_string", b"").decode()).get("token", [])
        return any(bearer_matches(f"Bearer {value}", self.token) for value in values)


def create_app(config: ServerConfig, token: str) -> FastAPI:
    """The daemon. Its store and push connection open with the app's lifespan."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store, broker = await open_backends(config)
        app.state.daemon = Daemon(config=config, token=token, store=store, broker=broker)
        # The token tables and the model's SDK take a second to load: before the first
        # request, not during it. A daemon with no model configured serves all the rest.
        await asyncio.to_thread(count_tokens, "")
        with contextlib.suppress(PagelensError):
            chat_model(app.state.daemon, None)
        try:
            yield
        finally:
            await runs.stop_all(app.state.daemon)
            for close in app.state.daemon.extras.get("on_close", []):
                await close()
            await broker.close()
            await store.close()

    app = FastAPI(
        title="pagelens daemon",
        version=pagelens.__version__,
        description="Sessions, the agent's step API and chat, runs and push for pagelens.",
        lifespan=lifespan,
    )
    errors.install(app)

    @app.get("/healthz", tags=["daemon"])
    async def healthz() -> dict[str, str]:
        """Up: no token needed (for load balancers)."""
        return {"status": "ok", "version": pagelens.__version__}

    for router in routes.ROUTERS:
        app.include_router(router)
    ui.mount(app)
    app.openapi = lambda: _with_bearer(app)  # type: ignore[method-assign]
    app.add_middleware(BodyLimit)
    app.add_middleware(BearerAuth, token=token)
    if config.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(config.cors_origins),
            allow_methods=["GET", "POST", "PATCH", "DELETE"],
            allow_headers=["Authorization", "Content-Type"],
        )
    return app


async def open_backends(config: ServerConfig) -> tuple[Store, Broker]:
    """The daemon's store (opened and migrated) and push connection; `store_unavailable`
    when either cannot be reached."""
    store = await Store.open(config.database_url)
    try:
        return store, await open_broker(config.redis_url)
    except BaseException:
        await store.close()
        raise


def _ui_file(scope: Scope) -> bool:
    """A GET of the web UI's files: the page that asks for the token cannot need it."""
    return scope["type"] == "http" and scope["method"] in ("GET", "HEAD") and ui.is_ui_path(scope["path"])


def _with_bearer(app: FastAPI) -> dict[str, Any]:
    """The OpenAPI schema, saying that every route but /healthz takes the bearer token."""
    if app.openapi_schema is None:
        schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
        schema.setdefault("components", {})["securitySchemes"] = {"bearer": {"type": "http", "scheme": "bearer"}}
        for path, operations in schema["paths"].items():
            if path not in OPEN_PATHS:
                for operation in operations.values():
                    operation["security"] = [{"bearer": []}]
        app.openapi_schema = schema
    return app.openapi_schema
