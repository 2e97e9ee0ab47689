"""How a daemon runs: where it listens, its database and Redis, its token, its browser."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PORT = 8787


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    database_url: str | None = None  # None: PAGELENS_DATABASE_URL, else the SQLite file in the data folder
    redis_url: str | None = None  # None: events stay in this process
    token: str | None = None  # None: the token file in the config folder (made on first start)
    cors_origins: tuple[str, ...] = ()
    model: str = "auto"  # the model of tasks that name none
    workers: int = 1  # processes serving requests; more than one needs redis_url
    # The daemon's own browser, for runs it carries out itself.
    cdp_url: str | None = None
    ws_endpoint: str | None = None
    headless: bool = True
    browser: str | None = None  # what to launch: chromium, chrome, msedge or a path
    allowed_hosts: tuple[str, ...] | None = None
