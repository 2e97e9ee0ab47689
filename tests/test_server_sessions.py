"""The daemon's sessions against a real daemon (uvicorn on 127.0.0.1), on SQLite and on
PostgreSQL: root domains and titles, authentication, the sessions and messages routes,
the conversation service the other routes call, the session's WebSocket, and two daemons
sharing one PostgreSQL database and Redis."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import redis.asyncio as redis
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pagelens.errors import ErrorCode
from pagelens.server import conversation
from pagelens.server.config import ServerConfig
from pagelens.server.wire import wire_time
from pagelens.store import RecordNotFoundError
from pagelens.store.domains import TITLE_TASK_LIMIT, root_domain, session_title
from tests.server_support import RunningDaemon, running_daemon

pytest_plugins = ["tests.store_support"]

TOKEN = "t"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
REDIS_URL = os.environ.get("PAGELENS_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture
async def daemon(database_url: str) -> AsyncIterator[RunningDaemon]:
    async with running_daemon(ServerConfig(database_url=database_url), TOKEN) as running:
        yield running


@pytest.fixture
async def client(daemon: RunningDaemon) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=daemon.base_url, headers=AUTH, timeout=10) as client:
        yield client


async def next_event(websocket: ClientConnection) -> dict[str, Any]:
    event: dict[str, Any] = json.loads(await asyncio.wait_for(websocket.recv(), 5))
    return event


# Root domains and titles


@pytest.mark.parametrize(
    ("given", "root"),
    [
        ("https://a.b.example.co.uk/x", "example.co.uk"),
        ("https://www.google.com/search?q=1", "google.com"),
        ("https://user:pw@Mail.Google.COM./inbox", "google.com"),
        ("example.com.au:8443/path", "example.com.au"),
        ("https://alice.github.io/", "alice.github.io"),  # the private section: two sites, not one github.io
        ("http://localhost:8080/app", "localhost"),
        ("localhost:8080", "localhost"),
        ("127.0.0.1", "127.0.0.1"),
        ("http://127.0.0.1:3000/", "127.0.0.1"),
        ("[::1]", "::1"),
        ("http://[::1]:8080/", "::1"),
        ("fe80::1", "fe80::1"),
        ("intranet", "intranet"),
        ("co.uk", "co.uk"),
        ("about:blank", None),
        ("file:///tmp/page.html", None),
        ("", None),
        (None, None),
    ],
)
def test_root_domains(given: str | None, root: str | None) -> None:
    assert root_domain(given) == root


def test_root_domains_come_from_the_bundled_list_without_the_network(tmp_path: Path) -> None:
    # A fresh interpreter whose every socket fails and whose cache folder is empty: the
    # list must be the snapshot tldextract ships, and nothing is written as a cache.
    script = (
        "import socket\n"
        "def refuse(*args, **kwargs): raise AssertionError('network access')\n"
        "socket.socket.connect = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "from pagelens.store.domains import root_domain\n"
        "print(root_domain('https://a.b.example.co.uk/x'), root_domain('https://x.pvt.k12.ma.us'))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(SRC), "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("TLDEXTRACT_CACHE", None)
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["example.co.uk", "x.pvt.k12.ma.us"]
    assert list(tmp_path.iterdir()) == []


def test_session_titles() -> None:
    assert session_title("google.com", "Search for SpaceX") == "google.com: Search for SpaceX"
    assert session_title("google.com", "  Search\n for   SpaceX ") == "google.com: Search for SpaceX"
    assert session_title(None, "Summarise my notes") == "Summarise my notes"
    assert session_title("github.com", "") == "github.com"
    long = session_title("github.com", "review " * 40)
    assert long.endswith("review…") and len(long) <= len("github.com: ") + TITLE_TASK_LIMIT + 1
    assert session_title("a.com", "x" * 200) == "a.com: " + "x" * TITLE_TASK_LIMIT + "…"


# Authentication


async def test_every_route_but_healthz_needs_the_token(daemon: RunningDaemon) -> None:
    async with httpx.AsyncClient(base_url=daemon.base_url) as anonymous:
        assert (await anonymous.get("/healthz")).json()["status"] == "ok"
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
            response = await anonymous.get("/api/session/latest", headers=headers)
            assert response.status_code == 401
            body = response.json()
            assert (body["success"], body["error"]) == (False, ErrorCode.UNAUTHORIZED)
            assert "Bearer" in body["message"]
        # A token in the query is for WebSockets only, which cannot send headers.
        assert (await anonymous.get(f"/api/session/latest?token={TOKEN}")).status_code == 401
        assert (await anonymous.get("/api/session/latest", headers=AUTH)).status_code == 200


async def test_a_websocket_needs_the_token_in_a_header_or_the_query(daemon: RunningDaemon) -> None:
    session = await conversation.session_for(daemon.state, tab_id="1", url="https://a.com/", task="x")
    url = daemon.ws_url(f"/api/session/{session.id}/ws")
    for refused in (url, f"{url}?token=wrong"):
        with pytest.raises(InvalidStatus) as caught:
            async with connect(refused):
                pass
        assert caught.value.response.status_code == 403
    for accepted in (connect(f"{url}?token={TOKEN}"), connect(url, additional_headers=AUTH)):
        async with accepted as websocket:
            await websocket.send(json.dumps({"type": "ping"}))
            assert await next_event(websocket) == {"type": "pong"}


async def test_what_the_framework_refuses_has_the_error_shape(client: httpx.AsyncClient) -> None:
    missing = await client.get("/api/no-such-route")
    assert (missing.status_code, missing.json()["error"], missing.json()["success"]) == (
        404,
        ErrorCode.UNKNOWN_ROUTE,
        False,
    )
    wrong_method = await client.delete("/api/session/latest")
    assert (wrong_method.status_code, wrong_method.json()["error"]) == (405, ErrorCode.UNKNOWN_ROUTE)
    assert "GET" in wrong_method.headers["allow"]
    not_json = await client.patch("/api/session/x", content=b"{", headers={"Content-Type": "application/json"})
    assert (not_json.status_code, not_json.json()["error"]) == (400, ErrorCode.INVALID_REQUEST)


# The conversation service: tab-scoped sessions


async def test_a_tab_keeps_its_session_across_domains(daemon: RunningDaemon) -> None:
    state = daemon.state
    first = await conversation.session_for(
        state, tab_id="tab-1", url="https://www.google.com/", task="Search for SpaceX"
    )
    assert (first.title, first.domain, first.url, first.tab_id) == (
        "google.com: Search for SpaceX",
        "google.com",
        "https://www.google.com/",
        "tab-1",
    )
    assert first.metadata == {"initialUrl": "https://www.google.com/", "initialDomain": "google.com"}

    same = await conversation.session_for(state, tab_id="tab-1", url="https://www.google.com/", task="other task")
    assert same == first  # nothing moved, nothing written

    moved = await conversation.session_for(state, tab_id="tab-1", url="https://github.com/spacex", task="anything")
    assert moved.id == first.id
    assert (moved.url, moved.domain, moved.title) == ("https://github.com/spacex", "github.com", first.title)
    assert moved.metadata == first.metadata

    other_tab = await conversation.session_for(state, tab_id="tab-2", url="https://github.com/", task="Star it")
    assert other_tab.id != first.id and other_tab.title == "github.com: Star it"
    no_tab = await conversation.session_for(state, url=None, task="Plan a trip")
    assert (no_tab.title, no_tab.domain, no_tab.tab_id) == ("Plan a trip", None, None)
    assert no_tab.metadata == {"initialUrl": None, "initialDomain": None}


async def test_a_named_session_is_reused_and_takes_the_tab(daemon: RunningDaemon) -> None:
    state = daemon.state
    made = await conversation.session_for(state, tab_id="tab-1", url="http://localhost:8080/", task="Test the app")
    assert made.title == "localhost: Test the app"
    taken = await conversation.session_for(
        state, session_id=made.id, tab_id="tab-7", url="http://[::1]:8080/x", task="ignored"
    )
    assert (taken.id, taken.tab_id, taken.domain, taken.title) == (made.id, "tab-7", "::1", made.title)
    assert (await conversation.session_for(state, tab_id="tab-7", url=None, task="x")).id == made.id
    with pytest.raises(RecordNotFoundError):
        await conversation.session_for(state, session_id="no-such-id", url=None, task="x")


async def test_a_session_made_elsewhere_learns_where_it_began_when_it_moves(daemon: RunningDaemon) -> None:
    state = daemon.state
    made = await state.store.sessions.create(title="t", tab_id="tab-1", url="https://a.example.com/", metadata={"k": 1})
    moved = await conversation.session_for(state, tab_id="tab-1", url="https://b.org/", task="x")
    assert moved.metadata == {"k": 1, "initialUrl": "https://a.example.com/", "initialDomain": "example.com"}
    assert (moved.id, moved.domain) == (made.id, "b.org")


# The sessions routes


async def test_the_latest_session_and_the_latest_of_a_domain(daemon: RunningDaemon, client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/session/latest")).json() == {"session": None}
    assert (await client.get("/api/session/by-domain/google.com")).json() == {"session": None}
    google = await conversation.session_for(daemon.state, tab_id="1", url="https://www.google.com/", task="Search")
    uk = await conversation.session_for(daemon.state, tab_id="2", url="https://a.b.example.co.uk/x", task="Read")

    latest = (await client.get("/api/session/latest")).json()["session"]
    assert set(latest) == {
        "sessionId", "title", "isRenamed", "url", "domain", "tabId", "status", "metadata", "createdAt", "updatedAt"
    }  # fmt: skip
    assert {key: latest[key] for key in ("sessionId", "title", "isRenamed", "url", "domain", "tabId", "status")} == {
        "sessionId": uk.id,
        "title": "example.co.uk: Read",
        "isRenamed": False,
        "url": "https://a.b.example.co.uk/x",
        "domain": "example.co.uk",
        "tabId": "2",
        "status": "active",
    }
    assert latest["metadata"] == {"initialUrl": "https://a.b.example.co.uk/x", "initialDomain": "example.co.uk"}
    assert latest["createdAt"].endswith("Z") and latest["updatedAt"] >= latest["createdAt"]

    for asked in ("google.com", "www.google.com", "GOOGLE.com"):
        found = (await client.get(f"/api/session/by-domain/{asked}")).json()["session"]
        assert found["sessionId"] == google.id, asked
    assert (await client.get("/api/session/by-domain/example.org")).json() == {"session": None}

    # A message is activity: the older session becomes the latest.
    await conversation.add_message(daemon.state, google.id, "user", "again")
    assert (await client.get("/api/session/latest")).json()["session"]["sessionId"] == google.id


async def test_renaming_a_session(daemon: RunningDaemon, client: httpx.AsyncClient) -> None:
    made = await conversation.session_for(daemon.state, tab_id="1", url="https://google.com/", task="Search")
    response = await client.patch(f"/api/session/{made.id}", json={"title": "  SpaceX research "})
    assert response.status_code == 200
    renamed = response.json()["session"]
    assert (renamed["sessionId"], renamed["title"], renamed["isRenamed"]) == (made.id, "SpaceX research", True)

    moved = await conversation.session_for(daemon.state, tab_id="1", url="https://github.com/", task="x")
    assert (moved.title, moved.is_renamed, moved.domain) == ("SpaceX research", True, "github.com")

    for body in ({"title": "   "}, {}, {"title": "x" * 201}, {"title": "ok", "domain": "x.com"}):
        refused = await client.patch(f"/api/session/{made.id}", json=body)
        assert refused.status_code == 400, body
        assert refused.json()["error"] == ErrorCode.INVALID_REQUEST and refused.json()["fields"], body
    missing = await client.patch("/api/session/no-such-id", json={"title": "x"})
    assert (missing.status_code, missing.json()["error"]) == (404, ErrorCode.RECORD_NOT_FOUND)


async def test_sessions_are_listed_newest_first_a_page_at_a_time(
    daemon: RunningDaemon, client: httpx.AsyncClient
) -> None:
    made = [
        await conversation.session_for(daemon.state, tab_id=str(n), url=f"https://site{n}.com/", task=f"task {n}")
        for n in range(5)
    ]
    newest_first = [session.id for session in reversed(made)]
    page = (await client.get("/api/sessions")).json()
    assert [s["sessionId"] for s in page["sessions"]] == newest_first
    assert (page["total"], page["limit"], page["offset"]) == (5, 50, 0)
    page = (await client.get("/api/sessions", params={"limit": 2, "offset": 1})).json()
    assert [s["sessionId"] for s in page["sessions"]] == newest_first[1:3]
    assert (page["total"], page["limit"], page["offset"]) == (5, 2, 1)
    for params in ({"limit": 0}, {"limit": 201}, {"offset": -1}, {"offset": 2**70}, {"limit": "many"}):
        refused = await client.get("/api/sessions", params=params)
        assert (refused.status_code, refused.json()["error"]) == (400, ErrorCode.INVALID_REQUEST), params


# Messages


async def test_messages_come_in_order_with_every_field(daemon: RunningDaemon, client: httpx.AsyncClient) -> None:
    session = await conversation.session_for(daemon.state, tab_id="1", url="https://google.com/", task="Search")
    user = await conversation.add_message(daemon.state, session.id, "user", "Go to Google and search for SpaceX")
    assistant = await conversation.add_message(
        daemon.state,
        session.id,
        "assistant",
        "I'll navigate to Google first.",
        status="success",
        action_string='navigate("https://www.google.com")',
        action_payload={"name": "navigate", "url": "https://www.google.com"},
        metadata={"step": 0},
    )
    failed = await conversation.add_message(daemon.state, session.id, "system", "Stopped", error="run_stopped")

    body = (await client.get(f"/api/session/{session.id}/messages")).json()
    assert (body["sessionId"], body["total"], body["sessionExists"]) == (session.id, 3, True)
    first, second, third = body["messages"]
    assert set(first) == {
        "messageId", "role", "content", "timestamp", "sequenceNumber", "status", "actionString", "actionPayload",
        "error", "metadata",
    }  # fmt: skip
    assert (first["messageId"], first["role"], first["sequenceNumber"]) == (user.id, "user", 1)
    assert first["content"] == "Go to Google and search for SpaceX" and first["timestamp"].endswith("Z")
    assert second == {
        "messageId": assistant.id,
        "role": "assistant",
        "content": "I'll navigate to Google first.",
        "timestamp": second["timestamp"],
        "sequenceNumber": 2,
        "status": "success",
        "actionString": 'navigate("https://www.google.com")',
        "actionPayload": {"name": "navigate", "url": "https://www.google.com"},
        "error": None,
        "metadata": {"step": 0},
    }
    assert (third["messageId"], third["role"], third["error"]) == (failed.id, "system", "run_stopped")


async def test_an_unknown_session_has_no_messages_rather_than_a_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/session/no-such-id/messages")
    assert response.status_code == 200
    assert response.json() == {"sessionId": "no-such-id", "messages": [], "total": 0, "sessionExists": False}


async def test_concurrent_messages_are_numbered_once_each(daemon: RunningDaemon, client: httpx.AsyncClient) -> None:
    session = await conversation.session_for(daemon.state, tab_id="1", url="https://a.com/", task="x")
    added = await asyncio.gather(
        *(conversation.add_message(daemon.state, session.id, "assistant", f"part {n}") for n in range(20))
    )
    messages = (await client.get(f"/api/session/{session.id}/messages")).json()["messages"]
    assert [m["sequenceNumber"] for m in messages] == list(range(1, 21))
    assert len({m["messageId"] for m in messages}) == 20
    assert {m["messageId"]: m["content"] for m in messages} == {m.id: m.content for m in added}


async def test_a_message_for_no_session_is_refused_and_not_pushed(daemon: RunningDaemon) -> None:
    # Watched through the broker: the WebSocket of an unknown session is refused.
    async with daemon.state.broker.subscribe("no-such-id") as events:
        with pytest.raises(RecordNotFoundError):
            await conversation.add_message(daemon.state, "no-such-id", "user", "hello")
        await conversation.publish(daemon.state, "no-such-id", {"type": "marker"})
        assert await asyncio.wait_for(anext(events), 5) == {"type": "marker", "sessionId": "no-such-id"}


# The session's WebSocket


async def test_the_websocket_pushes_the_sessions_events(daemon: RunningDaemon, client: httpx.AsyncClient) -> None:
    session = await conversation.session_for(daemon.state, tab_id="1", url="https://google.com/", task="Search")
    other = await conversation.session_for(daemon.state, tab_id="2", url="https://github.com/", task="Star")
    async with connect(daemon.ws_url(f"/api/session/{session.id}/ws"), additional_headers=AUTH) as websocket:
        await conversation.add_message(daemon.state, other.id, "user", "not for this watcher")
        await conversation.add_message(daemon.state, session.id, "assistant", "Navigating to Google...", status="ok")
        event = await next_event(websocket)
        assert set(event) == {"type", "sessionId", "message"}
        assert (event["type"], event["sessionId"]) == ("new_message", session.id)
        stored = (await client.get(f"/api/session/{session.id}/messages")).json()["messages"]
        assert event["message"] == stored[0]  # the same shape as GET's, field for field

        await conversation.publish(daemon.state, session.id, {"type": "interact_response", "taskId": "t-1"})
        assert await next_event(websocket) == {"type": "interact_response", "taskId": "t-1", "sessionId": session.id}

        await websocket.send("not json")  # ignored
        await websocket.send(json.dumps({"type": "ping"}))
        assert await next_event(websocket) == {"type": "pong"}
        await asyncio.wait_for(await websocket.ping(), 5)  # WebSocket-level keepalive


async def test_the_websocket_closes_when_the_daemon_shuts_down(database_url: str) -> None:
    async with running_daemon(ServerConfig(database_url=database_url), TOKEN) as daemon:
        session = await conversation.session_for(daemon.state, tab_id="1", url="https://a.com/", task="x")
        websocket = await connect(daemon.ws_url(f"/api/session/{session.id}/ws"), additional_headers=AUTH)
    # Leaving running_daemon waited for uvicorn to stop, the WebSocket's handler included.
    with pytest.raises(ConnectionClosed):
        await asyncio.wait_for(websocket.recv(), 5)
    assert websocket.close_code == 1012  # "service restart": a client reconnects


# Several daemons


@pytest.fixture
async def redis_url() -> str:
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        await client.ping()
    except (redis.RedisError, OSError) as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"Redis at {REDIS_URL} is unreachable: {exc}")
        pytest.skip(f"Redis at {REDIS_URL} is unreachable: {exc}")
    finally:
        await client.aclose()
    return REDIS_URL


async def test_a_message_written_on_one_daemon_reaches_a_websocket_on_another(
    postgres_url: str, redis_url: str
) -> None:
    config = ServerConfig(database_url=postgres_url, redis_url=redis_url)
    async with running_daemon(config, TOKEN) as first, running_daemon(config, TOKEN) as second:
        session = await conversation.session_for(first.state, tab_id="1", url="https://google.com/", task="Search")
        async with connect(second.ws_url(f"/api/session/{session.id}/ws"), additional_headers=AUTH) as websocket:
            written = await conversation.add_message(first.state, session.id, "user", "from the first daemon")
            event = await next_event(websocket)
            assert (event["type"], event["sessionId"]) == ("new_message", session.id)
            assert (event["message"]["messageId"], event["message"]["content"]) == (written.id, "from the first daemon")

            await conversation.publish(second.state, session.id, {"type": "interact_response"})
            assert await next_event(websocket) == {"type": "interact_response", "sessionId": session.id}

        async with httpx.AsyncClient(base_url=second.base_url, headers=AUTH) as client:
            body = (await client.get(f"/api/session/{session.id}/messages")).json()
            assert [m["messageId"] for m in body["messages"]] == [written.id]
            assert (await client.get("/api/session/by-domain/google.com")).json()["session"]["sessionId"] == session.id


# What the daemon refuses, and how it says so


async def test_renaming_is_not_activity(daemon: RunningDaemon, client: httpx.AsyncClient) -> None:
    older = await conversation.session_for(daemon.state, tab_id="1", url="https://google.com/", task="Search")
    newer = await conversation.session_for(daemon.state, tab_id="2", url="https://github.com/", task="Star")
    renamed = (await client.patch(f"/api/session/{older.id}", json={"title": "Mine"})).json()["session"]
    latest = (await client.get("/api/session/latest")).json()["session"]
    assert (renamed["title"], renamed["updatedAt"]) == ("Mine", wire_time(older.updated_at))
    assert latest["sessionId"] == newer.id
    assert (await client.get("/api/sessions")).json()["sessions"][1]["sessionId"] == older.id


async def test_a_nul_character_is_dropped_from_what_is_stored(daemon: RunningDaemon, client: httpx.AsyncClient) -> None:
    made = await conversation.session_for(daemon.state, tab_id="1", url="https://google.com/", task="Se\x00arch")
    renamed = await client.patch(f"/api/session/{made.id}", json={"title": "Space\u0000X"})
    assert renamed.status_code == 200, renamed.text
    assert (made.title, renamed.json()["session"]["title"]) == ("google.com: Search", "SpaceX")
    found = await client.get("/api/session/by-domain/%00")
    assert (found.status_code, found.json()) == (200, {"session": None})


async def test_a_failing_database_is_a_500_that_names_no_host(
    daemon: RunningDaemon, client: httpx.AsyncClient, database_url: str
) -> None:
    engine = create_async_engine(database_url)
    async with engine.begin() as connection:  # the table goes away under the daemon
        await connection.execute(text("ALTER TABLE sessions RENAME TO sessions_gone"))
    await engine.dispose()
    response = await client.get("/api/session/latest")
    assert (response.status_code, response.json()["error"]) == (500, ErrorCode.STORE_ERROR)
    url = make_url(database_url)
    for secret in (database_url, str(url.host), str(url.username), "sqlite", "asyncpg"):
        assert secret not in response.text, secret


@pytest.mark.parametrize(
    ("content", "content_type", "said"),
    [
        (b'{"title": "x",}', "application/json", "the body is not valid JSON: Expecting property name"),
        (b"{", "application/json", "at position 1"),
        (b'{"title": "x"}', "text/plain", "the body must be application/json, not text/plain"),
        (b"title=x", "application/x-www-form-urlencoded", "the body must be application/json"),
        (b'{"title": "x"}', None, "the body must be application/json (the request has no Content-Type)"),
    ],
)
async def test_a_body_that_is_not_json_is_said_so(
    client: httpx.AsyncClient, content: bytes, content_type: str | None, said: str
) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    response = await client.patch("/api/session/x", content=content, headers=headers)
    assert (response.status_code, response.json()["error"]) == (400, ErrorCode.INVALID_REQUEST)
    assert said in response.json()["message"] and "fields" not in response.json()


async def test_query_parameters_are_named_as_body_fields_are(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/sessions", params={"limit": 0})
    assert response.json()["fields"][0]["field"] == "limit"
    assert response.json()["message"].startswith("limit: ")


async def raw_request(base_url: str, head: str, chunks: Sequence[bytes] = ()) -> tuple[int, dict[str, Any]]:
    """Send a request as written, over a socket of its own, then read the answer: the
    daemon may answer before the body is sent, and close."""
    url = httpx.URL(base_url)
    reader, writer = await asyncio.open_connection(url.host, url.port)
    try:
        writer.write(head.encode())
        for chunk in chunks:
            writer.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
            await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 30)
    finally:
        writer.close()
    status_line, _, rest = answer.partition(b"\r\n")
    body = rest.split(b"\r\n\r\n", 1)[1]
    return int(status_line.split()[1]), json.loads(body)


async def test_a_body_over_the_limit_is_refused_before_it_is_read(daemon: RunningDaemon) -> None:
    start = f"POST /api/agent/interact HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
    start += "Content-Type: application/json\r\nConnection: close\r\n"
    declared = await raw_request(daemon.base_url, start + f"Content-Length: {300 * 1024 * 1024}\r\n\r\n")
    # White space, which would parse as JSON were it read: 16 MB, then a byte more. The
    # daemon answers once it has read that byte, and nothing more is sent.
    chunks = [b" " * (1024 * 1024)] * 16 + [b" "]
    chunked = await raw_request(daemon.base_url, start + "Transfer-Encoding: chunked\r\n\r\n", chunks)
    for status, body in (declared, chunked):
        assert (status, body["error"]) == (413, ErrorCode.PAYLOAD_TOO_LARGE)
        assert "16 MB" in body["message"]
