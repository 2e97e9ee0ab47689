"""Events to whoever watches a session (its WebSocket): within one daemon through memory,
between daemons through Redis pub/sub, so a message written through one daemon reaches a
WebSocket held on another."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any, Protocol

import redis.asyncio as redis

from pagelens.errors import ErrorCode, PagelensError
from pagelens.store.urls import shown

CHANNEL_PREFIX = "pagelens:session:"
_QUEUE_LIMIT = 1000  # a watcher that stops reading loses its oldest events, never the daemon's memory


class Broker(Protocol):
    async def publish(self, session_id: str, event: dict[str, Any]) -> int: ...  # how many watchers got it
    def subscribe(self, session_id: str) -> contextlib.AbstractAsyncContextManager[AsyncIterator[dict[str, Any]]]: ...
    async def close(self) -> None: ...


class LocalBroker:
    """One process: each subscriber has a queue."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[asyncio.Queue[dict[str, Any]]]] = {}

    async def publish(self, session_id: str, event: dict[str, Any]) -> int:
        queues = list(self._subscribers.get(session_id, ()))
        for queue in queues:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(event)
        return len(queues)

    @contextlib.asynccontextmanager
    async def subscribe(self, session_id: str) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(_QUEUE_LIMIT)
        self._subscribers.setdefault(session_id, set()).add(queue)

        async def events() -> AsyncIterator[dict[str, Any]]:
            while True:
                yield await queue.get()

        try:
            yield events()
        finally:
            self._subscribers[session_id].discard(queue)
            if not self._subscribers[session_id]:
                del self._subscribers[session_id]

    async def close(self) -> None:
        self._subscribers.clear()


class RedisBroker:
    """Several daemons: every event goes through Redis, the daemon's own watchers included."""

    def __init__(self, client: redis.Redis) -> None:
        self._client = client

    @classmethod
    async def connect(cls, url: str) -> RedisBroker:
        try:
            client = redis.Redis.from_url(url, socket_connect_timeout=5)
        except ValueError as exc:  # not a Redis URL: the same one line as one that does not answer
            raise PagelensError(f"cannot use {shown(url)} as Redis: {exc}", code=ErrorCode.STORE_UNAVAILABLE) from exc
        try:
            await client.ping()
        except (redis.RedisError, OSError) as exc:
            await client.aclose()
            raise PagelensError(f"cannot reach Redis at {shown(url)}: {exc}", code=ErrorCode.STORE_UNAVAILABLE) from exc
        return cls(client)

    async def publish(self, session_id: str, event: dict[str, Any]) -> int:
        received: int = await self._client.publish(CHANNEL_PREFIX + session_id, json.dumps(event))
        return received

    @contextlib.asynccontextmanager
    async def subscribe(self, session_id: str) -> AsyncIterator[AsyncIterator[dict[str, Any]]]:
        pubsub = self._client.pubsub()
        await pubsub.subscribe(CHANNEL_PREFIX + session_id)
        # Wait for Redis to confirm: only then does an event published elsewhere reach us.
        await pubsub.get_message(timeout=5)

        async def events() -> AsyncIterator[dict[str, Any]]:
            async for message in pubsub.listen():
                if message.get("type") == "message":
                    yield json.loads(message["data"])

        try:
            yield events()
        finally:
            await pubsub.unsubscribe()
            await pubsub.aclose()

    async def close(self) -> None:
        await self._client.aclose()


async def open_broker(redis_url: str | None) -> Broker:
    if redis_url is None:
        return LocalBroker()
    return await RedisBroker.connect(redis_url)
