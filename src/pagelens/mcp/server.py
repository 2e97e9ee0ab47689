"""The MCP server: its tools over one browser session (transports.py serves it).

Whatever a call does, the server process survives it: page problems are results, bad
parameters and browser failures are typed error results, and anything unexpected is
caught and reported as `internal_error` rather than taking the process down."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from mcp.server import Server
from mcp.types import CallToolRequestParams, CallToolResult, ListToolsResult, PaginatedRequestParams

import pagelens
from pagelens.errors import ErrorCode, InvalidRequestError, PagelensError
from pagelens.extraction.summarize import MAX_TIMEOUT_S
from pagelens.mcp.holder import SessionHolder
from pagelens.mcp.instructions import INSTRUCTIONS
from pagelens.mcp.results import error_result
from pagelens.mcp.tools import TOOLS

logger = logging.getLogger("pagelens.mcp")

# A safety net above every tool's own limits (navigation 30 s, result long-poll 15 s,
# wait_for up to its value, summarize up to its timeout): no call may hold a client forever.
CALL_TIMEOUT = MAX_TIMEOUT_S + 30.0


def build_server(holder: SessionHolder) -> Server[SessionHolder]:
    """An MCP server whose tools drive `holder`'s session; the session closes with it."""

    @asynccontextmanager
    async def lifespan(_: Server[SessionHolder]) -> AsyncIterator[SessionHolder]:
        try:
            yield holder
        finally:
            with anyio.CancelScope(shield=True):
                await holder.close()

    tools = [spec.definition() for spec in TOOLS.values()]

    async def list_tools(_ctx: Any, _params: PaginatedRequestParams | None) -> ListToolsResult:
        return ListToolsResult(tools=tools)

    async def call_tool(_ctx: Any, params: CallToolRequestParams) -> CallToolResult:
        return await run_tool(holder, params.name, params.arguments or {})

    return Server(
        "pagelens",
        version=pagelens.__version__,
        title="pagelens",
        description="A real Chromium for agents: compact page summaries and actions by element id.",
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def run_tool(holder: SessionHolder, name: str, arguments: dict[str, Any]) -> CallToolResult:
    spec = TOOLS.get(name)
    if spec is None:
        return error_result(InvalidRequestError(f"unknown tool {name!r}; the tools are {', '.join(TOOLS)}"))
    try:
        request = spec.parse(arguments)
        with anyio.fail_after(CALL_TIMEOUT):
            session = await holder.get()
            return await spec.run(session, request)
    except PagelensError as exc:
        return error_result(exc)
    except TimeoutError:
        return error_result(
            PagelensError(f"{name} did not finish within {CALL_TIMEOUT:.0f} s", code=ErrorCode.CALL_TIMEOUT)
        )
    except Exception as exc:  # the server outlives any bug in one call
        logger.exception("%s failed", name)
        return error_result(PagelensError(f"{type(exc).__name__}: {exc}", code=ErrorCode.INTERNAL_ERROR))
