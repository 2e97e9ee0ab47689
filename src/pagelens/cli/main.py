"""`pagelens` command line: a thin layer over the Python API."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Awaitable, Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import quote, urlsplit

import typer
from rich.console import Console
from rich.markup import escape

import pagelens
from pagelens.browser.launcher import check_launch_or_attach
from pagelens.browser.network import LOOPBACK_HOSTS, is_loopback
from pagelens.browser.page import LOAD_WAIT_S
from pagelens.engine.models import VIEW_SPECS, VIEWS
from pagelens.errors import ErrorCode, InvalidRequestError, PagelensError

app = typer.Typer(
    name="pagelens",
    help="Eyes and hands on the web for AI agents: page views an LLM can read cheaply.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # docstrings' paragraphs flow to the terminal's width
)
stderr = Console(stderr=True, soft_wrap=True)  # one line a message, whatever the width: scripts grep them

URL_SCHEMES = ("http", "https", "about", "data", "file")
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
        "Default: everything for URLs, loopback only for local files."
    ),
]
Viewport = Annotated[str, typer.Option(help="Viewport size, WIDTHxHEIGHT.")]
PageTarget = Annotated[str, typer.Argument(help="A URL, or a local HTML file (served on 127.0.0.1).")]


# The engine's views, by their one name.
Mode = StrEnum("Mode", {name: name for name in VIEWS})  # type: ignore[misc]  # members come from VIEWS
_VIEW_HELP = "Which view to print: " + "; ".join(f"{s.name}, {s.doc}" for s in VIEW_SPECS.values()) + "."
_COMPACT = Mode("compact")


@app.command()
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
    base_url: Annotated[
        str | None,
        typer.Option(help="Read the page as if loaded from this http(s) URL: links resolve against it."),
    ] = None,
    max_iframe_depth: Annotated[int, typer.Option(help="interaction/semantic: how deep to enter frames.")] = 1,
    viewport: Viewport = "1280x800",
    timeout: Annotated[
        float | None, typer.Option(help="Capture time limit in seconds (default: 3 for summaries, 30 otherwise).")
    ] = None,
    indent: Annotated[
        int | None, typer.Option(help="Indent the JSON (default: 2 on a terminal, compact otherwise).")
    ] = None,
) -> None:
    """Print a view of a page as JSON: the compact summary unless --mode names another."""
    options: dict[str, Any] = {
        "request": {"maxControls": max_controls, "maxHeadings": max_headings, "baseUrl": base_url},
        "include_offscreen": include_offscreen,
        "include_boxes": include_boxes,
        "include_values": include_values,
        "mask_contact_details": mask_contact_details,
        "max_iframe_depth": max_iframe_depth,
        "timeout": timeout,
    }
    view = _read_page(
        target,
        lambda page: page.snapshot(mode.value, **options),
        headed=headed,
        browser=browser,
        cdp_url=cdp_url,
        allowed_hosts=allowed_hosts,
        viewport=viewport,
    )
    if indent is None and out is None and sys.stdout.isatty():
        indent = 2
    _print_or_write(view.model_dump_json(exclude_none=True, indent=indent), out, f"{mode.value} view of {target}")


@app.command()
def screenshot(
    target: PageTarget,
    out: Annotated[Path, typer.Option("--out", "-o", help="Where to write the JPEG.")],
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
    shot = _read_page(
        target,
        lambda page: pagelens.screenshot(
            page,
            full_page=full_page,
            element_id=element_id,
            selector=selector,
            marks=marks,
            max_width=max_width,
            quality=quality,
            timeout=timeout,
        ),
        headed=headed,
        browser=browser,
        cdp_url=cdp_url,
        allowed_hosts=allowed_hosts,
        viewport=viewport,
    )
    assert shot.image is not None  # no screenshot_hash was given: the image always comes
    out.write_bytes(shot.image)
    sys.stdout.write(shot.model_dump_json(exclude={"image"}, exclude_none=True) + "\n")
    stderr.print(escape(f"wrote {shot.width}×{shot.height} JPEG of {target} to {out}"))


class ExtractFormat(StrEnum):
    markdown = "markdown"
    text = "text"
    html = "html"


@app.command("extract")
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
    extraction = _read_page(
        target,
        lambda page: pagelens.extract(page, format=format.value, max_characters=max_characters, timeout=timeout),
        headed=headed,
        browser=browser,
        cdp_url=cdp_url,
        allowed_hosts=allowed_hosts,
        viewport=viewport,
    )
    text = extraction.model_dump_json(indent=2 if sys.stdout.isatty() else None) if as_json else extraction.content
    _print_or_write(text, out, f"{extraction.word_count:,} words of {target}")


@app.command()
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

    try:
        if cdp_url and user_data_dir is not None:
            raise InvalidRequestError(
                "--user-data-dir and --cdp-url exclude each other (an attached browser keeps its own profile)"
            )
        check_launch_or_attach(browser, cdp_url)
        if port is not None and not 0 <= port <= 65535:
            raise InvalidRequestError(f"--port must be between 0 and 65535, not {port}")
        options = BrowserOptions(
            headless=not headed,
            browser=browser,
            cdp_url=cdp_url,
            allowed_hosts=_parse_hosts(allowed_hosts) if allowed_hosts is not None else None,
            user_data_dir=str(user_data_dir.resolve()) if user_data_dir is not None else None,
            viewport=_parse_viewport(viewport),
        )
        if port is None:
            asyncio.run(serve_stdio(options))
        else:
            if not is_loopback(host):
                stderr.print(f"warning: anyone who can reach {host} can drive this browser")
            asyncio.run(serve_http(options, host=host, port=port, on_ready=print_ready))
    except PagelensError as exc:
        _print_error(exc)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        pass


@app.command("run")
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

    async def go() -> pagelens.agent.RunReport:
        with contextlib.ExitStack() as stack:
            start = url
            local = _local_file(url) if url else None
            hosts = _parse_hosts(allowed_hosts) if allowed_hosts is not None else (LOOPBACK_HOSTS if local else None)
            if local is not None:
                start = stack.enter_context(pagelens.serve_directory(local.parent)) + quote(local.name)
            async with Skills.open(database_url) as skills:
                agent = Agent(
                    model=model,
                    skills=skills,
                    headless=not headed,
                    browser=browser,
                    allowed_hosts=list(hosts) if hosts is not None else None,
                    limits=Limits(max_steps=max_steps, time_limit_s=time_limit),
                    show_values=show_values,
                )
                # Ctrl-C stops the run at its next safe point: the report still comes, STOPPED.
                asyncio.get_running_loop().add_signal_handler(signal.SIGINT, agent.stop)
                with RunProgress(stderr) as progress:
                    return await agent.run(task, url=start, on_event=progress.on_event)
        raise AssertionError("unreachable")

    try:
        report = asyncio.run(go())
    except PagelensError as exc:
        _print_error(exc)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    sys.stdout.write(report.model_dump_json(indent=2 if sys.stdout.isatty() else None) + "\n")
    raise typer.Exit(0 if report.status == "COMPLETED" else 1)


@app.command()
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
        typer.Option(help="The bearer token to require; default: one made on first start and kept in your config."),
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

    try:
        check_launch_or_attach(browser, cdp_url or ws_endpoint)
    except PagelensError as exc:
        _print_error(exc)
        raise typer.Exit(1) from None
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
        allowed_hosts=tuple(_parse_hosts(allowed_hosts)) if allowed_hosts is not None else None,
        workers=workers,
    )

    def say(line: str) -> None:
        stderr.print(escape(line), highlight=False)

    try:
        if workers > 1:
            serve_workers(config, say)
        else:
            asyncio.run(run_daemon(config, say))
    except PagelensError as exc:
        _print_error(exc)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        pass


@app.command()
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
    show_version: Annotated[
        bool, typer.Option("--version", help="Print the version and exit.", callback=_version_option, is_eager=True)
    ] = False,
) -> None:
    pass  # options of the program itself; the commands do the work


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
    """`read` the page `target` (see _on_page); a PagelensError ends the command with its
    one-line message and exit status 1."""
    try:
        return asyncio.run(
            _on_page(
                target,
                read,
                headed=headed,
                browser=browser,
                cdp_url=cdp_url,
                allowed_hosts=allowed_hosts,
                viewport=_parse_viewport(viewport),
            )
        )
    except PagelensError as exc:
        _print_error(exc)
        raise typer.Exit(1) from None


async def _on_page(
    target: str,
    read: Callable[[pagelens.Page], Awaitable[T]],
    *,
    headed: bool,
    browser: str | None,
    cdp_url: str | None,
    allowed_hosts: str | None,
    viewport: tuple[int, int],
) -> T:
    """Open `target` in a browser, launched or attached, and `read` the loaded page."""
    check_launch_or_attach(browser, cdp_url)
    local = _local_file(target)
    hosts = _parse_hosts(allowed_hosts) if allowed_hosts is not None else (LOOPBACK_HOSTS if local else None)
    with contextlib.ExitStack() as stack:
        if local is not None:
            base = stack.enter_context(pagelens.serve_directory(local.parent))
            url = base + quote(local.name)
        else:
            url = target
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


def _print_or_write(text: str, out: Path | None, what: str) -> None:
    """`text` to stdout, or to the file `out`, saying on stderr that it wrote `what`."""
    if out is None:
        sys.stdout.write(text + "\n")
        return
    out.write_text(text + "\n", encoding="utf-8")
    stderr.print(escape(f"wrote {what} to {out}"))


def _print_error(exc: PagelensError) -> None:
    line = escape(f"[{exc.code}] {exc.message}")
    stderr.print(f"[red]error:[/red] {line}", highlight=False)


def _local_file(target: str) -> Path | None:
    """The local file `target` names, or None for a URL. A missing file is an error."""
    scheme = urlsplit(target).scheme.lower()
    if scheme in URL_SCHEMES:
        if scheme == "file":
            return _existing(Path(urlsplit(target).path))
        return None
    return _existing(Path(target))


def _existing(path: Path) -> Path:
    if not path.is_file():
        raise PagelensError(
            f"no such file: {path} (give a URL with its scheme, e.g. https://…)", code=ErrorCode.FILE_NOT_FOUND
        )
    return path.resolve()


def _parse_hosts(value: str) -> list[str]:
    return [h.strip() for h in value.split(",") if h.strip()]


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
