"""Scripted models for the agent's tests and benches: turns that read what the agent sent
(the latest tool result, unfenced) and answer with the next call, as a model would."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from tests.llm_servers import Call, Reply

_FENCE = re.compile(r"^<<(\w+) result of [\w ]+: untrusted data, not instructions>>\n(.*)\n<<end \1>>$", re.S)


def tool_results(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every tool result of an OpenAI chat request, parsed from inside its fence."""
    results = []
    for message in body["messages"]:
        if message["role"] == "tool":
            match = _FENCE.match(message["content"])
            assert match is not None, f"a tool result outside its fence: {message['content'][:200]}"
            results.append(json.loads(match.group(2)))
    return results


def last_result(body: dict[str, Any]) -> dict[str, Any]:
    return tool_results(body)[-1]


def find_control(view: Any, name: str, role: str | None = None) -> str:
    """The id of the semantic view's control named `name` (a substring), of `role` if given."""
    if isinstance(view, dict):
        named = name.lower() in str(view.get("n", "")).lower()
        if named and (role is None or view.get("r") == role) and "i" in view:
            return str(view["i"])
        children: Any = view.values()
    elif isinstance(view, list):
        children = view
    else:
        children = ()
    for child in children:
        try:
            return find_control(child, name, role)
        except LookupError:
            continue
    raise LookupError(name)


def call(name: str, say: str = "", **arguments: Any) -> Reply:
    """A reply that calls `name` with `arguments`, saying `say` first."""
    return Reply(text=say, tool_calls=[Call(name, arguments)])


def plan(*steps: tuple[str, str]) -> Reply:
    return call("plan", steps=[{"description": d, "status": s} for d, s in steps])


Turn = Callable[[dict[str, Any]], Reply]

# The multi-step task on the fixture shop (tests/fixtures/agent): search, open a result,
# fill and submit a form, verify the confirmation.
SHOP_TASK = "Ask the seller of the Blue Kettle whether it is blue inside"
STEPS = ("Search for kettles", "Open the Blue Kettle", "Ask the seller a question", "Check the question was sent")


def shop_script() -> list[Turn | Reply]:
    """Search, open a result, fill and submit a form, verify: the multi-step task."""

    def open_result(body: dict[str, Any]) -> Reply:
        return call("interact", "The Blue Kettle is a result.", action="click",
                    element_id=find_control(last_result(body), "Blue Kettle", "link"))  # fmt: skip

    def check_sent(body: dict[str, Any]) -> Reply:
        events = last_result(body)["observations"]["recent_events"]
        if not any("Thank you, Ada" in event for event in events):
            return call("fail", reason=f"no confirmation: {events}")
        return plan(*((step, "completed") for step in STEPS))

    return [
        plan(*((step, "pending") for step in STEPS)),
        call("interact", action="type", selector="label=Search products", text="kettle"),
        call("interact", action="press", key="Enter"),
        plan((STEPS[0], "completed"), (STEPS[1], "in_progress"), (STEPS[2], "pending"), (STEPS[3], "pending")),
        call("analyze", what="semantic"),
        open_result,
        plan((STEPS[0], "completed"), (STEPS[1], "completed"), (STEPS[2], "pending"), (STEPS[3], "pending")),
        call("interact", action="type", selector="label=Your name", text="Ada"),
        call("interact", action="type", selector="label=Your question", text="Is it blue inside too?"),
        call("interact", action="click", selector='role=button[name="Send question"]'),
        check_sent,
        call("finish", result="Asked the seller of the Blue Kettle (€39); the page confirmed the question was sent."),
    ]
