"""The conversation service: what the routes that talk with the user (interact, chat,
runs) call to find the session of a request, to add a message to it and to tell the
session's watchers. It keeps the rules of docs/server.md (sessions, push) in
one place so that every route follows them the same way:

- a tab has one session (tabId → sessionId), kept across navigations, cross-domain ones too;
- a new session is titled `{domain}: {task}` and remembers where it began in
  `metadata.initialUrl` / `metadata.initialDomain`;
- a later request from another URL moves the session's `url` and `domain`, never its
  title nor where it began;
- a message is stored first, then pushed as `new_message`, so a watcher that refetches on
  an event always finds what the event announced; a route that writes several things
  at once (`writing`) pushes its messages once they are all committed.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypedDict, Unpack

from pagelens.server.state import Daemon
from pagelens.server.wire import MessageOut, NewMessageEvent
from pagelens.store import MessageRecord, RecordNotFoundError, Role, SessionChanges, SessionRecord
from pagelens.store.domains import root_domain, session_title

logger = logging.getLogger("pagelens.server")

INITIAL_URL = "initialUrl"
INITIAL_DOMAIN = "initialDomain"


class MessageFields(TypedDict, total=False):
    """What a message may carry besides its role and content (MessageRepository.append)."""

    status: str
    action_string: str | None
    action_payload: dict[str, Any] | None
    error: str | None
    metadata: dict[str, Any] | None


async def session_for(
    daemon: Daemon, *, session_id: str | None = None, tab_id: str | None = None, url: str | None, task: str
) -> SessionRecord:
    """The session a request belongs to, made or moved to the request's `url`.

    `session_id` names it (RecordNotFoundError, a 404, when no session has that id; the
    tab, if given, is bound to it). Else the tab's active session is reused. Else a new
    one is made for the tab, titled from `url`'s root domain and `task`.

    Two first requests of one tab at the same instant may make two sessions: the
    extension waits for each answer before its next request, so they do not happen."""
    if session_id is not None:
        session = await daemon.store.sessions.get(session_id)
        if session is None:
            raise RecordNotFoundError(f"no session has the id {session_id!r}")
    elif tab_id is not None:
        session = await daemon.store.sessions.of_tab(tab_id)
    else:
        session = None
    if session is None:
        domain = root_domain(url)
        return await daemon.store.sessions.create(
            title=session_title(domain, task),
            tab_id=tab_id,
            url=url,
            metadata={INITIAL_URL: url, INITIAL_DOMAIN: domain},
        )
    return await _follow(daemon, session, tab_id=tab_id, url=url)


class Writes:
    """The messages a route adds inside `writing`, to push once they are committed."""

    def __init__(self, daemon: Daemon) -> None:
        self._daemon = daemon
        self.added: list[MessageRecord] = []

    async def add_message(
        self, session_id: str, role: Role, content: str, **fields: Unpack[MessageFields]
    ) -> MessageRecord:
        """Store a message after the session's last one (RecordNotFoundError when there is
        no such session)."""
        message = await self._daemon.store.messages.append(session_id, role, content, **fields)
        self.added.append(message)
        return message


@asynccontextmanager
async def writing(daemon: Daemon) -> AsyncIterator[Writes]:
    """One transaction for what a route writes inside (session_for, the store's
    repositories, `add_message`); once it commits, each message added is pushed to its
    session's watchers as `new_message`. Nothing is pushed when the block fails."""
    writes = Writes(daemon)
    async with daemon.store.atomic():
        yield writes
    for message in writes.added:
        event = NewMessageEvent(session_id=message.session_id, message=MessageOut.of(message))
        await publish(daemon, message.session_id, event.model_dump(mode="json"))


async def add_message(
    daemon: Daemon, session_id: str, role: Role, content: str, **fields: Unpack[MessageFields]
) -> MessageRecord:
    """Store a message after the session's last one (RecordNotFoundError when there is no
    such session), then push it to the session's watchers as `new_message`."""
    async with writing(daemon) as writes:
        return await writes.add_message(session_id, role, content, **fields)


async def publish(daemon: Daemon, session_id: str, event: dict[str, Any]) -> None:
    """Push `event` (a JSON object with its `type`, e.g. `interact_response`) to whoever
    watches the session, on this daemon or, through Redis, on another; `sessionId` is set
    to the session's id. A failure of the push is logged, not raised: what the event
    announces is already stored, and a client refetches it, whereas failing the route
    would lose the caller's answer."""
    try:
        await daemon.broker.publish(session_id, {**event, "sessionId": session_id})
    except Exception:
        logger.warning("could not push %s to the watchers of session %s", event.get("type"), session_id, exc_info=True)


async def _follow(daemon: Daemon, session: SessionRecord, *, tab_id: str | None, url: str | None) -> SessionRecord:
    """The session moved to `url` and bound to `tab_id`, when they differ from its own."""
    changes: dict[str, Any] = {}
    if tab_id is not None and tab_id != session.tab_id:
        changes["tab_id"] = tab_id
    if url is not None and url != session.url:
        changes["url"] = url  # and so its root domain
        if INITIAL_URL not in session.metadata:  # made by something else than session_for
            changes["metadata"] = {**session.metadata, INITIAL_URL: session.url, INITIAL_DOMAIN: session.domain}
    if not changes:
        return session
    return await daemon.store.sessions.update(session.id, SessionChanges(**changes))
