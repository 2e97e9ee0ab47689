"""The conversation as it is sent, kept under a token budget.

Long tasks pile up tool results; a request must still fit (24k tokens by default). Old
results give way first (each keeps a one-line stub: what was done, where, whether it
worked), then, if that is not enough, the oldest whole steps, which a note replaces. The
system prompt, the task and the latest results always stay whole."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from pagelens.agent.llm.messages import Message, ToolDefinition
from pagelens.tokens import count_tokens, to_json

DEFAULT_REQUEST_BUDGET = 24_000
KEEP_RECENT_RESULTS = 2  # the newest tool results are never cut: the model is acting on them
# A task must leave at least this much of a request to each of the newest results.
MIN_RESULT_TOKENS = 1_000
# Each wire wraps tools and messages in JSON of its own that this count does not see (a few
# percent on OpenAI's): compact to a little under the budget.
WIRE_MARGIN = 0.95
_PER_MESSAGE = 4  # the role and framing every message costs


@dataclass
class Entry:
    message: Message
    tokens: int
    stub: str | None = None  # what the content becomes when it is cut (tool results)
    cut: bool = False
    on_cut: Callable[[], None] | None = None  # what forgets that the full result was seen


@functools.lru_cache(maxsize=64)
def _json_tokens(text: str) -> int:
    """The tokens of a tool list: the same few lists come back on every request."""
    return count_tokens(text)


def clip_tokens(text: str, limit: int, tokens_of: Callable[[str], int] = count_tokens) -> str:
    """The start of `text` whose `tokens_of` (its own tokens, or those of a message that
    carries it) is at most `limit`."""
    size, tokens = len(text), tokens_of(text)
    while tokens > limit and size > 0:
        size = int(size * 0.95 * limit / tokens)  # tokens are not characters: aim low, check
        tokens = tokens_of(text[:size])
    return text[:size]


def message_tokens(message: Message) -> int:
    calls = sum(count_tokens(call.name) + count_tokens(to_json(call.arguments)) for call in message.tool_calls)
    return _PER_MESSAGE + count_tokens(message.content) + calls


class History:
    def __init__(self, tools: list[ToolDefinition], budget: int = DEFAULT_REQUEST_BUDGET) -> None:
        self.budget = budget
        self.tools_tokens = _json_tokens(to_json([tool.model_dump() for tool in tools]))
        self.entries: list[Entry] = []
        self.kept = 2  # the system prompt and the task: never cut
        self.dropped_steps = 0
        self.task_text: str | None = None  # the task as the user gave it, before any note

    def add(
        self,
        message: Message,
        *,
        stub: str | None = None,
        on_cut: Callable[[], None] | None = None,
        tokens: int | None = None,
    ) -> None:
        """`message` joins the history (`tokens`: its count, when the caller knows it)."""
        count = tokens if tokens is not None else message_tokens(message)
        self.entries.append(Entry(message, count, stub, on_cut=on_cut))

    def tokens(self) -> int:
        return self.tools_tokens + sum(entry.tokens for entry in self.entries)

    def result_cap(self) -> int:
        """The most tokens one tool result may take. The newest results stay whole, so each
        gets an equal share of what the tools, the system prompt and the task leave, with
        one share more for the model's own turns and the stubs of older results."""
        kept = sum(entry.tokens for entry in self.entries[: self.kept])
        return (int(self.budget * WIRE_MARGIN) - self.tools_tokens - kept) // (KEEP_RECENT_RESULTS + 1)

    def messages(self) -> list[Message]:
        """The request's messages, compacted to fit the budget."""
        self._compact()
        return [entry.message for entry in self.entries]

    def _compact(self) -> None:
        target = int(self.budget * WIRE_MARGIN)
        results = [i for i, e in enumerate(self.entries) if e.message.role == "tool" and e.stub is not None]
        for index in results[: max(len(results) - KEEP_RECENT_RESULTS, 0)]:
            if self.tokens() <= target:
                return
            self._cut(self.entries[index])
        while self.tokens() > target and self._drop_oldest_step():
            pass
        # Results are capped as they arrive, so only long turns of the model get here: the
        # budget is the promise, even the newest results give way.
        for entry in [e for e in self.entries if e.message.role == "tool"]:
            if self.tokens() <= target:
                return
            self._cut(entry)

    def _cut(self, entry: Entry) -> None:
        if entry.cut or entry.stub is None:
            return
        entry.message = entry.message.model_copy(update={"content": entry.stub})
        entry.tokens = message_tokens(entry.message)
        entry.cut = True
        if entry.on_cut is not None:
            entry.on_cut()

    def _drop_oldest_step(self) -> bool:
        """Remove the oldest assistant turn with its tool results (a request must never
        hold a result without its call), and say so after the task. False when only
        recent steps are left."""
        start = self.kept
        turns = [i for i in range(start, len(self.entries)) if self.entries[i].message.role == "assistant"]
        if len(turns) <= KEEP_RECENT_RESULTS:
            return False
        end = turns[1]
        for entry in self.entries[start:end]:
            if entry.on_cut is not None:
                entry.on_cut()
        del self.entries[start:end]
        self.dropped_steps += 1
        task = self.entries[self.kept - 1]
        if self.task_text is None:
            self.task_text = task.message.content
        note = f"\n\n[{self.dropped_steps} earlier step(s) were left out to save space; your plan is current.]"
        task.message = task.message.model_copy(update={"content": self.task_text + note})
        task.tokens = message_tokens(task.message)
        return True
