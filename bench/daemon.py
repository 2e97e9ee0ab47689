"""The daemon under load: many sessions calling `/api/agent/interact` at once, with a
scripted model that answers at once, so what is measured is the daemon itself.

    .venv/bin/python -m bench.daemon                          # SQLite, then PostgreSQL
    .venv/bin/python -m bench.daemon --sessions 50 --calls 20 --stores sqlite
    .venv/bin/python -m bench.daemon --restart                # kill -9 the daemon mid-run
    .venv/bin/python -m bench.daemon --model-latency 1        # a model that takes 1 s a reply

Each session is one task of `--calls` calls. The daemon runs as a real `pagelens serve`
process (`--workers N` of them over PostgreSQL and Redis), the scripted model in a process
of its own (bench/daemon_model.py); with --model-latency the sessions start spread over
one reply, as users who do not all click at once. Per call: the wall time at the client,
minus the model's own time as the scripted server saw it, is the daemon's overhead;
"CPU/call" is the daemon's processor time (its workers' included) over the calls it
answered, which the machine's other work sways far less than latency. Afterwards every
session's messages are read back: one user message and one assistant message per answered call, numbered
without gap or repeat. With --restart the daemon is killed (SIGKILL) halfway and started
again on the same database; calls that got no answer are sent again, and nothing answered
before the kill may be missing.

Budget: overhead p99 ≤ 50 ms on each store.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import socket
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]

OVERHEAD_BUDGET_MS = 50.0
TOKEN = "bench-token"
POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"  # how several workers push to each other's watchers
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
TREE = [
    {"i": "1", "r": "srch", "n": "Search", "xy": [200, 100], "selector": "input[name='q']"},
    {"i": "2", "r": "btn", "n": "Go", "xy": [320, 100]},
    {"i": "3", "r": "link", "n": "Results", "xy": [60, 200]},
]


@dataclass
class Outcome:
    store: str
    latencies_ms: list[float] = field(default_factory=list)
    model_ms: list[float] = field(default_factory=list)
    answered: dict[str, int] = field(default_factory=dict)  # session id → calls answered
    lost: int = 0
    duplicated: int = 0
    retried: int = 0
    half: int = 0  # answered calls at which --restart kills the daemon
    cpu_s: float = 0.0  # the daemon's processor time while the calls ran
    halfway: asyncio.Event = field(default_factory=asyncio.Event)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.asynccontextmanager
async def daemon_process(
    database_url: str, model_url: str, port: int, workers: int
) -> AsyncIterator[asyncio.subprocess.Process]:
    env = {
        **os.environ,
        "OPENAI_API_KEY": "test-key",
        "OPENAI_BASE_URL": model_url,
        "PAGELENS_MODEL": "openai/scripted",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pagelens.cli.main", "serve", "--port", str(port), "--token", TOKEN,
        "--database-url", database_url, *(["--workers", str(workers), "--redis-url", REDIS_URL] if workers > 1 else []),
        env=env, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        await wait_until_up(port)
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 15)
            if process.returncode is None:
                process.kill()
                await process.wait()


async def wait_until_up(port: int, timeout: float = 30.0) -> None:  # noqa: ASYNC109
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as client:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"http://127.0.0.1:{port}/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise SystemExit(f"the daemon did not come up on port {port}")


def cpu_seconds(pid: int) -> float:
    """The processor time of `pid` and of its children still running (the workers)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(stat.parent.name) == pid or int(fields[1]) == pid:  # fields[1]: the parent's pid
                total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime
    return total


def kill_all(pid: int) -> None:
    """SIGKILL to `pid` and its children (the workers)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                os.kill(int(stat.parent.name), signal.SIGKILL)
    os.kill(pid, signal.SIGKILL)


@contextlib.asynccontextmanager
async def model_process(latency: float) -> AsyncIterator[tuple[str, list[float]]]:
    """The scripted model's base URL, and its time per request (ms), filled when it stops."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.daemon_model", str(latency), cwd=ROOT,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None
    durations: list[float] = []
    try:
        yield (await process.stdout.readline()).decode().strip(), durations
        process.stdin.close()
        durations.extend(json.loads(await process.stdout.readline()))
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


async def session_loop(
    client: httpx.AsyncClient, base: str, calls: int, outcome: Outcome, number: int, start: float
) -> None:
    await asyncio.sleep(start)
    task_id: str | None = None
    tab = f"tab-{number}"
    done = 0
    while done < calls:
        body: dict[str, Any] = {
            "url": f"https://shop{number}.example.com/page/{done}",
            "query": f"Find item {number}",
            "tabId": tab,
            "domMode": "semantic",
            "interactiveTree": TREE,
            "lastActionStatus": "success" if done else None,
        }
        if task_id is not None:
            body["taskId"] = task_id
        began = time.perf_counter()
        try:
            response = await client.post(
                f"{base}/api/agent/interact", json={k: v for k, v in body.items() if v is not None}
            )
        except httpx.TransportError:
            outcome.retried += 1  # no answer: the call was not acknowledged, send it again
            await asyncio.sleep(0.2)
            continue
        if response.status_code >= 500:
            outcome.retried += 1
            await asyncio.sleep(0.2)
            continue
        if response.status_code >= 400:
            raise SystemExit(f"the daemon refused a call: {response.status_code} {response.text}")
        outcome.latencies_ms.append((time.perf_counter() - began) * 1000)
        if len(outcome.latencies_ms) >= outcome.half:
            outcome.halfway.set()
        data = response.json()["data"]
        task_id = data["taskId"]
        outcome.answered[data["sessionId"]] = outcome.answered.get(data["sessionId"], 0) + 1
        done += 1


async def check_messages(client: httpx.AsyncClient, base: str, outcome: Outcome) -> None:
    for session_id, answered in outcome.answered.items():
        data = (await client.get(f"{base}/api/session/{session_id}/messages")).json()
        numbers = [m["sequenceNumber"] for m in data["messages"]]
        outcome.duplicated += (
            len(numbers) - len(set(numbers)) + (len({m["messageId"] for m in data["messages"]}) != len(numbers))
        )
        assistant = sum(1 for m in data["messages"] if m["role"] == "assistant")
        outcome.lost += max(answered - assistant, 0)


async def run_store(
    store: str, sessions: int, calls: int, restart: bool, latency: float, workers: int, console: Console
) -> Outcome:
    outcome = Outcome(store, half=sessions * calls // 2)
    with tempfile.TemporaryDirectory() as scratch:
        database_url, drop = await make_database(store, scratch)
        try:
            async with model_process(latency) as (model_url, model_ms):
                port = free_port()
                base = f"http://127.0.0.1:{port}"
                headers = {"Authorization": f"Bearer {TOKEN}"}
                limits = httpx.Limits(max_connections=sessions)
                async with httpx.AsyncClient(headers=headers, timeout=60, limits=limits) as client:
                    daemon = daemon_process(database_url, model_url, port, workers)
                    process = await daemon.__aenter__()
                    try:
                        with console.status(f"{store}: {sessions} sessions × {calls} calls…"):
                            cpu_before = cpu_seconds(process.pid)
                            # Users do not all click in the same millisecond: with a model
                            # that takes a while, the sessions start spread over one reply,
                            # else every call would come in a burst of them all.
                            loops = [
                                session_loop(client, base, calls, outcome, n, latency * n / sessions)
                                for n in range(sessions)
                            ]
                            work = asyncio.gather(*loops)
                            if restart:
                                await outcome.halfway.wait()
                                outcome.cpu_s += cpu_seconds(process.pid) - cpu_before
                                kill_all(process.pid)  # SIGKILL, its workers too: no goodbye
                                await process.wait()
                                await daemon.__aexit__(None, None, None)
                                daemon = daemon_process(database_url, model_url, port, workers)
                                process = await daemon.__aenter__()
                                cpu_before = cpu_seconds(process.pid)
                            await work
                            outcome.cpu_s += cpu_seconds(process.pid) - cpu_before
                        await check_messages(client, base, outcome)
                    finally:
                        await daemon.__aexit__(None, None, None)
            outcome.model_ms = model_ms
        finally:
            await drop()
    return outcome


async def make_database(store: str, scratch: str) -> tuple[str, Any]:
    if store == "sqlite":

        async def nothing() -> None:
            return None

        return f"sqlite:///{scratch}/daemon.db", nothing
    import asyncpg

    name = f"pagelens_bench_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(POSTGRES_ADMIN.replace("postgresql://", "postgres://"))
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()

    async def drop() -> None:
        connection = await asyncpg.connect(POSTGRES_ADMIN.replace("postgresql://", "postgres://"))
        await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await connection.close()

    return f"postgresql://postgres@127.0.0.1:5432/{name}", drop


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


def report(outcomes: list[Outcome], sessions: int, calls: int) -> int:
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    table = Table(title=f"pagelens serve: {sessions} sessions × {calls} interact calls (load average {load})")
    columns = ("store", "calls", "p50 ms", "p99 ms", "overhead p50", "overhead p99", "CPU/call ms", "lost", "dup.")
    for column in (*columns, "resent"):
        table.add_column(column, justify="left" if column == "store" else "right")
    failed = False
    for o in outcomes:
        model_p50 = statistics.median(o.model_ms) if o.model_ms else 0.0
        overhead = [latency - model_p50 for latency in o.latencies_ms]
        p99 = percentile(overhead, 0.99)
        ok = p99 <= OVERHEAD_BUDGET_MS and o.lost == 0 and o.duplicated == 0
        failed |= not ok
        table.add_row(
            o.store,
            str(len(o.latencies_ms)),
            f"{percentile(o.latencies_ms, 0.5):.1f}",
            f"{percentile(o.latencies_ms, 0.99):.1f}",
            f"{percentile(overhead, 0.5):.1f}",
            f"[{'green' if p99 <= OVERHEAD_BUDGET_MS else 'red'}]{p99:.1f}[/]",
            f"{1000 * o.cpu_s / max(len(o.latencies_ms), 1):.1f}",
            str(o.lost),
            str(o.duplicated),
            str(o.retried),
        )
    Console(width=120).print(table)
    Console().print(
        f"{'FAIL' if failed else 'PASS'}: overhead p99 ≤ {OVERHEAD_BUDGET_MS:g} ms, nothing lost or repeated"
    )
    return 1 if failed else 0


async def main(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    outcomes = [
        await run_store(store, args.sessions, args.calls, args.restart, args.model_latency, args.workers, console)
        for store in args.stores.split(",")
    ]
    return report(outcomes, args.sessions, args.calls)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--stores", default="sqlite,postgresql")
    parser.add_argument("--restart", action="store_true", help="kill -9 the daemon halfway and start it again")
    parser.add_argument("--model-latency", type=float, default=0.0, help="seconds the scripted model takes a reply")
    parser.add_argument("--workers", type=int, default=1, help="daemon processes (more than one: over Redis)")
    sys.exit(asyncio.run(main(parser.parse_args())))
