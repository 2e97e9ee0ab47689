"""Self-healing element ids.

A session remembers what each id it has shown the agent stood for (role, name, where,
in which document). When the id no longer names that element (a re-render replaced it,
or a navigation reused the number for something else), the element is looked up again
by role and name, the nearest to the old position winning among look-alikes. One clear
match heals the id; none, or several equally likely, is a `stale_element` error that
lists the candidates.
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict
from dataclasses import dataclass

from pagelens.actions import bridge
from pagelens.actions.errors import ActionError
from pagelens.actions.models import Candidate
from pagelens.browser.world import FrameWorld
from pagelens.engine.roles import SHORT_ROLE
from pagelens.errors import ErrorCode

_MEMORY_LIMIT = 5000


def canonical_role(role: str) -> str:
    return SHORT_ROLE.get(role, role)


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).lower()


def names_match(actual: str, remembered: str) -> bool:
    """Views truncate long names with an ellipsis; such a name matches by prefix."""
    a, r = _fold(actual), _fold(remembered)
    if r.endswith("\u2026"):
        return a.startswith(r[:-1].rstrip())
    return a == r


@dataclass(frozen=True)
class Descriptor:
    role: str
    name: str
    xy: tuple[int, int] | None
    doc: str  # the document the id was seen in (bridge docToken)

    def matches(self, role: str, name: str) -> bool:
        return canonical_role(self.role) == canonical_role(role) and names_match(name, self.name)


class ElementMemory:
    """What the ids of one tab stood for when the agent last saw them (bounded)."""

    def __init__(self) -> None:
        self._seen: OrderedDict[str, Descriptor] = OrderedDict()

    def remember(self, element_id: str, descriptor: Descriptor) -> None:
        self._seen[element_id] = descriptor
        self._seen.move_to_end(element_id)
        while len(self._seen) > _MEMORY_LIMIT:
            self._seen.popitem(last=False)

    def get(self, element_id: str) -> Descriptor | None:
        return self._seen.get(element_id)

    def clear(self) -> None:
        self._seen.clear()


async def heal(world: FrameWorld, prefix: str, old_id: str, was: Descriptor) -> dict:
    """The element `old_id` became: the engine's description of it (its local id, role,
    name and xy). Raises ActionError stale_element with the candidates otherwise."""
    x, y = was.xy if was.xy is not None else (None, None)
    found = await bridge.call(world, "heal", canonical_role(was.role), was.name, x, y)
    if found["status"] == "ok":
        return found
    candidates = [
        Candidate(id=prefix + c["id"], role=c["role"], name=c["name"], xy=tuple(c["xy"])) for c in found["candidates"]
    ]
    why = "several controls match" if found["status"] == "ambiguous" else "no control matches"
    raise ActionError(
        ErrorCode.STALE_ELEMENT,
        f"element {old_id} ({canonical_role(was.role)} {was.name!r}) is no longer on the page and {why}; "
        "pick one of the candidates or take a fresh view",
        candidates=candidates,
    )
