"""The `repl` tool: JavaScript run in a sandbox that cannot touch the page, with helpers
that can (`browserjs`, `navigate`, the `native*` input helpers), its console output and
completion value printed like a REPL, and files it attaches with `returnFile`."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from playwright.async_api import Page
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from pagelens.agent.tools.errors import NavigationRefusedError, ReplError, ReplTimeoutError
from pagelens.agent.tools.main_world import exception_message
from pagelens.agent.tools.repl_sandbox import Sandbox
from pagelens.agent.tools.repl_target import NAVIGATION_REFUSED, TargetPage

# The agent's own navigate: the URL in, a JSON-able account of where the page ended up out.
NavigateCallback = Callable[[str], Awaitable[Any]]


class ReplParams(BaseModel):
    title: str = Field(description="A few words saying what the code is for (shown to the user).")
    code: str = Field(description="JavaScript; top-level await works, the last expression's value is printed.")


class ReplLimits(BaseModel):
    timeout: float = Field(30.0, gt=0, description="Wall-clock seconds per call; the script is then terminated.")
    max_output_chars: int = Field(20_000, gt=0, description="Console output plus the value, cut beyond this.")


class ReplFile(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    file_name: str
    mime_type: str
    content_base64: str


class ReplResult(BaseModel):
    output: str = Field(description="Console lines in order, then `=> value`.")
    files: list[ReplFile] = Field(default_factory=list)


async def repl(
    page: Page,
    params: ReplParams,
    *,
    navigate: NavigateCallback,
    libraries: Sequence[str] = (),
    limits: ReplLimits | None = None,
) -> ReplResult:
    """Run `params.code` against `page`. `libraries` (the matching skills' JavaScript) are
    loaded into the page before the first `browserjs` of each document. Raises
    ReplTimeoutError, ReplError (the JavaScript error and its line) or
    NavigationRefusedError."""
    limits = limits or ReplLimits()
    browser = page.context.browser
    if browser is None:
        raise ReplError("the repl needs the page's browser to open its sandbox in, and this page has none")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limits.timeout

    async with TargetPage.guarded(page, libraries) as target:

        async def bridge(operation: str, payload: dict[str, Any]) -> Any:
            if operation == "browserjs":
                timeout = max(0.1, deadline - loop.time())
                return await target.browserjs(payload["source"], list(payload["args"]), timeout=timeout)
            if operation == "navigate":
                return await navigate(str(payload["url"]))
            if operation == "native":
                return await target.native(str(payload["action"]), payload)
            raise ReplError(f"unknown repl helper {operation!r}")

        async with Sandbox.opened(browser, bridge) as sandbox:
            try:
                async with asyncio.timeout_at(deadline):
                    reply = await sandbox.run(params.code)
                    report = await sandbox.report(None if "exceptionDetails" in reply else reply["result"])
            except TimeoutError as exc:
                await asyncio.gather(sandbox.terminate(), target.terminate())
                raise ReplTimeoutError(f"the code ran longer than {limits.timeout:g} s and was stopped") from exc
            # Refused even when the code caught the rejection: the agent must hear of it.
            refused = target.refused + sandbox.refused
            if refused:
                raise NavigationRefusedError(f"{NAVIGATION_REFUSED} (it tried {refused[0]})")
            output = _output(report, limits.max_output_chars)
            if "exceptionDetails" in reply:
                raise ReplError(_error_message(reply["exceptionDetails"]), output=output)
            return ReplResult(output=output, files=[ReplFile.model_validate(file) for file in report["files"]])


def _output(report: dict[str, Any], limit: int) -> str:
    lines = list(report["output"])
    if report.get("value") is not None:
        lines.append(f"=> {report['value']}")
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n… [output cut: {len(text) - limit} more characters]"


def _error_message(details: dict[str, Any]) -> str:
    message = exception_message(details).splitlines()[0]
    if message.startswith("Uncaught "):
        message = message.removeprefix("Uncaught ")
    return f"{message} (line {_line(details)})"


def _line(details: dict[str, Any]) -> int:
    """The 1-based line of the code that threw. In REPL mode CDP's own `lineNumber` is
    off by one for errors that went through the awaited completion, so the throwing
    frame of the code's own script is preferred."""
    frames = (details.get("stackTrace") or {}).get("callFrames") or []
    own = [frame for frame in frames if frame.get("scriptId") == details.get("scriptId")]
    for frame in own or frames:
        return int(frame["lineNumber"]) + 1
    return int(details.get("lineNumber", 0)) + 1
