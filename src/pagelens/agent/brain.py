"""One task's conversation with the model: the prompt, the history under its budget,
the plan and the tokens used. The in-process loop (loop.py) and the step API (step.py)
both think with it; only who carries out the tool calls differs."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from pagelens.agent.history import (
    DEFAULT_REQUEST_BUDGET,
    MIN_RESULT_TOKENS,
    Entry,
    History,
    clip_tokens,
    message_tokens,
)
from pagelens.agent.llm.base import ChatModel
from pagelens.agent.llm.messages import Completion, Done, Message, TextDelta, ToolCall, ToolDefinition, Usage
from pagelens.agent.plan import Plan
from pagelens.agent.prompts import SYSTEM_PROMPT, fence, new_fence_tag, task_message
from pagelens.errors import InvalidRequestError
from pagelens.tokens import to_json

NUDGE = "Call one of your tools: carry on with the plan, or finish(result) if the task is done, or fail(reason)."
# The keys a cut result keeps: enough to remember what was done and how it went.
_STUB_KEYS = (
    "success",
    "action",
    "finalUrl",
    "url",
    "title",
    "tabId",
    "tab_id",
    "error",
    "message",
    "result",
    "reason",
)
_STUB_TEXT = 160


_SYSTEM = Message(role="system", content=SYSTEM_PROMPT)


@functools.cache
def _system_tokens() -> int:
    return message_tokens(_SYSTEM)


class SavedEntry(BaseModel):
    message: Message
    tokens: int
    stub: str | None = None
    cut: bool = False


class BrainState(BaseModel):
    """A brain between two calls of the step API, as JSON."""

    task: str
    fence_tag: str
    plan: Plan
    usage: Usage
    entries: list[SavedEntry]
    dropped_steps: int = 0
    task_text: str | None = None
    calls: int = 0


class Brain:
    def __init__(
        self,
        model: ChatModel,
        task: str,
        url: str | None,
        tools: Iterable[ToolDefinition],
        *,
        request_budget: int = DEFAULT_REQUEST_BUDGET,
        max_output_tokens: int | None = None,
        state: BrainState | None = None,
    ) -> None:
        """A brain for `task` from its start, or carrying on from `state`."""
        self.model = model
        self.task = task
        self.tools = list(tools)
        self.max_output_tokens = max_output_tokens
        self.history = History(self.tools, request_budget)
        if state is None:
            self.plan, self.usage, self.fence_tag, self._calls = Plan(), Usage(), new_fence_tag(), 0
            self.history.add(_SYSTEM, tokens=_system_tokens())
            self.history.add(Message(role="user", content=task_message(task, url)))
            if self.history.result_cap() < MIN_RESULT_TOKENS:
                # Every request carries the task whole: one this long leaves no room to work.
                raise InvalidRequestError(
                    f"the task is {self.history.entries[-1].tokens:,} tokens, too long for requests of "
                    f"{request_budget:,}: shorten it"
                )
        else:
            self.plan, self.usage, self.fence_tag, self._calls = state.plan, state.usage, state.fence_tag, state.calls
            self.history.entries = [Entry(e.message, e.tokens, e.stub, e.cut) for e in state.entries]
            self.history.dropped_steps, self.history.task_text = state.dropped_steps, state.task_text

    def state(self) -> BrainState:
        """Everything the brain knows, to carry on later (maybe in another process)."""
        return BrainState(
            task=self.task,
            fence_tag=self.fence_tag,
            plan=self.plan,
            usage=self.usage,
            entries=[
                SavedEntry(message=e.message, tokens=e.tokens, stub=e.stub, cut=e.cut) for e in self.history.entries
            ],
            dropped_steps=self.history.dropped_steps,
            task_text=self.history.task_text,
            calls=self._calls,
        )

    @classmethod
    def restore(
        cls,
        model: ChatModel,
        state: BrainState,
        tools: Iterable[ToolDefinition],
        *,
        request_budget: int = DEFAULT_REQUEST_BUDGET,
        max_output_tokens: int | None = None,
    ) -> Brain:
        return cls(
            model,
            state.task,
            None,
            tools,
            request_budget=request_budget,
            max_output_tokens=max_output_tokens,
            state=state,
        )

    async def think(self, on_text: Callable[[str], None] | None = None) -> Completion:
        """Ask the model for its next move; the answer joins the history."""
        messages = self.history.messages()
        completion: Completion | None = None
        async for event in self.model.stream(messages, self.tools, max_output_tokens=self.max_output_tokens):
            if isinstance(event, TextDelta):
                if on_text is not None:
                    on_text(event.text)
            elif isinstance(event, Done):
                completion = event.completion
        assert completion is not None, "a model stream ends with Done"
        self.usage = self.usage + completion.usage
        self.history.add(completion.message())
        return completion

    def observe(self, call: ToolCall, data: dict[str, Any], *, on_cut: Callable[[], None] | None = None) -> None:
        """A tool's result, fenced as data, answering `call`; one too big for a request
        (a script's output, a view asked with a large max_tokens) comes shortened."""
        message = Message(role="tool", tool_call_id=call.id, name=call.name, content=self._fenced(call.name, data))
        tokens, cap = message_tokens(message), self.history.result_cap()
        if tokens > cap:
            message, tokens = self._shortened(message, data, tokens, cap)
            if on_cut is not None:  # the model never read the whole result
                on_cut()
                on_cut = None
        self.history.add(message, stub=self._fenced(call.name, _stub(data)), on_cut=on_cut, tokens=tokens)

    def record_call(self, call: ToolCall) -> None:
        """A call made on the model's behalf (the run's opening navigation)."""
        self.history.add(Message(role="assistant", tool_calls=[call]))

    def note_navigation(self, data: dict[str, Any]) -> ToolCall:
        """The user moved the tab during the run: tell the model as a navigation result
        (page text only ever arrives as a tool result)."""
        self._calls += 1
        call = ToolCall(id=f"user_navigation_{self._calls}", name="navigate", arguments={"url": data["finalUrl"]})
        self.history.add(Message(role="assistant", content="(the user navigated the tab)", tool_calls=[call]))
        self.observe(call, {"by": "user", **data})
        return call

    def nudge(self) -> None:
        self.history.add(Message(role="user", content=NUDGE))

    def _fenced(self, tool: str, data: dict[str, Any]) -> str:
        return fence(tool, to_json(data), self.fence_tag)

    def _shortened(self, message: Message, data: dict[str, Any], tokens: int, cap: int) -> tuple[Message, int]:
        """`message` with the start of its result's JSON as one string, cut to `cap` tokens."""
        name = message.name
        assert name is not None

        def with_start(partial: str) -> Message:
            shortened = {
                **_stub(data),
                "cut": f"this result was {tokens:,} tokens, more than the {cap:,} one result may take; "
                "`partial` is its start. Ask for less (a query, max_tokens, a page of the view, code that "
                "returns less)",
                "partial": partial,
            }
            return message.model_copy(update={"content": self._fenced(name, shortened)})

        text = to_json(data)
        cut = with_start(clip_tokens(text, cap, lambda partial: message_tokens(with_start(partial))))
        return cut, message_tokens(cut)


def _stub(data: dict[str, Any]) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key in _STUB_KEYS:
        value = data.get(key)
        if value is None:
            continue
        kept[key] = value[:_STUB_TEXT] + "…" if isinstance(value, str) and len(value) > _STUB_TEXT else value
    kept["cut"] = "the rest of this result was left out to save space"
    return kept
