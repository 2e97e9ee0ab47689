"""The part both scripted servers share: a Starlette app on uvicorn, in-process, on a free
port of 127.0.0.1, that records each request, checks its key and plays the next turn."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import socket
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable, Iterator
from types import TracebackType
from typing import Any, Self

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from .script import Fail, Hang, Outcome, Received, Reply, Turn


class ScriptedServer:
    """Subclasses speak one provider's wire: where it listens, how a key is sent, and how a
    Reply and an error look on it."""

    path: str  # the endpoint, e.g. /v1/chat/completions
    wire: str  # "openai" or "anthropic"
    base_path: str  # what the SDK's base_url ends with, e.g. /v1

    def __init__(self, script: Iterable[Turn] = (), *, api_key: str = "test-key") -> None:
        self.turns: deque[Turn] = deque(script)
        self.api_key = api_key
        self.requests: list[Received] = []
        self.durations: list[float] = []  # seconds from a request's arrival to its answer's last byte
        self._closing = asyncio.Event()
        self._server: uvicorn.Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._port = 0

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._port}{self.base_path}"

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [request.body for request in self.requests]

    def add(self, *turns: Turn) -> None:
        """More turns, after those already scripted."""
        self.turns.extend(turns)

    # The wire, per provider.

    def key(self, headers: dict[str, str]) -> str | None:
        """The API key a request carries."""
        raise NotImplementedError

    def authorized(self, headers: dict[str, str]) -> bool:
        return self.key(headers) == self.api_key

    def error_body(self, status: int, message: str) -> dict[str, Any]:
        raise NotImplementedError

    def events(self, reply: Reply, body: dict[str, Any], number: int) -> Iterator[str]:
        """The SSE text of a streamed reply, one event a string."""
        raise NotImplementedError

    def message(self, reply: Reply, body: dict[str, Any], number: int) -> dict[str, Any]:
        """The JSON of a reply that is not streamed."""
        raise NotImplementedError

    # Serving.

    async def _handle(self, request: Request) -> Response:
        body = json.loads(await request.body() or b"{}")
        arrived = time.monotonic()
        self.requests.append(Received(body=body, headers=dict(request.headers), at=arrived))
        number = len(self.requests)
        if not self.authorized(dict(request.headers)):
            return JSONResponse(self.error_body(401, "invalid api key"), status_code=401)
        if not self.turns:
            return JSONResponse(
                self.error_body(400, f"the scripted server has no turn left for request {number}"), status_code=400
            )
        outcome = await _play(self.turns.popleft(), body)
        if isinstance(outcome, Hang):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closing.wait(), outcome.seconds)
            return JSONResponse(self.error_body(504, "hung"), status_code=504)
        if isinstance(outcome, Fail):
            headers = {} if outcome.retry_after is None else {"retry-after": f"{outcome.retry_after:g}"}
            content = outcome.body if outcome.body is not None else self.error_body(outcome.status, outcome.message)
            return JSONResponse(content, status_code=outcome.status, headers=headers)
        if body.get("stream"):
            events = self._timed(_paced(self.events(outcome, body, number)), arrived)
            return StreamingResponse(events, media_type="text/event-stream")
        response = JSONResponse(self.message(outcome, body, number))
        self.durations.append(time.monotonic() - arrived)
        return response

    async def _timed(self, events: AsyncIterator[str], arrived: float) -> AsyncIterator[str]:
        async for event in events:
            yield event
        self.durations.append(time.monotonic() - arrived)

    async def __aenter__(self) -> Self:
        app = Starlette(routes=[Route(self.path, self._handle, methods=["POST"])])
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Each streamed event is a small write: without this, Nagle holds the second one
        # until the client's delayed ACK, 40 ms, on every reply.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
        self._server = _Uvicorn(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        while not self._server.started:
            if self._task.done():
                self._task.result()
            await asyncio.sleep(0.01)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._closing.set()
        assert self._server is not None and self._task is not None
        self._server.should_exit = True
        await self._task


class _Uvicorn(uvicorn.Server):
    """uvicorn without its signal handlers: Ctrl-C stays the test runner's."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def _play(turn: Turn, body: dict[str, Any]) -> Outcome:
    if isinstance(turn, Reply | Fail | Hang):
        return turn
    outcome = turn(body)
    return await outcome if inspect.isawaitable(outcome) else outcome


async def _paced(events: Iterator[str]) -> AsyncIterator[str]:
    """Each event in its own write, so the client sees the pieces arrive one by one."""
    for event in events:
        yield event
        await asyncio.sleep(0)


def pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]
