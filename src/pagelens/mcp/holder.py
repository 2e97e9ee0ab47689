"""The one browser session a server process drives, started on first use.

Starting lazily lets a client list the tools without waiting for Chromium, and a failed
start (no Chromium, a CDP endpoint that is down) comes back as a typed error on the call
that needed it, then is retried on the next call: the server itself never dies of it."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import asdict, dataclass

from pagelens.actions.dialogs import DialogPolicy
from pagelens.actions.session import Session, SessionOptions
from pagelens.errors import ErrorCode, PagelensError

START_TIMEOUT = 60.0  # a cold Chromium on a busy 2-core machine can take a while
CLOSE_TIMEOUT = 10.0
# A dialog an action opened waits this long for handle_dialog. An MCP client's next call
# comes after a model's turn, and perhaps a person approving the call: the session's
# default (seconds) answered it by the policy first. Any other call still answers it.
SESSION_OPTIONS = SessionOptions(dialogs=DialogPolicy(timeout=300.0))


@dataclass(frozen=True)
class BrowserOptions:
    """How the server's browser is started (the `pagelens mcp` options)."""

    headless: bool = True
    cdp_url: str | None = None
    allowed_hosts: list[str] | None = None
    # None: a fresh temporary profile per browser, so servers never share profile locks.
    user_data_dir: str | None = None
    viewport: tuple[int, int] = (1280, 800)
    browser: str | None = None  # what to launch: chromium, chrome, msedge or a path


class SessionHolder:
    def __init__(self, options: BrowserOptions) -> None:
        self.options = options
        self._session: Session | None = None
        self._lock = asyncio.Lock()
        self._closing: asyncio.Future[None] | None = None

    async def get(self) -> Session:
        if self._session is not None:
            return self._session
        async with self._lock:
            if self._closing is not None:  # never start a browser nobody would close
                raise PagelensError("the server is shutting down", code=ErrorCode.SERVER_CLOSING)
            if self._session is None:
                try:
                    self._session = await asyncio.wait_for(
                        Session.start(**asdict(self.options), options=SESSION_OPTIONS), START_TIMEOUT
                    )
                except TimeoutError:
                    raise PagelensError(
                        f"the browser did not start within {START_TIMEOUT:.0f} s",
                        code=ErrorCode.BROWSER_START_TIMEOUT,
                    ) from None
        return self._session

    async def close(self) -> None:
        """Close the session. Every call waits for the one close: a stop signal that
        arrives while the server is already closing must not cut that close short."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        async with self._lock:  # a browser still starting is closed once it is up
            session, self._session = self._session, None
        if session is not None:
            # Shutting down: there is no one left to tell about a failed close.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.close(), CLOSE_TIMEOUT)
