"""The tools the model is given, by their fixed names: each a parameters model, a
description, and what it does with the run's browser session. `interact` and `analyze`
are the MCP server's own declarations (actions/tools.py), so their parameters and
results are the same whichever way an agent reaches pagelens (docs/agent.md)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from playwright.async_api import Error as PlaywrightError
from pydantic import BaseModel, ConfigDict, Field

from pagelens.actions import tools as action_tools
from pagelens.actions.models import AnalyzeRequest, InteractRequest
from pagelens.actions.schemas import input_schema, parse_arguments
from pagelens.actions.session import Session
from pagelens.agent.history import DEFAULT_REQUEST_BUDGET
from pagelens.agent.llm.base import ChatModel
from pagelens.agent.llm.messages import ToolDefinition, Usage
from pagelens.agent.plan import Plan, PlanParams
from pagelens.agent.skills import SkillParams, Skills, skill
from pagelens.agent.tools import (
    AskUserParams,
    DebuggerParams,
    ElementPicker,
    ReplLimits,
    ReplParams,
    ask_user_which_element,
    debugger,
    repl,
)
from pagelens.agent.tools.summarize import summarize
from pagelens.errors import ErrorCode, PagelensError, first_line
from pagelens.extraction.models import SummarizeRequest

NAVIGATION_TIMEOUT_S = 15.0  # a navigate call waits this long for the page to load


class NavigateParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    url: str = Field(min_length=1, description="The address to load (a path is relative to the current page).")
    newTab: bool = Field(False, description="Open it in a new tab instead of the current one.")  # noqa: N815


class FinishParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    result: str = Field(description="The outcome the user asked for, in plain words (repeat what you found).")


class FailParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field(min_length=1, description="Why the task cannot be done.")


@dataclass
class ToolOutput:
    """What a tool gives back: `data` is the JSON the model reads; `ok` false marks a
    failure (data then has `error` and `message`); `end` closes the run."""

    data: dict[str, Any]
    ok: bool = True
    end: Literal["finish", "fail"] | None = None
    view_key: str | None = None  # the view whose hash was remembered (see ToolContext.view_hashes)
    usage: Usage | None = None  # what the tool's own model calls cost (summarize)

    @classmethod
    def failure(cls, exc: PagelensError, **extra: Any) -> ToolOutput:
        return cls({"success": False, **exc.to_dict(), **extra}, ok=False)


@dataclass
class ToolContext:
    """What tools share during one run."""

    session: Session
    plan: Plan
    skills: Skills | None = None
    model: ChatModel | None = None  # summarize's model; None: extract-only
    repl_limits: ReplLimits = field(default_factory=ReplLimits)
    headed: bool = False  # the user can see the browser (and so point at an element)
    picker: ElementPicker | None = None  # else, how the user points at one (on a screenshot)
    # Hashes of the views the model can still read in its history, by what was asked:
    # asking again for the same view sends only {unchanged: true} when it still matches.
    view_hashes: dict[str, str] = field(default_factory=dict)
    request_budget: int = DEFAULT_REQUEST_BUDGET  # tokens in any one request of a tool's own (summarize)


Run = Callable[[ToolContext, Any], Awaitable[ToolOutput]]


@dataclass(frozen=True, eq=False)  # one object per tool: hashed by identity
class AgentTool:
    name: str
    description: str
    params: type[BaseModel]
    run: Run
    acts: bool = False  # moves the plan's current step along
    schema: dict[str, Any] | None = None  # when not the params model's own

    def definition(self) -> ToolDefinition:
        return _definition(self)

    def parse(self, arguments: dict[str, Any]) -> Any:
        return parse_arguments(self.params, arguments)


@functools.cache
def _definition(tool: AgentTool) -> ToolDefinition:
    # A schema takes milliseconds to generate and never changes: once per process.
    return ToolDefinition(
        name=tool.name, description=tool.description, parameters=tool.schema or input_schema(tool.params)
    )


# ---- the tools


def set_plan(plan: Plan, params: PlanParams) -> ToolOutput:
    """The `plan` tool's work: it needs no browser, so the step API runs it too."""
    plan.set(params)
    return ToolOutput({"success": True, "plan": plan.render(), "currentStepIndex": plan.currentStepIndex})


async def _plan(ctx: ToolContext, params: PlanParams) -> ToolOutput:
    return set_plan(ctx.plan, params)


async def _navigate(ctx: ToolContext, params: NavigateParams) -> ToolOutput:
    data = await ctx.session.interact({"action": "navigate", "url": params.url, "new_tab": params.newTab})
    if not data["success"]:
        return ToolOutput(data, ok=False)
    answer = {"success": True, "finalUrl": data.get("url"), "title": data.get("title"), "tabId": data.get("tab_id")}
    for key in ("http_status", "load_complete", "summary", "summary_error", "dialog"):
        if key in data:
            answer[key] = data[key]
    return ToolOutput(answer)


async def _interact(ctx: ToolContext, request: InteractRequest) -> ToolOutput:
    data = await ctx.session.interact(request)
    if data.pop("image", None) is not None:  # the model reads the facts, not the JPEG
        data.pop("mime_type", None)
    return ToolOutput(data, ok=data.get("success", True) is not False)


async def _analyze(ctx: ToolContext, request: AnalyzeRequest) -> ToolOutput:
    key = request.model_dump_json(exclude={"if_changed_since"})
    known = ctx.view_hashes.get(key)
    if known is not None and request.if_changed_since is None and request.what != "screenshot":
        request = request.model_copy(update={"if_changed_since": known})
    result = await ctx.session.analyze(request)
    data = dict(result.data)
    if data.get("unchanged"):
        data["message"] = "the page shows the same as the last time you read this view (see above)"
    elif isinstance(data.get("hash"), str):
        ctx.view_hashes[key] = data["hash"]
        return ToolOutput(data, view_key=key)
    return ToolOutput(data, ok=data.get("success", True) is not False)


async def _repl(ctx: ToolContext, params: ReplParams) -> ToolOutput:
    page = await ctx.session.page()
    libraries = await ctx.skills.libraries_for(page.url) if ctx.skills else []

    async def navigate(url: str) -> dict[str, Any]:
        return (await _navigate(ctx, NavigateParams(url=url))).data

    try:
        result = await repl(page, params, navigate=navigate, libraries=libraries, limits=ctx.repl_limits)
    except PagelensError as exc:
        output = getattr(exc, "output", "")
        return ToolOutput.failure(exc, **({"output": output} if output else {}))
    return ToolOutput({"success": True, **result.model_dump(mode="json", by_alias=True)})


async def _ask_user(ctx: ToolContext, params: AskUserParams) -> ToolOutput:
    if ctx.picker is not None:  # a surface of its own asks the user (the daemon's web UI)
        picked = await ctx.picker(await ctx.session.page(), params)
    elif ctx.headed:
        picked = await ask_user_which_element(await ctx.session.page(), params)
    else:
        raise PagelensError(
            "nobody can point at an element in a headless browser: run with a visible browser (--headed)",
            code=ErrorCode.PICKER_UNAVAILABLE,
        )
    return ToolOutput({"success": True, **picked.model_dump(mode="json", by_alias=True)})


async def _skill(ctx: ToolContext, params: SkillParams) -> ToolOutput:
    if ctx.skills is None:
        raise PagelensError("this run has no skill store", code=ErrorCode.STORE_UNAVAILABLE)
    return ToolOutput({"success": True, **await skill(ctx.skills, params)})


async def _debugger(ctx: ToolContext, params: DebuggerParams) -> ToolOutput:
    result = await debugger(await ctx.session.page(), params)
    return ToolOutput({"success": True, **result.model_dump(mode="json")})


async def _summarize(ctx: ToolContext, request: SummarizeRequest) -> ToolOutput:
    spent: list[Usage] = []
    result, restarted = await ctx.session.on_live_browser(
        lambda browser: summarize(request, browser, ctx.model, request_budget=ctx.request_budget, on_usage=spent.append)
    )
    data = {"success": True, **result.for_model()}
    if restarted:
        data["browser_restarted"] = True
    return ToolOutput(data, usage=sum(spent, Usage()))


async def _finish(ctx: ToolContext, params: FinishParams) -> ToolOutput:
    return ToolOutput({"success": True, "result": params.result}, end="finish")


async def _fail(ctx: ToolContext, params: FailParams) -> ToolOutput:
    return ToolOutput({"success": True, "reason": params.reason}, end="fail")


def _doc(model: type[BaseModel]) -> str:
    return inspect.cleandoc(model.__doc__ or "")


TOOLS: dict[str, AgentTool] = {
    tool.name: tool
    for tool in (
        AgentTool("plan", "Set or update your plan. " + _doc(PlanParams), PlanParams, _plan),
        AgentTool(
            "navigate",
            "Load a URL in the browser (waits up to 15 s for it) and get {finalUrl, title, tabId} "
            "and the page's compact summary.",
            NavigateParams,
            _navigate,
            acts=True,
        ),
        AgentTool(
            "interact",
            action_tools.INTERACT.description,
            InteractRequest,
            _interact,
            acts=True,
            schema=action_tools.INTERACT.schema(),
        ),
        AgentTool(
            "analyze",
            action_tools.ANALYZE.description,
            AnalyzeRequest,
            _analyze,
            schema=action_tools.ANALYZE.schema(),
        ),
        AgentTool(
            "repl",
            "Run JavaScript in a sandbox that cannot touch the page. Helpers: browserjs(fn, ...args) runs fn "
            "in the page and returns its JSON result; navigate({url}); sleep(ms); returnFile(name, content, "
            "mimeType); in the page, nativeClick(selector), nativeType(selector, text), nativePress(key), "
            "nativeKeyDown(key), nativeKeyUp(key) send real input. console output is returned and the last "
            "value appended as `=> value`. Never navigate from the code (location, history, open): use "
            "navigate(). Matching skills' libraries are loaded in the page before browserjs runs.",
            ReplParams,
            _repl,
            acts=True,
        ),
        AgentTool(
            "ask_user_which_element",
            "Ask the user to point at an element of the page (hover highlights, click chooses, arrow keys "
            "walk the tree, Esc cancels); returns its selector, xpath, text, tag, attributes, html and box.",
            AskUserParams,
            _ask_user,
        ),
        AgentTool(
            "skill",
            "Site-specific JavaScript libraries you keep for later runs: list (for a url), get, create, "
            "rewrite, update (replace one string), delete. A skill's patterns (github.com/*/issues, "
            "**.example.com/**) say on which pages its library is loaded for browserjs.",
            SkillParams,
            _skill,
        ),
        AgentTool(
            "debugger",
            'Evaluate JavaScript in the page\'s own main world ({"action": "eval", "code": ...}); a last '
            "resort when the page's globals hold the answer. Returns {text, details}.",
            DebuggerParams,
            _debugger,
            acts=True,
        ),
        AgentTool(
            "summarize",
            action_tools.SUMMARIZE.description,
            SummarizeRequest,
            _summarize,
            schema=action_tools.SUMMARIZE.schema(),
        ),
        AgentTool("finish", "The task is done: give the result the user asked for.", FinishParams, _finish),
        AgentTool("fail", "The task cannot be done: say why.", FailParams, _fail),
    )
}


async def run_tool(ctx: ToolContext, tools: dict[str, AgentTool], name: str, arguments: dict[str, Any]) -> ToolOutput:
    """Run the tool `name` (one of `tools`, those the model was given) with the model's
    `arguments`. Whatever goes wrong becomes a failed output the model reads (an unknown
    tool, a bad parameter, a page problem)."""
    tool = tools.get(name)
    if tool is None:
        return ToolOutput.failure(
            PagelensError(f"there is no tool {name!r}; the tools are {', '.join(tools)}", code=ErrorCode.UNKNOWN_TOOL)
        )
    try:
        params = tool.parse(arguments)
        if tool.acts:
            ctx.plan.start_step()
        return await tool.run(ctx, params)
    except PagelensError as exc:
        return ToolOutput.failure(exc)
    except PlaywrightError as exc:  # the page closed or crashed under a tool that drives it itself
        return ToolOutput.failure(PagelensError(f"{name}: {first_line(exc)}", code=ErrorCode.BROWSER_ERROR))
