"""Helpers of the action tests: what an agent does between calls."""

from __future__ import annotations

from typing import Any

from pagelens.actions import Session


async def ids(session: Session, **options: Any) -> dict[str, str]:
    """Control name -> element id, from analyze(what="semantic"), as an agent reads them."""
    return {name: node["i"] for name, node in (await nodes(session, **options)).items()}


async def go(session: Session, url: str) -> dict[str, Any]:
    result = await session.interact({"action": "navigate", "url": url, "summary": False})
    assert result["success"], result
    return result


async def nodes(session: Session, **options: Any) -> dict[str, dict[str, Any]]:
    """Semantic nodes by name."""
    view = await session.analyze({"what": "semantic", **options})
    return {node["n"]: node for node in view.data["interactive_tree"]}


async def act(session: Session, **request: Any) -> dict[str, Any]:
    """An interact call that must succeed."""
    result = await session.interact(request)
    assert result["success"], result
    return result
