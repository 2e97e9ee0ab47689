"""Running the daemon: its token, the bind rules, uvicorn, in one process or several
workers that share the listening socket (over PostgreSQL or SQLite, and Redis)."""

from __future__ import annotations

import asyncio
import functools
import socket
from collections.abc import Callable

import uvicorn
from uvicorn.supervisors import Multiprocess

from pagelens.browser.network import is_loopback
from pagelens.errors import ErrorCode, InvalidRequestError, PagelensError
from pagelens.server.app import create_app, open_backends
from pagelens.server.auth import load_or_create_token, token_path
from pagelens.server.config import ServerConfig

# How long a worker may take to answer its supervisor's health check before it is taken
# for hung, killed and replaced. A worker answers only once it has imported the app, which
# on a busy machine took longer than uvicorn's 5 s: with four CPU hogs beside it, every
# start lost a worker that way and began it again.
WORKER_ANSWER_S = 30
# How long a stopping daemon waits for the requests under way (a step, a streamed chat
# answer) before it cuts them: a model that hangs would otherwise keep it from stopping.
SHUTDOWN_GRACE_S = 10


def resolve_token(config: ServerConfig, say: Callable[[str], None]) -> str:
    """The token to require: --token, else the one kept in the config folder (made and
    printed once, on the first start). A daemon others can reach needs a token chosen
    on purpose: --token."""
    if config.token:
        return config.token
    if not is_loopback(config.host):
        raise InvalidRequestError(
            f"--host {config.host} lets other machines reach the daemon: give it a secret with --token"
        )
    token, made = load_or_create_token()
    if made:
        say(f"made a token for this daemon (shown once; kept in {token_path()}, mode 0600):\n  {token}")
    else:
        say(f"token: in {token_path()}")
    return token


def listening_socket(host: str, port: int) -> socket.socket:
    """The daemon's socket. Answers are small writes (headers, then a body; SSE events):
    with Nagle's algorithm on, the second waits for the client's delayed ACK, 40 ms a call."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # accepted sockets inherit it
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        raise PagelensError(f"cannot listen on {host}:{port}: {exc.strerror}", code=ErrorCode.LISTEN_FAILED) from exc
    return sock


async def serve(config: ServerConfig, say: Callable[[str], None]) -> None:
    """The daemon in this process, until it is stopped."""
    token = resolve_token(config, say)
    await check_backends(config)
    sock = listening_socket(config.host, config.port)
    server = uvicorn.Server(_uvicorn_config(config, token))
    _say_where(config, sock, say)
    await server.serve(sockets=[sock])


def serve_workers(config: ServerConfig, say: Callable[[str], None]) -> None:
    """The daemon in `config.workers` processes, each its own event loop on one shared
    socket, so that a step's work uses every core; this process watches them (one that
    dies is replaced) and stops them on SIGINT or SIGTERM. Their pushes meet through
    Redis, which they need."""
    if config.redis_url is None:
        raise InvalidRequestError(
            "--workers needs --redis-url: a WebSocket held by one worker must hear what another writes"
        )
    token = resolve_token(config, say)
    asyncio.run(check_backends(config))
    sock = listening_socket(config.host, config.port)
    _say_where(config, sock, say)
    Multiprocess(_uvicorn_config(config, token), sockets=[sock]).run()


async def check_backends(config: ServerConfig) -> None:
    """Open the store (migrating it) and Redis once, then close them: one that cannot be
    reached stops the start here with its error (the CLI's one line), where the app's
    startup would fail inside uvicorn with a traceback, and workers would be spawned
    only to fail one after another."""
    store, broker = await open_backends(config)
    await broker.close()
    await store.close()


def _uvicorn_config(config: ServerConfig, token: str) -> uvicorn.Config:
    # The app is made in the process that serves it (a factory: workers are spawned, and a
    # made app does not travel). No access log: a line per request costs more than
    # many a request, and the routes log what matters.
    app = functools.partial(create_app, config, token)
    return uvicorn.Config(
        app,
        factory=True,
        log_level="warning",
        access_log=False,
        lifespan="on",
        workers=config.workers,
        timeout_worker_healthcheck=WORKER_ANSWER_S,
        timeout_graceful_shutdown=SHUTDOWN_GRACE_S,
    )


def _say_where(config: ServerConfig, sock: socket.socket, say: Callable[[str], None]) -> None:
    workers = f", {config.workers} workers" if config.workers > 1 else ""
    say(f"pagelens daemon on http://{config.host}:{sock.getsockname()[1]}{workers} (Authorization: Bearer <token>)")
