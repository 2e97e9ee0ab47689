"""Which database a URL names: the default SQLite file, the async drivers for the URLs
people write, and a URL as it may be shown (without its password), Redis' too."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from pagelens.store.errors import StoreUnavailableError

URL_ENV = "PAGELENS_DATABASE_URL"

# The drivers pagelens ships, by the backend a URL names.
_ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg", "postgres": "postgresql+asyncpg"}
SUPPORTED = ("sqlite+aiosqlite", "postgresql+asyncpg")


def default_database_path() -> Path:
    """The SQLite file used when no URL is given: `pagelens/pagelens.db` in the user's data dir."""
    return Path(platformdirs.user_data_dir("pagelens", appauthor=False)) / "pagelens.db"


def resolve_url(url: str | None) -> URL:
    """The URL to open: `url`, else $PAGELENS_DATABASE_URL, else the default SQLite file
    (whose folder is made). Plain `sqlite://` and `postgresql://` get the async drivers."""
    text = url or os.environ.get(URL_ENV)
    if not text:
        path = default_database_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return URL.create("sqlite+aiosqlite", database=str(path))
    try:
        parsed = make_url(text)
    except ArgumentError as exc:
        raise StoreUnavailableError(f"not a database URL: {redact_text(text)}") from exc
    parsed = parsed.set(drivername=_ASYNC_DRIVERS.get(parsed.drivername, parsed.drivername))
    if parsed.drivername not in SUPPORTED:
        raise StoreUnavailableError(
            f"cannot open {shown(parsed)}: pagelens stores its data in SQLite or PostgreSQL ({', '.join(SUPPORTED)})"
        )
    return parsed


def shown(url: URL | str) -> str:
    """The URL for messages and logs, its password masked: a database's, or Redis'
    (`redis://:***@host:6379/0`)."""
    if isinstance(url, str):
        try:
            return make_url(url).render_as_string(hide_password=True)
        except ArgumentError:
            return redact_text(url)
    return url.render_as_string(hide_password=True)


def redact_text(text: str) -> str:
    """`text` with the password of a `scheme://user:password@host` URL masked, for
    strings that did not parse as a URL."""
    scheme, sep, rest = text.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not (sep and at and ":" in credentials):
        return text
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"
