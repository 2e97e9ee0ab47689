"""Where the engine spends its time: V8's sampling profiler over warm captures of one view.

    python -m bench.profile --nodes 100000 --view semantic
    python -m bench.profile --file page.html --view compact --top 40

Loads a generated page (or a file), takes one capture to warm up, then profiles
`--repeat` captures and prints the engine's functions by self time and by total time
(time with the functions they call; recursion counted once).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import re
import subprocess
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import pagelens
from bench.generate import generate_page
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.engine import ENGINE, VIEWS

SAMPLING_INTERVAL_US = 200
ROOT = Path(__file__).resolve().parents[1]


_BASE64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}


def _vlq(segment: str) -> list[int]:
    """The numbers of one source-map segment (base64 VLQ)."""
    values, value, shift = [], 0, 0
    for char in segment:
        digit = _BASE64[char]
        value += (digit & 31) << shift
        if digit & 32:
            shift += 5
            continue
        values.append(-(value >> 1) if value & 1 else value >> 1)
        value, shift = 0, 0
    return values


@dataclass(frozen=True)
class EngineMap:
    """The engine bundle's source map, as bench.profile reads it: the module names, and per
    line of the script a world evaluates (the bundle inside EntryScript.world_source's
    wrapper, whose own lines map to nothing) its segments (column, module index, original
    line, original name where the bundle renamed an identifier there), and that script's
    own lines."""

    modules: list[str]
    lines: list[list[tuple[int, int, int, str | None]]]
    text: list[str]


@cache
def engine_map() -> EngineMap:
    """The engine bundle's source map, built afresh (`node scripts/bundle.mjs --sourcemap`:
    the bundle is minified, so its own lines and names say nothing)."""
    with tempfile.TemporaryDirectory(prefix="pagelens-map-") as folder:
        try:
            subprocess.run(["node", "scripts/bundle.mjs", "--sourcemap", folder], cwd=ROOT, check=True, timeout=120)
        except (OSError, subprocess.SubprocessError) as exc:
            why = f"cannot build the engine's source map ({exc}): `bash scripts/setup.sh` installs node's tools"
            raise SystemExit(why) from exc
        if (Path(folder) / "engine.bundle.js").read_text(encoding="utf-8") != ENGINE.source():
            raise SystemExit("the engine bundle is not built from its sources: run `npm run build` first")
        source_map = json.loads((Path(folder) / "engine.bundle.js.map").read_text(encoding="utf-8"))
    world = ENGINE.world_source()
    lines: list[list[tuple[int, int, int, str | None]]] = [
        [] for _ in range(world.count("\n", 0, world.index(ENGINE.source())))
    ]
    module = line = name = 0
    for text in source_map["mappings"].split(";"):
        column, segments = 0, []
        for segment in filter(None, text.split(",")):
            fields = _vlq(segment)
            column += fields[0]
            if len(fields) >= 4:
                module, line = module + fields[1], line + fields[2]
                renamed = None
                if len(fields) == 5:
                    name += fields[4]
                    renamed = source_map["names"][name]
                segments.append((column, module, line, renamed))
        lines.append(segments)
    return EngineMap([path.rsplit("/", 1)[-1] for path in source_map["sources"]], lines, world.split("\n"))


def engine_location(line: int, column: int) -> str:
    """`module.js:line` for a 0-based line and column of the evaluated engine."""
    engine = engine_map()
    segments = engine.lines[line] if 0 <= line < len(engine.lines) else []
    index = bisect.bisect_right(segments, (column, len(engine.modules), 0, None)) - 1
    if index < 0:
        return f"engine:{line + 1}"
    _, module, original, _ = segments[index]
    return f"{engine.modules[module]}:{original + 1}"


def engine_name(line: int, column: int, minified: str) -> str:
    """The source's name of the function called `minified` in the bundle whose code
    starts at a 0-based line and column of the evaluated engine: the renamed identifier
    last written `minified` before it (`function ab(`, `ab=(`), else `minified` itself (a
    method, whose name the bundle keeps)."""
    engine = engine_map()
    segments = engine.lines[line] if 0 <= line < len(engine.lines) else []
    text = engine.text[line] if 0 <= line < len(engine.text) else ""
    before = bisect.bisect_right(segments, (column, len(engine.modules), 0, None))
    for at, _, _, name in reversed(segments[:before]):
        if name and text.startswith(minified, at) and not _IDENTIFIER_CHAR.match(text, at + len(minified)):
            return name
    return minified


_IDENTIFIER_CHAR = re.compile(r"[\w$]")


def function_times(profile: dict[str, Any]) -> tuple[dict[str, float], dict[str, float], float]:
    """Self and total milliseconds per function, and the profile's length in ms."""
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent: dict[int, int] = {}
    for node in profile["nodes"]:
        for child in node.get("children", ()):
            parent[child] = node["id"]

    def label(node: dict[str, Any]) -> str:
        frame = node["callFrame"]
        name = frame["functionName"] or "(anonymous)"
        if frame["lineNumber"] < 0 or frame["url"]:  # native, or a script of the page's
            return name
        line, column = frame["lineNumber"], frame["columnNumber"]
        if frame["functionName"]:
            name = engine_name(line, column, name)
        return f"{name} {engine_location(line, column)}"

    self_ms: defaultdict[str, float] = defaultdict(float)
    total_ms: defaultdict[str, float] = defaultdict(float)
    deltas = profile.get("timeDeltas", [])
    for index, sample in enumerate(profile.get("samples", [])):
        ms = deltas[index + 1] / 1000 if index + 1 < len(deltas) else 0.0
        node = nodes[sample]
        self_ms[label(node)] += ms
        seen = set()
        node_id: int | None = sample
        while node_id is not None:
            name = label(nodes[node_id])
            if name not in seen:
                seen.add(name)
                total_ms[name] += ms
            node_id = parent.get(node_id)
    return self_ms, total_ms, (profile["endTime"] - profile["startTime"]) / 1000


async def profile_view(url: str, view: str, repeat: int, headed: bool) -> dict[str, Any]:
    async with pagelens.launch(headless=not headed, allowed_hosts=LOOPBACK_HOSTS) as browser:
        page = await browser.new_page()
        await page.goto(url, timeout=120)
        await page.snapshot(view, timeout=120)
        session = await page.playwright_page.context.new_cdp_session(page.playwright_page)
        await session.send("Profiler.enable")
        await session.send("Profiler.setSamplingInterval", {"interval": SAMPLING_INTERVAL_US})
        await session.send("Profiler.start")
        for _ in range(repeat):
            await page.snapshot(view, timeout=120)
        return (await session.send("Profiler.stop"))["profile"]


def render(console: Console, profile: dict[str, Any], view: str, repeat: int, top: int) -> None:
    self_ms, total_ms, length = function_times(profile)
    skip = {"(root)", "(program)", "(idle)"}
    for title, counts in (("self", self_ms), ("total", total_ms)):
        table = Table(title=f"{view}: {title} time over {repeat} captures ({length:,.0f} ms profiled)")
        table.add_column("function  module:line")
        table.add_column("ms", justify="right")
        table.add_column("ms / capture", justify="right")
        table.add_column("share", justify="right")
        for name, ms in sorted(((n, ms) for n, ms in counts.items() if n not in skip), key=lambda row: -row[1])[:top]:
            table.add_row(name, f"{ms:,.1f}", f"{ms / repeat:,.1f}", f"{ms / length:.1%}")
        console.print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--nodes", type=int, default=100_000, help="size of the generated page")
    source.add_argument("--file", type=Path, help="an HTML file to profile instead (served from its folder)")
    parser.add_argument("--view", choices=VIEWS, default="compact")
    parser.add_argument("--repeat", type=int, default=3, help="profiled captures")
    parser.add_argument("--top", type=int, default=30, help="rows per table")
    parser.add_argument("--headed", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pagelens-profile-") as folder:
        if args.file:  # served from its own folder, so its saved assets load too
            folder, name = str(args.file.resolve().parent), args.file.name
        else:
            name = "page.html"
            (Path(folder) / name).write_text(generate_page(args.nodes, seed=args.nodes), encoding="utf-8")
        with pagelens.serve_directory(folder) as base_url:
            profile = asyncio.run(profile_view(f"{base_url}{name}", args.view, args.repeat, args.headed))
    render(Console(), profile, args.view, args.repeat, args.top)


if __name__ == "__main__":
    main()
