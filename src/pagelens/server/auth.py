"""The daemon's bearer token: made on first start, kept in the user's config folder with
mode 0600, compared in constant time. Every route but /healthz asks for it."""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

from platformdirs import user_config_path

TOKEN_FILE = "daemon-token"


def token_path() -> Path:
    return Path(os.environ.get("PAGELENS_CONFIG_DIR") or user_config_path("pagelens")) / TOKEN_FILE


def load_or_create_token(path: Path | None = None) -> tuple[str, bool]:
    """The token kept at `path`, or a new one written there (0600). True when it is new."""
    path = path or token_path()
    if path.is_file():
        return path.read_text(encoding="utf-8").strip(), False
    path.parent.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(32)
    # Created with its mode, never readable by others even for an instant.
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(token + "\n")
    return token, True


def bearer_matches(header: str | None, token: str) -> bool:
    # The scheme's name is case-insensitive (RFC 9110): some clients send `bearer`.
    scheme, _, credentials = (header or "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(credentials.strip().encode(), token.encode())
