"""Sessions and their messages over HTTP, and their events over a WebSocket (docs/server.md):
what the extension's side panel and the web UI read. Writing goes through the
conversation service (conversation.py), which the interact, chat and runs routes call."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, WebSocket
from pydantic import ConfigDict, StringConstraints
from starlette.websockets import WebSocketState

from pagelens.server import errors
from pagelens.server.state import DaemonState
from pagelens.server.wire import MessageOut, SessionOut, Wire
from pagelens.store import SessionChanges, SessionRecord

logger = logging.getLogger("pagelens.server")

router = APIRouter(tags=["sessions"], responses=errors.RESPONSES)

TITLE_LIMIT = 200
# A WebSocket's close for a session id no session has: 4000-4999 are the application's,
# and as with 4401 (unauthorized, app.py) the last three digits are the HTTP status.
NO_SESSION_CLOSE = 4404
OFFSET_LIMIT = 2**31 - 1  # what both databases take as an OFFSET


class SessionResponse(Wire):
    session: SessionOut | None


class SessionPage(Wire):
    sessions: list[SessionOut]
    total: int
    limit: int
    offset: int


class MessagePage(Wire):
    session_id: str
    messages: list[MessageOut]
    total: int
    session_exists: bool  # false for an id no session has: the list is empty, not a 404 (docs/server.md)


class RenameRequest(Wire):
    model_config = ConfigDict(extra="forbid")

    # Trimmed, and not only white space: the pattern also refuses \x1c-\x1f, which strip() removes.
    title: Annotated[
        str, StringConstraints(strip_whitespace=True, min_length=1, max_length=TITLE_LIMIT, pattern=r"[^\s\x1c-\x1f]")
    ]


SessionId = Annotated[str, Path(alias="sessionId")]  # the contract's name, in the paths and the OpenAPI schema


@router.get("/api/session/latest")
async def latest_session(state: DaemonState) -> SessionResponse:
    """The session with the most recent activity, or `{session: null}`."""
    return _one(await state.store.sessions.latest())


@router.get("/api/session/by-domain/{domain}")
async def session_by_domain(domain: str, state: DaemonState) -> SessionResponse:
    """The most recent session of a root domain (`www.google.com` counts as `google.com`),
    or `{session: null}`: the extension's way to pick a chat up again on a site."""
    return _one(await state.store.sessions.latest(domain=domain))


@router.patch("/api/session/{sessionId}", responses={404: {"model": errors.ErrorBody, "description": "no session"}})
async def rename_session(session_id: SessionId, body: RenameRequest, state: DaemonState) -> SessionResponse:
    """A title the user chose: `isRenamed` becomes true, and navigation never changes it."""
    changes = SessionChanges(title=body.title, is_renamed=True)
    return _one(await state.store.sessions.update(session_id, changes))


@router.get("/api/sessions")
async def list_sessions(
    state: DaemonState,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=OFFSET_LIMIT)] = 0,
) -> SessionPage:
    """Sessions with the most recent activity first, a page at a time (the web UI's list)."""
    sessions = [SessionOut.of(s) for s in await state.store.sessions.list(limit=limit, offset=offset)]
    return SessionPage(sessions=sessions, total=await state.store.sessions.count(), limit=limit, offset=offset)


@router.get("/api/session/{sessionId}/messages")
async def session_messages(session_id: SessionId, state: DaemonState) -> MessagePage:
    """Every message of the session in order (sequenceNumber)."""
    exists = await state.store.sessions.get(session_id) is not None
    messages = [MessageOut.of(m) for m in await state.store.messages.list(session_id)] if exists else []
    return MessagePage(session_id=session_id, messages=messages, total=len(messages), session_exists=exists)


@router.websocket("/api/session/{sessionId}/ws")
async def watch_session(websocket: WebSocket, session_id: SessionId, state: DaemonState) -> None:
    """Every event published for the session (`new_message`, `interact_response`, ...),
    one JSON text frame each. The subscription is made before the handshake completes,
    so nothing published after the client is connected is missed. A client may send
    `{"type": "ping"}` and gets `{"type": "pong"}` (WebSocket pings are answered too).
    An id no session has is accepted, then closed with 4404: a browser is not told why a
    handshake was refused, but reads a close's code and reason."""
    if await state.store.sessions.get(session_id) is None:
        await websocket.accept()
        await websocket.close(code=NO_SESSION_CLOSE, reason="record_not_found: no session has that id")
        return
    async with state.broker.subscribe(session_id) as events:
        await websocket.accept()
        send = _one_at_a_time(websocket.send_text)
        forwarding = asyncio.create_task(_forward(events, send))
        answering = asyncio.create_task(_answer(websocket, send))
        done, pending = await asyncio.wait({forwarding, answering}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if forwarding in done and forwarding.exception() is not None:
            # The push itself failed (Redis went away): say so, the client reconnects.
            logger.warning("push to a watcher of session %s failed", session_id, exc_info=forwarding.exception())
            if websocket.client_state is WebSocketState.CONNECTED:
                await websocket.close(code=1011, reason="push failed")


async def _forward(events: AsyncIterator[dict[str, Any]], send: Callable[[str], Awaitable[None]]) -> None:
    async for event in events:
        await send(json.dumps(event))


async def _answer(websocket: WebSocket, send: Callable[[str], Awaitable[None]]) -> None:
    """Reads what the client sends until it leaves (or the daemon shuts down, which
    uvicorn tells as a disconnect): pings get a pong, anything else is ignored."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if _is_ping(message.get("text")):
            await send(json.dumps({"type": "pong"}))


def _is_ping(text: str | None) -> bool:
    if not text:
        return False
    try:
        payload = json.loads(text)
    except ValueError:
        return False
    return isinstance(payload, dict) and payload.get("type") == "ping"


def _one_at_a_time(send: Callable[[str], Awaitable[None]]) -> Callable[[str], Awaitable[None]]:
    """`send` for two tasks (events and pongs) whose frames must not interleave."""
    lock = asyncio.Lock()

    async def locked(text: str) -> None:
        async with lock:
            await send(text)

    return locked


def _one(session: SessionRecord | None) -> SessionResponse:
    return SessionResponse(session=SessionOut.of(session) if session is not None else None)
