"""Driving `pagelens mcp` as a real subprocess with the MCP SDK's own client, a loopback
site with redirects and error pages, and a look at the server's process tree (to find and
kill its Chromium)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import os
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import mcp.client.stdio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult

SITE_DIR = Path(__file__).parent / "fixtures" / "mcp"
PAGELENS = str(Path(sys.executable).with_name("pagelens"))
# Generous: a busy 2-core machine starts Chromium slowly. Nothing waits this long when well.
CALL_TIMEOUT = 90.0

# A server closes its browser before it exits (an attached Chrome gets its tabs back).
# On a loaded 2-core machine that can outlast the SDK client's 2 s grace after closing
# stdin, after which it would kill the server mid-close: give it the time here.
mcp.client.stdio.PROCESS_TERMINATION_TIMEOUT = 30.0


# ---- the loopback site


class _SiteHandler(SimpleHTTPRequestHandler):
    """tests/fixtures/mcp, plus `/account` redirecting to the login page (an auth wall) and
    a real 404 page for anything missing."""

    redirects = {"/account": "/login.html"}

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        target = self.redirects.get(self.path.split("?", 1)[0])
        if target is not None:
            self.send_response(302)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        super().do_GET()

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code != 404:
            super().send_error(code, message, explain)
            return
        body = (SITE_DIR / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        pass


@contextlib.contextmanager
def serve_site() -> Iterator[str]:
    """The base URL of the site, e.g. ``http://127.0.0.1:40123/``."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_SiteHandler, directory=str(SITE_DIR)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="mcp-test-site", daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


# ---- an MCP client connected to a `pagelens mcp` subprocess


class McpServer:
    """`pagelens mcp ARGS` over stdio. The client lives in a task of its own (the SDK's
    transports are task groups, which must be entered and left by the same task); calls
    can come from any task."""

    def __init__(self, args: list[str], log_path: Path, mode: str = "auto") -> None:
        self.args = args
        self.log_path = log_path
        self.mode = mode
        self.marker = uuid.uuid4().hex  # finds this server among the test's processes
        self.client: Client | None = None
        self._ready = asyncio.Event()
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._error: BaseException | None = None

    @classmethod
    async def start(cls, args: list[str], log_path: Path, mode: str = "auto") -> McpServer:
        server = cls(args, log_path, mode)
        server._task = asyncio.create_task(server._run())
        await asyncio.wait_for(server._ready.wait(), CALL_TIMEOUT)
        if server._error is not None:
            raise RuntimeError(f"MCP server did not start: {server._error!r}\n{server.log()}")
        return server

    async def _run(self) -> None:
        params = StdioServerParameters(
            command=PAGELENS,
            args=["mcp", *self.args],
            env={**server_env(), "PAGELENS_TEST_MARKER": self.marker},
        )
        with self.log_path.open("w") as errlog:
            try:
                client = Client(
                    stdio_client(params, errlog=errlog),
                    read_timeout_seconds=CALL_TIMEOUT,
                    mode=self.mode,
                )
                async with client:
                    self.client = client
                    self._ready.set()
                    await self._stop.wait()
            except BaseException as exc:  # reported by start(), or by close()
                self._error = exc
                self._ready.set()
                if not isinstance(exc, Exception):
                    raise

    async def call(self, tool: str, **arguments: Any) -> CallToolResult:
        assert self.client is not None
        return await self.client.call_tool(tool, arguments)

    async def call_json(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """The call's one JSON object (the first, text, content block)."""
        result = await self.call(tool, **arguments)
        return result_json(result)

    def pid(self) -> int:
        """The server process (found by the marker in its environment)."""
        for pid in descendants(os.getpid()):
            if self.marker in _environ(pid) and "mcp" in cmdline(pid):
                return pid
        raise AssertionError(f"no pagelens mcp process with marker {self.marker}")

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    async def close(self) -> None:
        self._stop.set()
        if self._task is not None:
            await asyncio.wait_for(self._task, CALL_TIMEOUT)


def server_env() -> dict[str, str]:
    """What a server subprocess needs from the test's environment (PAGELENS_CHROMIUM...,
    and PYTHONPATH, so that it runs the same sources as the tests)."""
    basics = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "PYTHONPATH") if k in os.environ}
    return basics | {k: v for k, v in os.environ.items() if k.startswith("PAGELENS_")}


def result_json(result: CallToolResult) -> dict[str, Any]:
    first = result.content[0]
    assert first.type == "text", result.content
    return json.loads(first.text)


# ---- processes (Linux /proc)


def _children_map() -> dict[int, list[int]]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces: split after it.
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    return children


def descendants(pid: int) -> list[int]:
    children = _children_map()
    found: list[int] = []
    stack = list(children.get(pid, []))
    while stack:
        child = stack.pop()
        found.append(child)
        stack.extend(children.get(child, []))
    return found


def cmdline(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace")


def _environ(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def chromium_processes(server_pid: int) -> list[int]:
    """The Chromium processes under a server (browser first, then its helpers)."""
    procs = [pid for pid in descendants(server_pid) if _is_chromium(pid)]
    return sorted(procs, key=lambda pid: "--type=" in cmdline(pid))


def _is_chromium(pid: int) -> bool:
    try:
        comm = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return False
    return "chrom" in comm


async def wait_until(predicate: Any, what: str, within: float = 30.0) -> None:
    """Re-check `predicate` until it holds; a process exit has no event to wait on."""
    deadline = time.monotonic() + within
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {within:.0f} s waiting for {what}")
        await asyncio.sleep(0.05)
