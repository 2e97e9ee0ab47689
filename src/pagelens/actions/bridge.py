"""Calls into the action half of the engine in a frame's isolated world: the same world,
and so the same stable ids, as the views.

The world of the main frame and of each frame element come from the Page; frames are
named by the ids of their frame elements, as in the views ("12.5" is control 5 inside the
frame element 12).
"""

from __future__ import annotations

from typing import Any

from pagelens.actions.errors import ActionError
from pagelens.browser.page import Page
from pagelens.browser.world import DocumentChanged, FrameWorld
from pagelens.errors import CaptureError, CaptureTimeoutError, ErrorCode, PagelensError

__all__ = ["DocumentChanged", "call", "frame_world", "main_world"]


async def main_world(page: Page) -> FrameWorld:
    return await page.main_world()


async def frame_world(page: Page, path: list[str]) -> tuple[FrameWorld, tuple[float, float]]:
    """The world of the frame reached through the frame elements `path` (outermost
    first), and where that frame's viewport starts in the page's viewport."""
    world = await main_world(page)
    dx = dy = 0.0
    for depth, owner in enumerate(path):
        frame = ".".join(path[: depth + 1])
        offset = await call(world, "frameOffset", owner)
        if offset is None:
            raise ActionError(
                ErrorCode.NOT_FOUND,
                f"no frame {frame} on this page: a frame is named by its frame element's id, from a fresh view",
            )
        try:
            world = await page.child_world(world, owner)
        except PagelensError as exc:
            raise ActionError(
                ErrorCode.FRAME_UNREACHABLE, f"frame {frame} has no document that can be reached (gone, or not loaded)"
            ) from exc
        dx, dy = dx + offset[0], dy + offset[1]
    return world, (dx, dy)


async def call(
    world: FrameWorld,
    function: str,
    *args: Any,
    timeout: float = 5.0,  # noqa: ASYNC109 - the limit is passed on to the world
) -> Any:
    """The engine's `function(*args)` in `world`, awaiting a returned promise. Raises
    DocumentChanged when the frame navigates meanwhile, ActionError when the engine
    throws or the call outlives `timeout` seconds."""
    try:
        return await world.call(function, *args, timeout=timeout)
    except CaptureTimeoutError as exc:
        raise ActionError(ErrorCode.TIMEOUT, f"the page did not answer {function} within {timeout:g} s") from exc
    except CaptureError as exc:
        raise ActionError(ErrorCode.ENGINE_ERROR, exc.message) from exc
