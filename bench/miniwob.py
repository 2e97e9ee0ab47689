"""MiniWoB++ through the agent: each task's page from the `miniwob` package, served on
127.0.0.1, its instruction given as the task, its own reward as the verdict.

    .venv/bin/python -m bench.miniwob --model local/qwen2.5:7b            # Ollama on this machine
    PAGELENS_MODEL_BASE_URL=http://gpu-box:8000/v1 .venv/bin/python -m bench.miniwob \\
        --model local/meta-llama/Llama-3.1-8B-Instruct --tasks click-button,enter-text --episodes 3
    .venv/bin/python -m bench.miniwob --model openai/gpt-4.1-mini --all

Any model pagelens resolves works (docs/models.md): `local/<model>` is any OpenAI-compatible
server at PAGELENS_MODEL_BASE_URL (Ollama's address by default). Prints the success rate
and the steps per task; `--json PATH` keeps every episode. Needs `pip install miniwob`
(in pagelens[bench]). The episode clock of MiniWoB (10 s, made for scripted policies) is
lifted to the agent's time limit; the reward is the raw one (1 success, ≤ 0 failure).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import pagelens
from pagelens.actions import Session
from pagelens.agent import Agent, AgentEvent, Limits, Skills, ToolFinished
from pagelens.agent.llm import ChatModel, open_model, resolve_model
from pagelens.browser.network import LOOPBACK_HOSTS

# Tasks a browser agent should manage through the DOM (no drawing, dragging or timing).
DEFAULT_TASKS = (
    "click-button", "click-link", "click-checkboxes", "click-option", "click-tab", "click-dialog",
    "enter-text", "enter-password", "focus-text", "login-user", "choose-list", "use-autocomplete",
    "search-engine", "navigate-tree", "email-inbox", "book-flight",
)  # fmt: skip
TASK_SUFFIX = (
    "\n\nThe task's page is already open in the browser. Do exactly what it asks, using the page's own "
    "controls, then call finish with a one-line account of what you did."
)


@dataclass
class Episode:
    task: str
    seed: int
    instruction: str
    reward: float
    steps: int
    status: str
    duration_s: float

    @property
    def success(self) -> bool:
        return self.reward > 0


def miniwob_html() -> Path:
    try:
        return Path(str(resources.files("miniwob") / "html"))
    except ModuleNotFoundError:
        raise SystemExit(
            "bench.miniwob needs the MiniWoB++ pages: pip install miniwob (or 'pagelens[bench]')"
        ) from None


def all_tasks() -> list[str]:
    return sorted(path.stem for path in (miniwob_html() / "miniwob").glob("*.html"))


async def start_episode(session: Session, base_url: str, task: str, seed: int, time_limit_s: float) -> str:
    """Open `task`, start its episode with `seed` (the page's 10 s clock lifted to
    `time_limit_s`) and return its instruction: what the page's `#query` says."""
    await session.interact({"action": "navigate", "url": f"{base_url}miniwob/{task}.html", "summary": False})
    page = await session.page()
    instruction: str = await page.evaluate(
        """([seed, limit]) => {
            Math.seedrandom(seed);
            core.EPISODE_MAX_TIME = limit;
            core.startEpisodeReal();
            const utterance = core.getUtterance();  // the -nl tasks give {utterance, fields}
            return typeof utterance === "string" ? utterance : utterance.utterance;
        }""",
        [seed, int(time_limit_s * 1000)],
    )
    return instruction


async def episode_done(session: Session) -> bool:
    """Whether the page has ended its episode (a reward is given)."""
    return bool(await (await session.page()).evaluate("WOB_DONE_GLOBAL"))


async def episode_reward(session: Session) -> float:
    """The page's own raw reward: 1 success, <= 0 failure, 0 while the episode runs."""
    return float(await (await session.page()).evaluate("WOB_DONE_GLOBAL ? WOB_RAW_REWARD_GLOBAL : 0"))


async def run_episode(
    base_url: str, task: str, seed: int, model: ChatModel, session: Session, skills: Skills, limits: Limits
) -> Episode:
    """One episode: open the task, start it with `seed`, let the agent act until the
    page's episode ends (or the agent finishes, fails or runs out of steps)."""
    instruction = await start_episode(session, base_url, task, seed, limits.time_limit_s)
    agent = Agent(
        model=model,
        session=session,
        skills=skills,
        limits=limits,
        tools=("plan", "interact", "analyze", "finish", "fail"),
    )

    async def watch(event: AgentEvent) -> None:
        if isinstance(event, ToolFinished) and await episode_done(session):
            agent.stop()  # the page says the episode is over: nothing left to do

    report = await agent.run(instruction + TASK_SUFFIX, on_event=watch)
    reward = await episode_reward(session)
    return Episode(task, seed, instruction, reward, len(report.steps), report.status, report.duration_s)


async def main(args: argparse.Namespace) -> int:
    tasks = all_tasks() if args.all else [t.strip() for t in args.tasks.split(",") if t.strip()]
    unknown = sorted(set(tasks) - set(all_tasks()))
    if unknown:
        raise SystemExit(f"unknown MiniWoB tasks: {', '.join(unknown)}")
    model = open_model(resolve_model(args.model))
    limits = Limits(max_steps=args.max_steps, time_limit_s=args.time_limit)
    episodes: list[Episode] = []
    console = Console(stderr=True)
    try:
        with pagelens.serve_directory(miniwob_html()) as base, tempfile.TemporaryDirectory() as scratch:
            async with (
                await Session.start(allowed_hosts=list(LOOPBACK_HOSTS), headless=not args.headed) as session,
                Skills.open(f"sqlite:///{scratch}/skills.db") as skills,
            ):
                with Progress(console=console) as progress:
                    bar = progress.add_task(f"MiniWoB++ with {model.config.id}", total=len(tasks) * args.episodes)
                    for task in tasks:
                        for seed in range(args.episodes):
                            episodes.append(await run_episode(base, task, seed, model, session, skills, limits))
                            progress.advance(bar)
    finally:
        await model.aclose()
    print_table(episodes, model.config.id)
    if args.json:
        text = json.dumps([asdict(e) for e in episodes], indent=2)
        await asyncio.to_thread(Path(args.json).write_text, text, encoding="utf-8")
    return 0


def print_table(episodes: Sequence[Episode], model_id: str) -> None:
    table = Table(title=f"MiniWoB++ through the pagelens agent ({model_id})")
    for column in ("task", "episodes", "success", "steps (mean)", "seconds (mean)"):
        table.add_column(column, justify="left" if column == "task" else "right")
    by_task: dict[str, list[Episode]] = {}
    for episode in episodes:
        by_task.setdefault(episode.task, []).append(episode)
    for task, runs in by_task.items():
        table.add_row(
            task,
            str(len(runs)),
            f"{sum(e.success for e in runs) / len(runs):.0%}",
            f"{statistics.mean(e.steps for e in runs):.1f}",
            f"{statistics.mean(e.duration_s for e in runs):.1f}",
        )
    rate = sum(e.success for e in episodes) / len(episodes) if episodes else 0.0
    table.add_section()
    table.add_row(
        "all",
        str(len(episodes)),
        f"{rate:.0%}",
        f"{statistics.mean(e.steps for e in episodes):.1f}" if episodes else "-",
        "",
    )
    Console().print(table)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="auto", help="provider/model (local/<name> for an OpenAI-compatible server)")
    parser.add_argument("--tasks", default=",".join(DEFAULT_TASKS), help="comma-separated MiniWoB task names")
    parser.add_argument("--all", action="store_true", help="every task the package ships")
    parser.add_argument("--episodes", type=int, default=1, help="episodes per task (seeds 0, 1, ...)")
    parser.add_argument("--max-steps", type=int, default=15, help="the agent's step limit per episode")
    parser.add_argument("--time-limit", type=float, default=180.0, help="seconds per episode")
    parser.add_argument("--headed", action="store_true", help="show the browser")
    parser.add_argument("--json", help="write every episode here")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
