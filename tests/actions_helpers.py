"""Helpers of the action tests: what an agent does between calls."""

from __future__ import annotations

from typing import Any

from pagelens.actions import Session


async def ids(session: Session, **options: Any) -> dict[str, str]:
    """Control name -> element id, from analyze(what="semantic"), as an agent reads them."""
    view = await session.analyze({"what": "semantic", **options})
    return {node["n"]: node["i"] for node in view.data["interactive_tree"]}


async def go(session: Session, url: str) -> dict[str, Any]:
    result = await session.interact({"action": "navigate", "url": url, "summary": False})
    assert result["success"], result
    return result
