"""Tool input schemas and argument parsing, from the pydantic models so that the
contract is written once. Pydantic's output is made flat for MCP clients: `$ref`s are
inlined (several clients do not resolve them), titles dropped, `X | None` shown as X
(an agent omits a parameter rather than sending null), and unknown keys are refused."""

from __future__ import annotations

import copy
from typing import Any

from pydantic import BaseModel, ValidationError

from pagelens.errors import InvalidParameterError


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The flat JSON schema of `model`'s fields, for a tool's `inputSchema`."""
    raw = model.model_json_schema(mode="validation")
    defs = raw.pop("$defs", {})
    schema = _flatten(raw, defs)
    schema["type"] = "object"
    schema["additionalProperties"] = False
    return schema


def _flatten(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, list):
        return [_flatten(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    node = _resolve(dict(node), defs)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "title":
            continue
        if key == "properties":  # its keys are parameter names, not schema keywords
            out[key] = {name: _flatten(prop, defs) for name, prop in value.items()}
        else:
            out[key] = _flatten(value, defs)
    if "default" in out and out["default"] is None:
        del out["default"]  # "default: null" tells an agent nothing
    return out


def _resolve(node: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """Inline a `$ref` and collapse `X | None` until neither is left at this level."""
    while True:
        ref = node.pop("$ref", None)
        if ref is not None:
            # The field's own keys (description, default) win over the definition's.
            node = {**copy.deepcopy(defs[ref.rsplit("/", 1)[-1]]), **node}
            continue
        options = node.get("anyOf")
        if options is not None:
            kept = [option for option in options if option != {"type": "null"}]
            if len(kept) == 1:
                del node["anyOf"]
                node = {**kept[0], **node}
                continue
            node["anyOf"] = kept
        return node


def parse_arguments(model: type[BaseModel], arguments: dict[str, Any]) -> Any:
    """`arguments` as a `model`; a bad or unknown parameter raises InvalidParameterError
    naming it. The action layer's requests have a `parse` of their own that does so."""
    parse = getattr(model, "parse", None)
    if parse is not None:
        return parse(arguments)
    try:
        return model.model_validate(arguments)
    except ValidationError as exc:
        raise InvalidParameterError.from_validation(exc) from exc
