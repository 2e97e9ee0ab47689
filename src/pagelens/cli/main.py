"""`pagelens` command line: a thin layer over the Python API."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import sys
from collections.abc import Awaitable, Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import quote

import typer
from pydantic import ValidationError
from rich.markup import escape

import pagelens
from pagelens.browser.launcher import check_cdp_url, check_launch_or_attach
from pagelens.browser.network import is_loopback
from pagelens.browser.page import LOAD_WAIT_S
from pagelens.browser.page import time_limit as capture_limit  # `run` has a --time-limit
from pagelens.cli.framework import Command, Group
from pagelens.cli.output import check_out, failures, print_or_write, stderr, write_out
from pagelens.cli.targets import reachable_hosts, resolve_target
from pagelens.engine.models import VIEW_SPECS, VIEWS, CaptureRequest
from pagelens.errors import InvalidRequestError
from pagelens.extraction.api import check_options as check_extract_options
from pagelens.vision.models import ScreenshotRequest
from pagelens.vision.screenshots import SCREENSHOT_TIMEOUT_S, take_screenshot

app = typer.Typer(
    name="pagelens",
    help="Eyes and hands on the web for AI agents: page views an LLM can read cheaply.",
    cls=Group,
    invoke_without_command=True,  # `pagelens` alone prints the help (_options)
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # docstrings' paragraphs flow to the terminal's width
)

JPEG_SUFFIXES = (".jpg", ".jpeg")
T = TypeVar("T")


# Options every browser-driving command takes, declared once.
Headed = Annotated[bool, typer.Option(help="Show the browser window.")]
BrowserChoice = Annotated[
    str | None,
    typer.Option(
        "--browser",
        help="What to launch: chromium, chrome, msedge, or an executable's path. "
        "Default: $PAGELENS_CHROMIUM, else the first of Chromium (headless: its headless shell first), "
        "Chrome and Edge found.",
    ),
]
CdpUrl = Annotated[
    str | None, typer.Option(help="Attach to a running Chrome (e.g. http://127.0.0.1:9222) instead of launching.")
]
AllowedHosts = Annotated[
    str | None,
    typer.Option(
        help="Comma-separated hosts pages may reach (*.example.com matches subdomains). "
        "Default: everything for URLs, loopback only for local files; "
        "a local file may always reach loopback, where it is served."
    ),
]
Viewport = Annotated[str, typer.Option(help="Viewport size, WIDTHxHEIGHT.")]
BaseUrl = Annotated[
    str | None,
    typer.Option(
        help="Read the page as if loaded from this http(s) URL (a saved page's original address): "
        "links resolve against it."
    ),
]
PageTarget = Annotated[str, typer.Argument(help="A URL, or a local HTML file (served on 127.0.0.1).")]


# The engine's views, by their one name.
Mode = StrEnum("Mode", {name: name for name in VIEWS})  # type: ignore[misc]  # members come from VIEWS
_VIEW_HELP = "Which view to print: " + "; ".join(f"{s.name}, {s.doc}" for s in VIEW_SPECS.values()) + "."
_COMPACT = Mode("compact")


@app.command(cls=Command)
def snapshot(
    target: PageTarget,
    mode: Annotated[Mode, typer.Option("--mode", "-m", metavar="VIEW", help=_VIEW_HELP)] = _COMPACT,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the JSON here instead of stdout.")] = None,
    headed: Headed = False,
    browser: BrowserChoice = None,
    cdp_url: CdpUrl = None,
    allowed_hosts: AllowedHosts = None,
    include_offscreen: Annotated[bool, typer.Option(help="semantic: keep controls outside the viewport.")] = False,
    include_boxes: Annotated[bool, typer.Option(help="semantic: add each control's box [x, y, w, h].")] = False,
    include_values: Annotated[
        bool, typer.Option(help="interaction/semantic: show form values (passwords never).")
    ] = False,
    mask_contact_details: Annotated[
        bool, typer.Option(help="Mask e-mail addresses and phone numbers in names, headings and texts.")
    ] = True,
    max_controls: Annotated[int, typer.Option(help="interaction: most controls to report.")] = 400,
    max_headings: Annotated[int, typer.Option(help="interaction: most headings to report.")] = 30,
    base_url: BaseUrl = None,
    max_iframe_depth: Annotated[int, typer.Option(help="interaction/semantic: how deep to enter frames.")] = 1,
    viewport: Viewport = "1280x800",
    timeout: Annotated[
        float | None, typer.Option(help="Capture time limit in seconds (default: 3 for summaries, 30 otherwise).")
    ] = None,
    indent: Annotated[
        int | None, typer.Option(min=0, help="Indent the JSON (default: 2 on a terminal, compact otherwise).")
    ] = None,
) -> None:
    """Print a view of a page as JSON: the compact summary unless --mode names another."""
    with failures():
        request = _capture_request(
            {
                "maxControls": max_controls,
                "maxHeadings": max_headings,
                "baseUrl": base_url,
                "includeValues": include_values,
                "maxIframeDepth": max_iframe_depth,
                "maskContactDetails": mask_contact_details,
            }
        )
        limit = capture_limit(timeout, VIEW_SPECS[mode.value].timeout)
        if out is not None:
            check_out(out)
        view = _read_page(
            target,
            lambda page: page.snapshot(
                mode.value,
                request=request,
                include_offscreen=include_offscreen,
                include_boxes=include_boxes,
                timeout=limit,
            ),
            headed=headed,
            browser=browser,
            cdp_url=cdp_url,
            allowed_hosts=allowed_hosts,
            viewport=viewport,
        )
        if indent is None and out is None and sys.stdout.isatty():
            indent = 2
        print_or_write(view.model_dump_json(exclude_none=True, indent=indent), out, f"{mode.value} view of {target}")


@app.command(cls=Command)
def screenshot(
    target: PageTarget,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the JPEG (a .jpg or .jpeg file).")],
    full_page: Annotated[bool, typer.Option(help="The whole page, not only the viewport.")] = False,
    element_id: Annotated[str | None, typer.Option(help="Only the element with this stable id.")] = None,
    selector: Annotated[str | None, typer.Option(help="Only the first element matching this CSS.")] = None,
    marks: Annotated[bool, typer.Option(help="Draw each visible control's box and id (Set-of-Marks).")] = False,
    max_width: Annotated[int, typer.Option(help="Widest image, in pixels.")] = 1024,
    quality: Annotated[int, typer.Option(help="JPEG quality, 1 to 95.")] = 70,
    headed: Headed = False,
    browser: BrowserChoice = None,
    cdp_url: CdpUrl = None,
    allowed_hosts: AllowedHosts = None,
    viewport: Viewport = "1280x800",
    timeout: Annotated[float | None, typer.Option(help="Time limit in seconds (default 30).")] = None,
) -> None:
    """Write a screenshot of a page as a JPEG (at most 1024 px wide by default) and print
    its facts as JSON: size, scale, hash, and with --marks the ids drawn."""
    with failures():
        if out.suffix.lower() not in JPEG_SUFFIXES:
            raise InvalidRequestError(f"--out {out}: a screenshot is a JPEG; name it .jpg or .jpeg")
        request = ScreenshotRequest.parse(
            full_page=full_page,
            element_id=element_id,
            selector=selector,
            marks=marks,
            max_width=max_width,
            quality=quality,
        )
        limit = capture_limit(timeout, SCREENSHOT_TIMEOUT_S)
        check_out(out)
        shot = _read_page(
            target,
            lambda page: take_screenshot(page, request, limit),
            headed=headed,
            browser=browser,
            cdp_url=cdp_url,
            allowed_hosts=allowed_hosts,
            viewport=viewport,
        )
        assert shot.image is not None  # no screenshot_hash was given: the image always comes
        write_out(out, shot.image)
    sys.stdout.write(shot.model_dump_json(exclude={"image"}, exclude_none=True) + "\n")
    stderr.print(escape(f"wrote {shot.width}×{shot.height} JPEG of {target} to {out}"))


class ExtractFormat(StrEnum):
    markdown = "markdown"
    text = "text"
    html = "html"


@app.command("extract", cls=Command)
def extract_command(
    target: PageTarget,
    format: Annotated[  # noqa: A002 - the option's name
        ExtractFormat, typer.Option("--format", "-f", help="markdown, text or html.")
    ] = ExtractFormat.markdown,
    max_characters: Annotated[int, typer.Option(help="Cut the content to this many characters.")] = 120_000,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the result here instead of stdout.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the content with its metadata as one JSON object.")
    ] = False,
    base_url: BaseUrl = None,
    headed: Headed = False,
    browser: BrowserChoice = None,
    cdp_url: CdpUrl = None,
    allowed_hosts: AllowedHosts = None,
    viewport: Viewport = "1280x800",
    timeout: Annotated[float, typer.Option(help="Extraction time limit in seconds.")] = 30.0,
) -> None:
    """Print the main content of a page (no navigation, ads, footers or cookie banners)
    as Markdown, text or HTML; with --json, with its title, byline, site, date, language
    and word count."""
    with failures():
        check_extract_options(format.value, max_characters, timeout, base_url)  # before the browser
        if out is not None:
            check_out(out)
        extraction = _read_page(
            target,
            lambda page: pagelens.extract(
                page, format=format.value, max_characters=max_characters, base_url=base_url, timeout=timeout
            ),
            headed=headed,
            browser=browser,
            cdp_url=cdp_url,
            allowed_hosts=allowed_hosts,
            viewport=viewport,
        )
        text = extraction.model_dump_json(indent=2 if sys.stdout.isatty() else None) if as_json else extraction.content
        size = f"{extraction.characters:,} characters"
        if extraction.truncated:
            size += f", cut at --max-characters {max_characters:,}"
        what = f"the main content of {target} ({size})" + (" with its metadata as JSON" if as_json else "")
        print_or_write(text, out, what)
    if not extraction.content.strip():  # a page can have none: an empty file, a page of controls only
        stderr.print(escape(f"{target} has no main content"))


@app.command(cls=Command)
def mcp(
    headed: Headed = False,
    browser: BrowserChoice = None,
    cdp_url: CdpUrl = None,
    allowed_hosts: AllowedHosts = None,
    user_data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Chromium profile folder to keep cookies and logins. "
            "Default: a fresh temporary profile, so servers never share one."
        ),
    ] = None,
    viewport: Viewport = "1280x800",
    port: Annotated[
        int | None,
        typer.Option(help="Serve streamable HTTP on this port (0: any free one) instead of stdio."),
    ] = None,
    host: Annotated[str, typer.Option(help="The address to listen on with --port.")] = "127.0.0.1",
) -> None:
    """Run the MCP server: the interact, analyze and summarize tools over one browser.

    Speaks MCP on stdin/stdout (register the command `pagelens mcp` with your client),
    or streamable HTTP at http://HOST:PORT/mcp with --port.
    """
    from pagelens.mcp import BrowserOptions, serve_http, serve_stdio  # MCP SDK only when needed
    from pagelens.mcp.transports import print_ready

    with failures(), contextlib.suppress(KeyboardInterrupt):
        if cdp_url and user_data_dir is not None:
            raise InvalidRequestError(
                "--user-data-dir and --cdp-url exclude each other (an attached browser keeps its own profile)"
            )
        check_cdp_url(cdp_url)
        check_launch_or_attach(browser, cdp_url)
        if port is not None and not 0 <= port <= 65535:
            raise InvalidRequestError(f"--port must be between 0 and 65535, not {port}")
        options = BrowserOptions(
            headless=not headed,
            browser=browser,
            cdp_url=cdp_url,
            allowed_hosts=reachable_hosts(allowed_hosts, local=False),
            user_data_dir=str(user_data_dir.resolve()) if user_data_dir is not None else None,
            viewport=_parse_viewport(viewport),
        )
        if port is None:
            asyncio.run(serve_stdio(options))
        else:
            if not is_loopback(host):
                stderr.print(f"warning: anyone who can reach {host} can drive this browser")
            asyncio.run(serve_http(options, host=host, port=port, on_ready=print_ready))


@app.command("run", cls=Command)
def run_command(
    task: Annotated[str, typer.Argument(help="What the agent should do, in plain words.")],
    url: Annotated[
        str | None, typer.Option(help="Where to start: a URL, or a local HTML file (served on 127.0.0.1).")
    ] = None,
    model: Annotated[
        str,
        typer.Option(help='provider/model (openai/gpt-4o-mini, anthropic/..., ...), or "auto": the first with a key.'),
    ] = "auto",
    max_steps: Annotated[int, typer.Option(min=1, max=500, help="Most tool calls before the run gives up.")] = 30,
    time_limit: Annotated[float, typer.Option(min=1, help="Most seconds before the run gives up.")] = 600.0,
    headed: Headed = False,
    browser: BrowserChoice = None,
    allowed_hosts: AllowedHosts = None,
    show_values: Annotated[bool, typer.Option(help="Show typed text in the progress and the report.")] = False,
    database_url: Annotated[
        str | None, typer.Option(help="Where skills are kept (default: an SQLite file in your data folder).")
    ] = None,
) -> None:
    """Let the agent carry out TASK in a browser: live progress on the terminal, then a
    JSON report on stdout ({status, result, steps, plan, usage, duration_s}). Exit status
    0 when the task was completed, 1 otherwise."""
    from pagelens.agent import Agent, Limits, Skills
    from pagelens.cli.progress import RunProgress

    async def go(where: Path | str | None, hosts: list[str] | None) -> pagelens.agent.RunReport:
        with contextlib.ExitStack() as stack:
            start = _served(where, stack) if isinstance(where, Path) else where
            async with Skills.open(database_url) as skills:
                agent = Agent(
                    model=model,
                    skills=skills,
                    headless=not headed,
                    browser=browser,
                    allowed_hosts=hosts,
                    limits=Limits(max_steps=max_steps, time_limit_s=time_limit),
                    show_values=show_values,
                )
                # Ctrl-C stops the run at its next safe point: the report still comes, STOPPED.
                asyncio.get_running_loop().add_signal_handler(signal.SIGINT, agent.stop)
                with RunProgress(stderr) as progress:
                    return await agent.run(task, url=start, on_event=progress.on_event)
        raise AssertionError("unreachable")

    try:
        with failures():
            where = resolve_target(url) if url else None
            report = asyncio.run(go(where, reachable_hosts(allowed_hosts, local=isinstance(where, Path))))
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    sys.stdout.write(report.model_dump_json(indent=2 if sys.stdout.isatty() else None) + "\n")
    raise typer.Exit(0 if report.status == "COMPLETED" else 1)


@app.command(cls=Command)
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port to listen on.")] = 8787,
    database_url: Annotated[
        str | None,
        typer.Option(help="sqlite:///path or postgresql://...; default: an SQLite file in your data folder."),
    ] = None,
    redis_url: Annotated[
        str | None, typer.Option(help="redis://... to share events with other daemons (several behind a balancer).")
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(
            envvar="PAGELENS_TOKEN",  # a command line is seen by every user of the machine (ps)
            show_envvar=True,
            help="The bearer token to require; default: one made on first start and kept in your config.",
        ),
    ] = None,
    cors_origin: Annotated[
        list[str] | None, typer.Option(help="An origin whose pages may call the daemon (repeat for several).")
    ] = None,
    model: Annotated[
        str, typer.Option(help='The model of tasks that name none ("auto": the first with a key).')
    ] = "auto",
    cdp_url: CdpUrl = None,
    ws_endpoint: Annotated[
        str | None, typer.Option(help="A Playwright browser server (ws://...) for the runs the daemon carries out.")
    ] = None,
    headed: Headed = False,
    browser: BrowserChoice = None,
    allowed_hosts: AllowedHosts = None,
    workers: Annotated[
        int,
        typer.Option(min=1, help="Processes serving requests, to use several cores (more than one needs --redis-url)."),
    ] = 1,
) -> None:
    """Run the HTTP daemon: sessions and messages, the agent's step API
    (/api/agent/interact), chat (/v1/agent), runs on its own browser, and push over
    WebSockets. Every route but /healthz needs the bearer token."""
    from pagelens.server.config import ServerConfig
    from pagelens.server.serve import serve as run_daemon
    from pagelens.server.serve import serve_workers

    def say(line: str) -> None:
        stderr.print(escape(line), highlight=False)

    with failures(), contextlib.suppress(KeyboardInterrupt):
        check_cdp_url(cdp_url)
        check_launch_or_attach(browser, cdp_url or ws_endpoint)
        hosts = reachable_hosts(allowed_hosts, local=False)
        config = ServerConfig(
            host=host,
            port=port,
            database_url=database_url,
            redis_url=redis_url,
            token=token,
            cors_origins=tuple(cors_origin or ()),
            model=model,
            cdp_url=cdp_url,
            ws_endpoint=ws_endpoint,
            headless=not headed,
            browser=browser,
            allowed_hosts=tuple(hosts) if hosts is not None else None,
            workers=workers,
        )
        if workers > 1:
            serve_workers(config, say)
        else:
            asyncio.run(run_daemon(config, say))


@app.command(cls=Command)
def version() -> None:
    """Print the pagelens version."""
    _print_version()


def _print_version() -> None:
    sys.stdout.write(f"pagelens {pagelens.__version__}\n")


def _version_option(wanted: bool) -> None:
    if wanted:
        _print_version()
        raise typer.Exit()


@app.callback()
def _options(
    ctx: typer.Context,
    show_version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_version_option, is_eager=True)
    ] = False,
) -> None:
    """Options of the program itself; the commands do the work."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


def _read_page(
    target: str,
    read: Callable[[pagelens.Page], Awaitable[T]],
    *,
    headed: bool,
    browser: str | None,
    cdp_url: str | None,
    allowed_hosts: str | None,
    viewport: str,
) -> T:
    """Open `target` in a browser, launched or attached, and `read` the loaded page. The
    browser options, the target and the hosts are checked before the browser starts."""
    check_cdp_url(cdp_url)
    check_launch_or_attach(browser, cdp_url)
    size = _parse_viewport(viewport)
    where = resolve_target(target)
    hosts = reachable_hosts(allowed_hosts, local=isinstance(where, Path))
    return asyncio.run(
        _on_page(target, where, read, headed=headed, browser=browser, cdp_url=cdp_url, hosts=hosts, viewport=size)
    )


async def _on_page(
    target: str,
    where: Path | str,
    read: Callable[[pagelens.Page], Awaitable[T]],
    *,
    headed: bool,
    browser: str | None,
    cdp_url: str | None,
    hosts: list[str] | None,
    viewport: tuple[int, int],
) -> T:
    with contextlib.ExitStack() as stack:
        url = _served(where, stack) if isinstance(where, Path) else where
        with stderr.status(f"Opening {target}…"):
            if cdp_url:
                opened = await pagelens.Browser.connect(cdp_url, allowed_hosts=hosts, viewport=viewport)
            else:
                opened = await pagelens.Browser.launch(
                    headless=not headed, allowed_hosts=hosts, viewport=viewport, browser=browser
                )
            async with opened:
                page = await opened.new_page()
                try:
                    if not await page.visit(url):
                        stderr.print(
                            f"{escape(target)} had not finished loading after {LOAD_WAIT_S:g} s; read as it was"
                        )
                    return await read(page)
                finally:
                    if cdp_url:
                        await page.close()  # leave the user's browser as it was


def _served(file: Path, stack: contextlib.ExitStack) -> str:
    """The address of the local `file`, served with its folder for as long as `stack` lasts."""
    return stack.enter_context(pagelens.serve_directory(file.parent)) + quote(file.name)


def _capture_request(fields: dict[str, Any]) -> CaptureRequest:
    """The capture options checked as the API checks them; a bad one is named by its option
    (maxControls is --max-controls)."""
    try:
        return CaptureRequest.model_validate(fields)
    except ValidationError as exc:
        error = exc.errors()[0]
        option = "--" + re.sub(r"(?=[A-Z])", "-", str(error["loc"][0])).lower()
        raise InvalidRequestError(f"{option}: {error['msg'].removeprefix('Value error, ')}") from None


def _parse_viewport(value: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in value.lower().split("x"))
    except ValueError:
        raise InvalidRequestError(f"viewport must look like 1280x800, not {value!r}") from None
    if not (100 <= width <= 10_000 and 100 <= height <= 10_000):
        raise InvalidRequestError(f"viewport {value} is out of range (100 to 10000 per side)")
    return width, height


if __name__ == "__main__":
    app()
