"""Screenshots in the action layer: analyze(what="screenshot") and
interact(action="screenshot") both take theirs here, and this goes to vision's screenshot.

An element is named as for any action, by an id from any view (healed when stale) or by
a selector in any form interact takes, and is then shot by its id."""

from __future__ import annotations

from typing import Any

from pagelens.actions import targets
from pagelens.actions.tabs import Tab
from pagelens.vision import Screenshot, screenshot


async def take(
    tab: Tab,
    *,
    full_page: bool = False,
    element_id: str | None = None,
    selector: str | None = None,
    frame: str | None = None,
    marks: bool = False,
    screenshot_hash: str | None = None,
) -> Screenshot:
    target_id = None
    if element_id is not None or selector is not None:
        target = await targets.resolve(tab, element_id=element_id, selector=selector, frame=frame)
        target_id = target.id
    return await screenshot(
        tab.page, full_page=full_page, element_id=target_id, marks=marks, screenshot_hash=screenshot_hash
    )


def describe(shot: Screenshot) -> dict[str, Any]:
    """What an agent reads beside the image: the screenshot's facts, flags only when set,
    and the marks as the ids drawn (where each is, the image shows)."""
    data = shot.model_dump(mode="json", exclude={"image", "marks"}, exclude_defaults=True)
    data["mime_type"] = shot.mime_type
    if shot.marks is not None:
        data["marks"] = [mark.id for mark in shot.marks]
    return data
