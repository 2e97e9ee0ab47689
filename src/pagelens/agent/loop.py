"""The in-process agent: observe → plan → act (one tool call) → verify → update the plan,
until finish or fail, a budget, or a stop from the user (docs/agent.md).

    agent = pagelens.Agent(model="openai/gpt-4o-mini")
    report = await agent.run("Find the cheapest red shoe", url="https://shop.example")
    async for event in agent.stream("...", url=...):   # the same run, watched
        ...
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pagelens.actions.session import Session, SessionOptions
from pagelens.agent.brain import Brain
from pagelens.agent.events import (
    AgentEvent,
    PlanUpdated,
    RunFinished,
    RunReport,
    RunStarted,
    RunStatus,
    StepRecord,
    Thinking,
    ToolFinished,
    ToolStarted,
    UserNavigated,
)
from pagelens.agent.history import DEFAULT_REQUEST_BUDGET
from pagelens.agent.llm import ChatModel, ModelError, open_model, resolve_model
from pagelens.agent.llm.messages import Completion, ToolCall
from pagelens.agent.secrets import Secrets, StreamedText, hide_typed
from pagelens.agent.skills import Skills
from pagelens.agent.tools import ElementPicker
from pagelens.agent.toolset import NAVIGATION_TIMEOUT_S, TOOLS, ToolContext, ToolOutput, run_tool
from pagelens.errors import ErrorCode, InvalidRequestError

T = TypeVar("T")
EventHandler = Callable[[AgentEvent], Awaitable[None] | None]
# The model may answer in text once; a second time in a row the run ends (no_tool_call).
MAX_TEXT_ONLY_REPLIES = 2
STOPPED_BY_USER = "stopped by the user"  # a stop's reason unless its caller gives one


@dataclass
class Limits:
    max_steps: int = 30  # tool calls
    time_limit_s: float = 600.0
    token_limit: int | None = None  # input plus output tokens over the whole run
    request_budget: int = DEFAULT_REQUEST_BUDGET  # tokens in any one request
    max_output_tokens: int | None = None  # None: the model's configuration (2048 by default)

    def __post_init__(self) -> None:
        # A limit of 0 or less would end the run before it began, as if the task had failed.
        for name in ("max_steps", "time_limit_s", "token_limit", "request_budget", "max_output_tokens"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise InvalidRequestError(f"Limits.{name} must be positive, not {value!r}")


class _End(Exception):
    def __init__(self, status: RunStatus, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.code, self.reason = status, code, reason


@dataclass
class Agent:
    """Runs tasks in a browser. Give it a model id (``"auto"``: the first provider with a
    key in the environment), or a ready ChatModel; a session to use, or it starts (and
    closes) its own Chromium; a Skills store, or it opens the default one."""

    model: str | ChatModel = "auto"
    session: Session | None = None
    skills: Skills | None = None
    headless: bool = True
    browser: str | None = None  # what to launch when it starts its own: chromium, chrome, msedge or a path
    allowed_hosts: list[str] | None = None
    limits: Limits = field(default_factory=Limits)
    show_values: bool = False  # put typed text in events and reports (secrets stay masked: secrets.py)
    # How a headless run asks its user to point at an element (the daemon's web UI);
    # None: ask_user_which_element needs a visible browser.
    picker: ElementPicker | None = None
    tools: Sequence[str] = tuple(TOOLS)
    _stop: asyncio.Event = field(default_factory=asyncio.Event, init=False, repr=False)
    _stop_reason: str = field(default=STOPPED_BY_USER, init=False, repr=False)

    def stop(self, reason: str = STOPPED_BY_USER) -> None:
        """End the running task at the next safe point (STOPPED, `reason` the report's); a
        model call or tool under way is cancelled. A stop that comes before the run begins
        (while its browser starts) ends it at its first."""
        self._stop_reason = reason
        self._stop.set()

    async def run(self, task: str, *, url: str | None = None, on_event: EventHandler | None = None) -> RunReport:
        async with AsyncExitStack() as stack:
            stack.callback(self._stop.clear)  # the stop was this run's: the agent can run again
            if isinstance(self.model, str):
                model = open_model(resolve_model(self.model))
                stack.push_async_callback(model.aclose)
            else:
                model = self.model
            session = self.session
            if session is None:
                options = SessionOptions(navigation_timeout=NAVIGATION_TIMEOUT_S)
                started = await Session.start(
                    headless=self.headless, browser=self.browser, allowed_hosts=self.allowed_hosts, options=options
                )
                session = await stack.enter_async_context(started)
            skills = self.skills
            if skills is None:
                skills = await stack.enter_async_context(Skills.open(None))
            return await _Run(self, model, session, skills, task, url, on_event).go()
        raise AssertionError("unreachable")  # for mypy: the stack does not swallow exceptions

    async def stream(self, task: str, *, url: str | None = None) -> AsyncIterator[AgentEvent]:
        """The run as a stream of events, ending with RunFinished."""
        queue: asyncio.Queue[AgentEvent | None] = asyncio.Queue()
        runner = asyncio.ensure_future(self.run(task, url=url, on_event=queue.put_nowait))
        runner.add_done_callback(lambda _: queue.put_nowait(None))
        try:
            while (event := await queue.get()) is not None:
                yield event
            runner.result()  # a run that crashed raises here
        finally:
            if not runner.done():
                self.stop()
                with contextlib.suppress(Exception):
                    await runner


class _Run:
    """One task, start to end."""

    def __init__(
        self,
        agent: Agent,
        model: ChatModel,
        session: Session,
        skills: Skills,
        task: str,
        url: str | None,
        on_event: EventHandler | None,
    ) -> None:
        self.agent = agent
        self.limits = agent.limits
        self.model = model
        self.session = session
        self.on_event = on_event
        self.tools = {name: TOOLS[name] for name in agent.tools}
        self.brain = Brain(
            model,
            task,
            url,
            [tool.definition() for tool in self.tools.values()],
            request_budget=self.limits.request_budget,
            max_output_tokens=self.limits.max_output_tokens,
        )
        self.context = ToolContext(
            session,
            self.brain.plan,
            skills=skills,
            model=model,
            headed=not agent.headless,
            picker=agent.picker,
            request_budget=self.limits.request_budget,
        )
        self.task, self.url = task, url
        self.steps: list[StepRecord] = []
        self.started = time.monotonic()
        self.deadline = self.started + self.limits.time_limit_s
        self.seen_url: str | None = None
        self.secrets = Secrets()

    async def go(self) -> RunReport:
        brain, url = self.brain, self.url
        await self._emit(RunStarted(task=self.task, url=url, model=self.model.config.id))
        report = RunReport(status="FAILED", model=self.model.config.id)
        try:
            if url:
                await self._act(ToolCall(id="start", name="navigate", arguments={"url": url}), thought="", opening=True)
            report.result = await self._loop()
            report.status = "COMPLETED"
            brain.plan.finish(succeeded=True, outcome=report.result)
        except _End as end:
            report.status, report.error, report.reason = end.status, end.code, end.reason
            brain.plan.finish(succeeded=False, outcome=end.reason)
        except ModelError as exc:
            report.error, report.reason = exc.code, exc.message
            brain.plan.finish(succeeded=False, outcome=exc.message)
        report.steps, report.plan, report.usage = self.steps, brain.plan, brain.usage
        report.duration_s = round(time.monotonic() - self.started, 3)
        # Masked with every secret the run came to know, also those learnt after a step.
        report = self.secrets.redact_model(report)
        await self._emit(PlanUpdated(plan=brain.plan.model_copy(deep=True)))
        await self._emit(RunFinished(report=report))
        return report

    async def _loop(self) -> str:
        text_only = 0
        while True:
            self._check_budgets()
            completion = await self._guarded(self._think())
            # The user may have moved the tab while the model thought: its calls answer the
            # page it saw, and the move is reported right after their results.
            moved = await self._user_navigation()
            if not completion.tool_calls:
                text_only += 1
                if text_only >= MAX_TEXT_ONLY_REPLIES:
                    raise _End("FAILED", ErrorCode.NO_TOOL_CALL, "the model stopped calling tools")
                await self._report_navigation(moved)
                self.brain.nudge()
                continue
            text_only = 0
            for call in completion.tool_calls:
                output = await self._act(call, thought=completion.text)
                if output.end == "finish":
                    return str(output.data["result"])
                if output.end == "fail":
                    raise _End("FAILED", ErrorCode.TASK_FAILED, str(output.data["reason"]))
            await self._report_navigation(moved)

    async def _think(self) -> Completion:
        """The model's next move; its text goes to watchers as it streams in."""
        streamed = StreamedText(self.secrets)
        completion = await self.brain.think(lambda text: self._think_aloud(streamed.feed(text)))
        self._think_aloud(streamed.rest())
        return completion

    async def _act(self, call: ToolCall, *, thought: str, opening: bool = False) -> ToolOutput:
        """Run one tool call and give its result to the model."""
        self._check_budgets()
        index = len(self.steps)
        # Not run yet, so where its text goes is not known: typed text is masked even
        # when the run shows values.
        started = hide_typed(call.name, call.arguments)
        await self._emit(ToolStarted(index=index, tool=call.name, arguments=started, thought=thought))
        began = time.monotonic()
        if opening:  # the loop's own first navigation, shown to the model as a call of its own
            self.brain.record_call(call)
        if call.invalid_arguments is not None:
            output = ToolOutput.failure(InvalidRequestError(_not_an_object(call)))
        else:
            output = await self._guarded(self._run_tool(call))
        if output.usage is not None:  # the run's model, asked by the tool: the run's tokens too
            self.brain.usage = self.brain.usage + output.usage
        self.seen_url = self.session.tabs.active_url()
        step = StepRecord(
            index=index,
            tool=call.name,
            arguments=dict(call.arguments) if self.agent.show_values else started,
            ok=output.ok,
            error=output.data.get("error"),
            message=output.data.get("message"),
            url=self.seen_url,
            duration_s=round(time.monotonic() - began, 3),
        )
        self.steps.append(step)
        view_key = output.view_key
        data = self.secrets.redact(output.data)
        self.brain.observe(call, data, on_cut=self._forgetting(view_key) if view_key else None)
        await self._emit(ToolFinished(step=step, observation=_observation(call.name, output)))
        if call.name == "plan" or self.brain.plan.steps:
            await self._emit(PlanUpdated(plan=self.brain.plan.model_copy(deep=True)))
        return output

    async def _run_tool(self, call: ToolCall) -> ToolOutput:
        """`call` carried out. Around a tool that acts on the page, what its sensitive
        fields hold is read: before, what the user or an earlier call put there (the
        tool may read it and move on), after, what the tool typed."""
        acts = call.name in self.tools and self.tools[call.name].acts
        if acts:
            await self.secrets.read_page(self.session)
        output = await run_tool(self.context, self.tools, call.name, call.arguments)
        if acts:
            await self.secrets.read_page(self.session)
        return output

    def _forgetting(self, view_key: str) -> Callable[[], None]:
        """Once the model cannot read a view any more, asking for it sends it whole again."""

        def forget() -> None:
            self.context.view_hashes.pop(view_key, None)

        return forget

    async def _user_navigation(self) -> dict[str, Any] | None:
        """Where the user took the tab since the run last looked, if anywhere."""
        url = self.session.tabs.active_url()
        if self.seen_url is None or url == self.seen_url:
            return None
        self.seen_url = url
        title = await (await self.session.page()).title()
        skills = self.context.skills
        names = [s.name for s in await skills.list(url)] if skills else []
        return {"finalUrl": url, "title": title, "skills": names}

    async def _report_navigation(self, moved: dict[str, Any] | None) -> None:
        if moved is not None:
            self.brain.note_navigation(self.secrets.redact(moved))
            await self._emit(UserNavigated(url=moved["finalUrl"], title=moved["title"]))

    def _check_budgets(self) -> None:
        if self.agent._stop.is_set():
            raise _End("STOPPED", ErrorCode.RUN_STOPPED, self.agent._stop_reason)
        if len(self.steps) >= self.limits.max_steps:
            raise _End(
                "FAILED", ErrorCode.STEP_BUDGET_EXHAUSTED, f"the task was not done in {self.limits.max_steps} steps"
            )
        if time.monotonic() >= self.deadline:
            raise _End(
                "FAILED", ErrorCode.TIME_BUDGET_EXHAUSTED, f"the task was not done in {self.limits.time_limit_s:g} s"
            )
        used = self.brain.usage.input_tokens + self.brain.usage.output_tokens
        if self.limits.token_limit is not None and used >= self.limits.token_limit:
            raise _End(
                "FAILED", ErrorCode.TOKEN_BUDGET_EXHAUSTED, f"the task used {used} of {self.limits.token_limit} tokens"
            )

    async def _guarded(self, work: Awaitable[T]) -> T:
        """`work`, unless the user stops the run or its time runs out first."""
        task = asyncio.ensure_future(work)
        stopped = asyncio.ensure_future(self.agent._stop.wait())
        try:
            done, _ = await asyncio.wait(
                {task, stopped}, timeout=max(self.deadline - time.monotonic(), 0), return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            stopped.cancel()
        if task in done:
            return task.result()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        self._check_budgets()  # raises STOPPED or the time budget
        raise AssertionError("unreachable")

    def _deliver(self, event: AgentEvent) -> Awaitable[None] | None:
        """`event` to the watcher, its secrets masked (docs/agent.md, "Secrets")."""
        return None if self.on_event is None else self.on_event(self.secrets.redact_model(event))

    async def _emit(self, event: AgentEvent) -> None:
        result = self._deliver(event)
        if result is not None:
            await result

    def _think_aloud(self, text: str) -> None:
        """A piece of the model's text, to watchers, at once (the model is still streaming)."""
        if text and (result := self._deliver(Thinking(text=text))) is not None:
            asyncio.ensure_future(result)


def _not_an_object(call: ToolCall) -> str:
    """Why a call's arguments were refused, without repeating them: they may hold what it
    typed (a password), and the model has its own call before it anyway."""
    try:
        parsed = json.loads(call.invalid_arguments or "")
    except json.JSONDecodeError as exc:
        why = f"{exc.msg} at character {exc.pos}"
    else:
        kinds = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
        why = f"{kinds.get(type(parsed), 'null')}, not an object"
    return f"the arguments of {call.name} are not a JSON object ({why}): send them again as one"


def _observation(tool: str, output: ToolOutput) -> str:
    """One line for people watching: what the call did, or why it failed."""
    data = output.data
    if not output.ok:
        return f"❌ {data.get('error')}: {data.get('message', '')}"[:200]
    if tool == "navigate":
        return f"✅ {data.get('title') or ''} — {data.get('finalUrl')}"
    observations = data.get("observations") or {}
    changed = [name for name in ("url_changed", "dom_mutated") if observations.get(name)]
    if tool == "interact":
        return "✅ " + (", ".join(changed) if changed else data.get("message") or "done")
    if tool in ("finish", "fail"):
        return "✅ " + str(data.get("result") or data.get("reason"))
    return "✅ " + (data.get("message") or "done")
