"""Running the daemon: its token, the bind rules, uvicorn."""

from __future__ import annotations

import socket
from collections.abc import Callable

import uvicorn

from pagelens.browser.network import is_loopback
from pagelens.errors import ErrorCode, InvalidRequestError, PagelensError
from pagelens.server.app import create_app
from pagelens.server.auth import load_or_create_token, token_path
from pagelens.server.config import ServerConfig


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
    token = resolve_token(config, say)
    app = create_app(config, token)
    sock = listening_socket(config.host, config.port)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    say(f"pagelens daemon on http://{config.host}:{sock.getsockname()[1]} (Authorization: Bearer <token>)")
    await server.serve(sockets=[sock])
