"""What an action acts on: an element id from any view ("12.5" inside frame element 12),
a selector (CSS, or the semantic forms text=, role=, aria-label=, label=, placeholder=),
or a point. Ids are checked against what they stood for when the agent saw them, and
healed when a re-render or a navigation left them naming nothing, or something else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

from pagelens.actions import bridge
from pagelens.actions.errors import ActionError, InvalidParameterError
from pagelens.actions.healing import Descriptor, heal
from pagelens.actions.tabs import Tab
from pagelens.browser.world import FrameWorld
from pagelens.engine.ids import ElementId
from pagelens.errors import ErrorCode

SEMANTIC_PREFIXES = ("text", "role", "aria-label", "label", "placeholder")
_SEMANTIC_RE = re.compile(r"^(text|role|aria-label|label|placeholder)\s*=\s*(.+)$", re.DOTALL)
_ROLE_NAME_RE = re.compile(r"^([A-Za-z]+)\s*\[\s*name\s*=\s*(.+?)\s*\]$", re.DOTALL)


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def parse_selector(selector: str) -> dict[str, str | None]:
    """`text=Sign in` → {kind: text, value: "Sign in"}; `role=button[name="Save"]` →
    {kind: role, value: button, name: Save}; anything else is CSS."""
    match = _SEMANTIC_RE.match(selector.strip())
    if not match:
        if not selector.strip():
            raise InvalidParameterError("selector", "empty selector")
        return {"kind": "css", "value": selector}
    kind, rest = match.group(1), match.group(2).strip()
    if kind == "role":
        named = _ROLE_NAME_RE.match(rest)
        if named:
            return {"kind": "role", "value": named.group(1), "name": _unquote(named.group(2))}
        return {"kind": "role", "value": _unquote(rest), "name": None}
    return {"kind": kind, "value": _unquote(rest)}


@dataclass
class Target:
    """A resolved element: `local_id` in `world`, `id` as the agent names it."""

    world: FrameWorld
    frame_path: list[str]
    local_id: str
    role: str
    name: str
    tag: str
    xy: tuple[int, int]
    doc: str
    healed_from: str | None = None
    matches: int = 1
    selector: str | None = None  # CSS for it in its document (the interaction view's), for the result

    @property
    def id(self) -> str:
        return ".".join([*self.frame_path, self.local_id])

    @property
    def descriptor(self) -> Descriptor:
        return Descriptor(role=self.role, name=self.name, xy=self.xy, doc=self.doc)

    def become(self, other: Target) -> None:
        """Name `other` from now on: the same control, rendered again as a new element."""
        for f in fields(self):
            setattr(self, f.name, getattr(other, f.name))


async def resolve(tab: Tab, *, element_id: str | None, selector: str | None, frame: str | None) -> Target:
    """The element an action means; ActionError not_found or stale_element otherwise."""
    if element_id is not None:
        parsed = ElementId.parse(element_id)
        path = list(parsed.frames)
        spec: dict[str, str | None] = {"kind": "id", "value": parsed.local}
    else:
        assert selector is not None
        path = list(ElementId.frame(frame)) if frame else []
        spec = parse_selector(selector)
    world, _ = await bridge.frame_world(tab.page, path)
    found = await bridge.call(world, "find", spec)
    doc = await bridge.call(world, "docToken")
    if found["status"] == "bad_selector":
        raise InvalidParameterError("selector", found["message"])
    prefix = "".join(f"{p}." for p in path)
    if element_id is not None:
        was = tab.memory.get(element_id)
        stale = found["status"] != "ok" or (
            was is not None and was.doc != doc and not was.matches(found["role"], found["name"])
        )
        if stale:
            if was is None:
                raise ActionError(
                    ErrorCode.NOT_FOUND,
                    f"no element with id {element_id} on this page; take a fresh view "
                    "(analyze interaction or semantic)",
                )
            healed = await heal(world, prefix, element_id, was)
            target = await _target(world, path, healed, doc)
            # A copy the engine gave the same id (ids.md) needs no word: the id holds.
            target.healed_from = element_id if target.id != element_id else None
            tab.memory.remember(target.id, target.descriptor)
            return target
    elif found["status"] != "ok":
        where = f" in frame {frame}" if frame else ""
        raise ActionError(ErrorCode.NOT_FOUND, f"nothing matches selector {selector!r}{where}")
    target = await _target(world, path, found, doc)
    tab.memory.remember(target.id, target.descriptor)
    return target


async def _target(world: FrameWorld, path: list[str], found: dict, doc: str) -> Target:
    return Target(
        world=world,
        frame_path=path,
        local_id=found["id"],
        role=found["role"],
        name=found["name"],
        tag=found.get("tag", ""),
        xy=tuple(found["xy"]),
        doc=doc,
        matches=found.get("count", 1),
        # Now, while it is there: the action may remove it or leave the page.
        selector=await bridge.call(world, "selectorOf", found["id"]),
    )


async def viewport_point(tab: Tab, target: Target, point: list[float]) -> tuple[float, float]:
    """A point in the target's frame, in the page's viewport (frames may have scrolled)."""
    _, (dx, dy) = await bridge.frame_world(tab.page, target.frame_path)
    return point[0] + dx, point[1] + dy
