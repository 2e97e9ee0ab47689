"""How a view splits into chunks and is put back together from some of them.

A chunk is what gets ranked and paginated: a control of the interaction model, a node of
the semantic tree, an element (one line) of the skeleton, a block (a paragraph, heading
or list, between blank lines) of the markdown text. The rest of a view (url, title,
viewport...) is its envelope and comes with every page. Summaries are not cut: they are
a few hundred tokens by construction.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pydantic_core

from pagelens.engine.roles import ROLE_WORDS


def compact_json(value: Any) -> str:
    """JSON as an agent receives it (the MCP results' serializer: no spaces, UTF-8 kept):
    what tokens are counted on."""
    return pydantic_core.to_json(value).decode("utf-8")


@dataclass(frozen=True)
class ListLayout:
    """Chunks are the items of the list `key`."""

    key: str
    unit: str
    text_of: Callable[[dict[str, Any]], str]
    id_key: str  # the key of an item's element id
    # Other parts of the view an item brings along (the interaction model's aimap entry).
    companions: Callable[[dict[str, Any], dict[str, Any]], str] | None = None
    rebuild: Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]] | None = None

    def applies(self, view: dict[str, Any]) -> bool:
        return isinstance(view.get(self.key), list)

    def chunks(self, view: dict[str, Any]) -> list[Any]:
        return view[self.key]

    def text(self, chunk: Any) -> str:
        return self.text_of(chunk)

    def element_id(self, chunk: Any) -> str | None:
        return chunk.get(self.id_key)

    def footprint(self, view: dict[str, Any], chunk: Any) -> str:
        """The text `chunk` adds to the view's JSON (less one separator)."""
        own = compact_json(chunk)
        return own + self.companions(view, chunk) if self.companions else own

    def join(self, view: dict[str, Any], chunks: list[Any]) -> dict[str, Any]:
        if self.rebuild is not None:
            return self.rebuild(view, chunks)
        return {**view, self.key: chunks}


@dataclass(frozen=True)
class TextLayout:
    """Chunks are the pieces of the text `key` between `separator`s."""

    key: str
    unit: str
    separator: str

    def applies(self, view: dict[str, Any]) -> bool:
        return isinstance(view.get(self.key), str)

    def chunks(self, view: dict[str, Any]) -> list[Any]:
        text = view[self.key]
        return [piece for piece in text.split(self.separator) if piece.strip()] if text else []

    def text(self, chunk: Any) -> str:
        return _ID_ATTR_RE.sub("", chunk)

    def element_id(self, chunk: Any) -> str | None:
        return None  # a piece of text, not one element

    def footprint(self, view: dict[str, Any], chunk: Any) -> str:
        return compact_json(chunk)[1:-1]  # escaped as inside the JSON string

    def join(self, view: dict[str, Any], chunks: list[Any]) -> dict[str, Any]:
        return {**view, self.key: self.separator.join(chunks)}


_ID_ATTR_RE = re.compile(r'\sdata-llm-id="[^"]*"')  # numbers, not words: nothing to rank on


def _control_text(control: dict[str, Any]) -> str:
    role = control.get("role", "")
    said = " ".join(control.get(key) or "" for key in ("name", "context", "text", "description"))
    return f"{role} {said} {ROLE_WORDS.get(role, '')}"


def _aimap_entry(view: dict[str, Any], control: dict[str, Any]) -> str:
    selector = view.get("aimap", {}).get(control["id"])
    return "," + compact_json({control["id"]: selector})[1:-1] if selector is not None else ""


def _rebuild_interaction(view: dict[str, Any], controls: list[dict[str, Any]]) -> dict[str, Any]:
    aimap = view.get("aimap", {})
    return {**view, "controls": controls, "aimap": {c["id"]: aimap[c["id"]] for c in controls if c["id"] in aimap}}


def _node_text(node: dict[str, Any]) -> str:
    role = node.get("r", "")
    said = " ".join(node.get(key) or "" for key in ("n", "c", "t", "v", "d"))
    return f"{role} {said} {ROLE_WORDS.get(role, '')}"


LAYOUTS: dict[str, ListLayout | TextLayout] = {
    "interaction": ListLayout("controls", "controls", _control_text, "id", _aimap_entry, _rebuild_interaction),
    "semantic": ListLayout("interactive_tree", "nodes", _node_text, "i"),
    "skeleton": TextLayout("html", "elements", "\n"),
    # analyze's markdown view: an Extraction with its content under `markdown` (views.md)
    "markdown": TextLayout("markdown", "blocks", "\n\n"),
}
