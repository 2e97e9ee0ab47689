"""What the agent sends its model: observation tokens per step and the size of every
request, for scripted tasks run end to end (a scripted model over the real OpenAI wire,
the real SDK client, a real Chromium).

    .venv/bin/python -m bench.agent                # the shop task and the 30-step corpus tour
    .venv/bin/python -m bench.agent --pages 20     # a longer tour: 3 steps per page

Budgets: the median observation ≤ 1,500 tokens per step, and every request ≤ 24,000
tokens (tool declarations included). Counted with o200k_base on what crossed the wire.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

import pagelens
from pagelens.actions import Session
from pagelens.agent import Agent, Limits, Skills
from pagelens.agent.history import DEFAULT_REQUEST_BUDGET
from pagelens.browser.network import LOOPBACK_HOSTS
from pagelens.tokens import count_tokens

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the scripted servers live with the tests

from bench.corpus import PAGES_DIR, corpus_pages  # noqa: E402
from tests.agent_script import SHOP_TASK, call, plan, shop_script  # noqa: E402
from tests.agent_support import scripted_model  # noqa: E402
from tests.llm_servers import OpenAIChatServer  # noqa: E402

OBSERVATION_BUDGET = 1_500  # median tokens of a tool result
SHOP = ROOT / "tests" / "fixtures" / "agent"
# One page of each kind the corpus has, so the tour sees articles, forms, apps, lists...
TOUR_KINDS = ("article", "search_results", "login", "form", "generic", "dashboard", "app", "link_list", "error_page")


@dataclass
class Measured:
    task: str
    status: str
    steps: int
    observations: list[int]  # tokens of each tool result, as sent the first time
    requests: list[int]  # tokens of each whole request


def wire_tokens(body: dict[str, Any]) -> int:
    """The request as the model reads it: every message's text and calls, and the tools."""
    total = count_tokens(json.dumps(body.get("tools", []), separators=(",", ":")))
    for message in body["messages"]:
        total += 4 + count_tokens(message.get("content") or "")
        for tool_call in message.get("tool_calls") or []:
            total += count_tokens(tool_call["function"]["name"] + tool_call["function"]["arguments"])
    return total


def new_observations(bodies: list[dict[str, Any]]) -> Iterator[int]:
    """Each tool result the first time it was sent."""
    seen: set[str] = set()
    for body in bodies:
        for message in body["messages"]:
            if message["role"] == "tool" and message["tool_call_id"] not in seen:
                seen.add(message["tool_call_id"])
                yield count_tokens(message["content"])


def tour_script(urls: list[str]) -> list[Any]:
    """Three steps a page (navigate, read the controls, scroll), a plan first, finish last."""
    turns: list[Any] = [plan(*((f"Visit page {n + 1}", "pending") for n in range(len(urls))))]
    for url in urls:
        turns += [
            call("navigate", url=url),
            call("analyze", what="semantic"),
            call("interact", action="scroll", value="down"),
        ]
    turns.append(call("finish", result=f"visited {len(urls)} pages"))
    return turns


def tour_urls(base: str, count: int) -> list[str]:
    pages = corpus_pages()
    chosen = []
    for n in range(count):
        kind = TOUR_KINDS[n % len(TOUR_KINDS)]
        of_kind = [p for p in pages if p.kind == kind and p not in chosen]
        if of_kind:
            chosen.append(of_kind[n // len(TOUR_KINDS) % len(of_kind)])
    return [page.path(base) for page in chosen]


async def measure(name: str, task: str, url: str, script: list[Any], session: Session, skills: Skills) -> Measured:
    async with OpenAIChatServer(script) as server:
        model = scripted_model(server.base_url)
        try:
            agent = Agent(model=model, session=session, skills=skills, limits=Limits(max_steps=len(script) + 5))
            report = await agent.run(task, url=url)
        finally:
            await model.aclose()
        bodies = server.bodies
    return Measured(
        name, report.status, len(report.steps), list(new_observations(bodies)), [wire_tokens(b) for b in bodies]
    )


async def main(pages: int) -> int:
    console = Console(stderr=True)
    results: list[Measured] = []
    with ExitStack() as stack:
        shop = stack.enter_context(pagelens.serve_directory(SHOP))
        corpus = stack.enter_context(pagelens.serve_directory(PAGES_DIR))
        scratch = stack.enter_context(tempfile.TemporaryDirectory())
        async with (
            await Session.start(allowed_hosts=list(LOOPBACK_HOSTS)) as session,
            Skills.open(f"sqlite:///{scratch}/skills.db") as skills,
        ):
            with console.status("shop task…"):
                results.append(await measure("shop", SHOP_TASK, shop + "index.html", shop_script(), session, skills))
            urls = tour_urls(corpus, pages)
            with console.status(f"corpus tour ({len(urls)} pages, {3 * len(urls)} steps)…"):
                tour = tour_script(urls)
                results.append(
                    await measure(f"tour ({3 * len(urls)} steps)", "Visit the pages", urls[0], tour, session, skills)
                )
    return report(results, console)


def report(results: list[Measured], console: Console) -> int:
    table = Table(title="What the agent sends its model (o200k tokens)")
    for column in ("task", "status", "steps", "obs. median", "obs. p90", "obs. max", "request median", "request max"):
        table.add_column(column, justify="right" if column not in ("task", "status") else "left")
    failed = False
    for m in results:
        obs_median = statistics.median(m.observations)
        p90 = sorted(m.observations)[int(0.9 * (len(m.observations) - 1))]
        ok_obs = obs_median <= OBSERVATION_BUDGET
        ok_req = max(m.requests) <= DEFAULT_REQUEST_BUDGET
        failed |= not (ok_obs and ok_req and m.status == "COMPLETED")
        table.add_row(
            m.task,
            m.status,
            str(m.steps),
            f"[{'green' if ok_obs else 'red'}]{obs_median:,.0f}[/]",
            f"{p90:,}",
            f"{max(m.observations):,}",
            f"{statistics.median(m.requests):,.0f}",
            f"[{'green' if ok_req else 'red'}]{max(m.requests):,}[/]",
        )
    Console(width=max(Console().width, 110)).print(table)
    verdict = "FAIL" if failed else "PASS"
    Console().print(
        f"{verdict}: budgets median observation ≤ {OBSERVATION_BUDGET:,}, every request ≤ {DEFAULT_REQUEST_BUDGET:,}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=10, help="corpus pages the tour visits (3 steps each)")
    sys.exit(asyncio.run(main(parser.parse_args().pages)))
