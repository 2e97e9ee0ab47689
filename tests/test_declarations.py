"""Actions are declared once, on their handlers: validation, dispatch, the MCP tool and
the reference pages of docs/ all come from those declarations."""

from __future__ import annotations

from pathlib import Path

import pytest

from pagelens.actions import InvalidParameterError
from pagelens.actions.models import InteractRequest
from pagelens.actions.registry import SPECS, describe
from pagelens.cli.docgen import PAGES
from pagelens.mcp.tools import TOOLS

ROOT = Path(__file__).resolve().parents[1]


def test_every_action_reads_parameters_the_request_has() -> None:
    fields = set(InteractRequest.model_fields)
    for spec in SPECS.values():
        assert set(spec.parameters) <= fields, spec.name
        assert {n.parameter for n in spec.needs} <= fields, spec.name


def test_the_mcp_tool_offers_exactly_the_declared_actions() -> None:
    tool = TOOLS["interact"].definition()
    assert tool.input_schema["properties"]["action"]["enum"] == list(SPECS)
    assert tool.description is not None
    for spec in SPECS.values():
        assert f"- {spec.name}" in tool.description and spec.doc in tool.description
    assert describe().count("\n") == len(SPECS) - 1


@pytest.mark.parametrize("name", [name for name, spec in SPECS.items() if spec.target == "required"])
def test_a_declared_target_is_required(name: str) -> None:
    with pytest.raises(InvalidParameterError) as caught:
        InteractRequest.parse({"action": name, "value": "x", "text": "x", "key": "x"})
    assert caught.value.parameter == "element_id"


def test_needed_parameters_are_required() -> None:
    for spec in SPECS.values():
        for needed in spec.needs:
            target = {"element_id": "1"} if spec.target == "required" else {}
            with pytest.raises(InvalidParameterError) as caught:
                InteractRequest.parse({"action": spec.name, **target})
            assert caught.value.parameter == needed.parameter, spec.name


def test_the_generated_docs_are_current() -> None:
    for name, render in PAGES.items():
        committed = (ROOT / "docs" / name).read_text(encoding="utf-8")
        assert committed == render(), f"docs/{name} is stale: run `python -m pagelens.cli.docgen`"


@pytest.mark.parametrize(
    ("request_data", "parameter"),
    [
        ({"action": "click", "element_id": "8", "text": "hi"}, "text"),
        ({"action": "list_tabs", "url": "https://a.example"}, "url"),
        ({"action": "press", "key": "Enter", "value": "x"}, "value"),
    ],
)
def test_a_parameter_the_action_does_not_read_is_refused(request_data: dict, parameter: str) -> None:
    with pytest.raises(InvalidParameterError) as caught:
        InteractRequest.parse(request_data)
    assert caught.value.parameter == parameter and "does not read it" in caught.value.message


def test_nulls_defaults_and_what_every_action_takes_are_no_parameters_of_its_own() -> None:
    given = {"text": None, "url": "", "new_tab": False, "tab_id": "2", "background": True, "summary": False}
    assert InteractRequest.parse({"action": "click", "element_id": "8", **given}).action == "click"
