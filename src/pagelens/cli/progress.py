"""`pagelens run`'s live view on the terminal (stderr): the plan with its step states,
and each action with what it did. stdout is left for the final JSON report."""

from __future__ import annotations

import re

from rich.console import Console, Group
from rich.live import Live
from rich.markup import escape
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from pagelens.agent.events import (
    AgentEvent,
    PlanUpdated,
    RunFinished,
    RunStarted,
    ToolFinished,
    ToolStarted,
    UserNavigated,
)
from pagelens.agent.plan import Plan

_MARKS = {
    "pending": ("·", "dim"),
    "in_progress": ("▶", "bold cyan"),
    "completed": ("✓", "green"),
    "failed": ("✗", "red"),
    "skipped": ("–", "dim"),
}
_STATUS_STYLE = {"COMPLETED": "bold green", "FAILED": "bold red", "STOPPED": "bold yellow"}
_ARGUMENT_CHARS = 80
# Escape sequences in what a model or a page wrote would drive the terminal (retitle it,
# clear it, hide a link): control characters are dropped, line breaks kept.
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


class RunProgress:
    """Feed it the run's events; it prints the steps as they end and keeps the plan and
    the call under way at the bottom of the terminal."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.plan = Plan()
        self.current: str | None = None
        self.live = Live(self._render(), console=console, transient=True, refresh_per_second=8)

    def __enter__(self) -> RunProgress:
        self.live.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.live.__exit__(None, None, None)

    def on_event(self, event: AgentEvent) -> None:
        if isinstance(event, RunStarted):
            where = f" at {event.url}" if event.url else ""
            self.console.print(
                f"[bold]Task[/bold] {_shown(event.task)}{_shown(where)} [dim]({_shown(event.model)})[/dim]"
            )
        elif isinstance(event, PlanUpdated):
            self.plan = event.plan
        elif isinstance(event, ToolStarted):
            if event.thought.strip():
                self.console.print(f"  [dim italic]{_shown(_clip(event.thought.strip(), 200))}[/dim italic]")
            self.current = f"{event.tool}({_arguments(event.arguments)})"
        elif isinstance(event, ToolFinished):
            self.current = None
            step = event.step
            call = f"{step.tool}({_arguments(step.arguments)})"
            style = "green" if step.ok else "red"
            self.console.print(
                f"[dim]{step.index:>3}[/dim] [bold]{_shown(call)}[/bold] [{style}]{_shown(event.observation)}[/{style}]"
                f" [dim]{step.duration_s:.1f}s[/dim]"
            )
        elif isinstance(event, UserNavigated):
            self.console.print(f"    [yellow]the tab moved to {_shown(event.url)}[/yellow]")
        elif isinstance(event, RunFinished):
            report = event.report
            self.plan = report.plan
            self.console.print(self._plan_table())
            style = _STATUS_STYLE[report.status]
            detail = report.result if report.status == "COMPLETED" else f"{report.error}: {report.reason}"
            self.console.print(
                f"[{style}]{report.status}[/{style}] {_shown(detail or '')} "
                f"[dim]({len(report.steps)} steps, {report.duration_s:.1f}s, "
                f"{report.usage.input_tokens:,} in / {report.usage.output_tokens:,} out tokens)[/dim]"
            )
        self.live.update(self._render())

    def _render(self) -> Group:
        parts: list[Table | Spinner | Text] = []
        if self.plan.steps:
            parts.append(self._plan_table())
        elif self.current is None:
            parts.append(Spinner("dots", text=Text("Planning…", style="dim")))
        if self.current is not None:
            parts.append(Spinner("dots", text=Text(_plain(_clip(self.current, 100)))))
        return Group(*parts)

    def _plan_table(self) -> Table:
        table = Table.grid(padding=(0, 1))
        for step in self.plan.steps:
            mark, style = _MARKS[step.status]
            table.add_row(Text(mark, style=style), Text(_plain(step.description), style=style))
        return table


def _plain(text: str) -> str:
    return _CONTROL.sub("", text)


def _shown(text: str) -> str:
    """`text` as it may be printed: no control characters, no rich markup."""
    return escape(_plain(text))


def _arguments(arguments: dict[str, object]) -> str:
    text = ", ".join(f"{key}={value!r}" for key, value in arguments.items())
    return _clip(text, _ARGUMENT_CHARS)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
