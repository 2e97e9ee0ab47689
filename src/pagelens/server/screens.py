"""The run's tab as its watchers see it: after each step a JPEG of the viewport, kept in
the daemon's memory (the latest per run), announced on the session's WebSocket as
`run_screenshot` and served by `GET /api/runs/{id}/screenshot` (docs/server.md)."""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass

from fastapi import APIRouter
from fastapi.responses import Response
from playwright.async_api import Page as PlaywrightPage

from pagelens.browser import Page
from pagelens.errors import ErrorCode, PagelensError
from pagelens.server import errors
from pagelens.server.conversation import publish
from pagelens.server.state import Daemon, DaemonState
from pagelens.vision import screenshot

logger = logging.getLogger("pagelens.server")
router = APIRouter(tags=["runs"], responses=errors.RESPONSES)

KEPT_RUNS = 64  # the screens of this many runs stay in memory, the latest runs'
SHOT_TIMEOUT_S = 5.0  # a screenshot that takes longer is skipped: the run goes on
_SCREENS = "screens"


@dataclass(frozen=True)
class Screen:
    image: bytes
    url: str
    title: str
    hash: str  # the perceptual hash: equal hashes look the same


async def capture(state: Daemon, run_id: str, session_id: str, page: PlaywrightPage) -> Screen | None:
    """Shoot the run's tab and, when it shows something new (another look, URL or title),
    keep it and push `{type: "run_screenshot", runId, url, title, hash}`. A failure is
    logged and skipped: the run matters more than its picture."""
    before = _screens(state).get(run_id)
    try:
        shot = await screenshot(Page(page), screenshot_hash=before.hash if before else None, timeout=SHOT_TIMEOUT_S)
        title = await page.title()
    except Exception:
        logger.warning("no screenshot of run %s", run_id, exc_info=True)
        return before
    if before is not None and (shot.hash, shot.url, title) == (before.hash, before.url, before.title):
        return before
    screen = Screen(image=shot.image or (before.image if before else b""), url=shot.url, title=title, hash=shot.hash)
    if not screen.image:
        return before
    keep(state, run_id, screen)
    await publish(
        state,
        session_id,
        {"type": "run_screenshot", "runId": run_id, "url": screen.url, "title": title, "hash": shot.hash},
    )
    return screen


def keep(state: Daemon, run_id: str, screen: Screen) -> None:
    screens = _screens(state)
    screens[run_id] = screen
    screens.move_to_end(run_id)
    while len(screens) > KEPT_RUNS:
        screens.popitem(last=False)


@router.get(
    "/api/runs/{run_id}/screenshot",
    response_class=Response,
    responses={
        200: {"content": {"image/jpeg": {}}, "description": "the latest screenshot of the run's tab"},
        404: {"model": errors.ErrorBody, "description": "no screenshot of that run in this daemon"},
    },
)
async def run_screenshot(run_id: str, state: DaemonState) -> Response:
    """The latest JPEG of the run's tab (`ETag`: its hash). Screens stay in the memory of
    the daemon that carries out the run; the run's `screen` says which one this is."""
    screen = latest(state, run_id)
    if screen is None:
        raise PagelensError(f"no screenshot of the run {run_id!r} here", code=ErrorCode.RECORD_NOT_FOUND)
    headers = {"Cache-Control": "no-store", "ETag": f'"{screen.hash}"'}
    return Response(screen.image, media_type="image/jpeg", headers=headers)


def latest(state: Daemon, run_id: str) -> Screen | None:
    return _screens(state).get(run_id)


def _screens(state: Daemon) -> OrderedDict[str, Screen]:
    screens: OrderedDict[str, Screen] = state.extras.setdefault(_SCREENS, OrderedDict())
    return screens
