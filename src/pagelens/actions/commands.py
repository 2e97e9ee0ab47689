"""Background mode: a queued call answers ``{queued: true, command_id}`` at once
and runs on; ``interact(action="result", command_id=...)`` long-polls for its result (up
to 15 s per poll). A result is kept until it is read, or for 10 minutes."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pagelens.actions.errors import ActionError
from pagelens.errors import ErrorCode

POLL_TIMEOUT_S = 15.0
KEEP_RESULTS_S = 600.0


@dataclass
class _Command:
    action: str
    task: asyncio.Task[dict[str, Any]]
    finished_at: float | None = None


class CommandStore:
    def __init__(self, *, keep_for: float = KEEP_RESULTS_S, clock: Callable[[], float] = time.monotonic) -> None:
        self._commands: dict[str, _Command] = {}
        self._ids = itertools.count(1)
        self._keep_for = keep_for
        self._clock = clock

    def submit(self, action: str, run: Callable[[], Awaitable[dict[str, Any]]]) -> str:
        self._expire()
        command_id = f"cmd-{next(self._ids)}"
        task = asyncio.ensure_future(run())
        command = _Command(action, task)
        task.add_done_callback(lambda _: setattr(command, "finished_at", self._clock()))
        self._commands[command_id] = command
        return command_id

    async def result(self, command_id: str, *, wait_s: float = POLL_TIMEOUT_S) -> dict[str, Any] | None:
        """The command's result (then forgotten), or None while it still runs after
        `wait_s` seconds."""
        command = self._get(command_id)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(command.task), wait_s)
        if not command.task.done():
            return None
        del self._commands[command_id]
        return {**command.task.result(), "command_id": command_id}

    def status(self, command_id: str | None = None) -> dict[str, Any]:
        """Without waiting or consuming: one command's state, or every kept command's."""
        self._expire()
        if command_id is not None:
            return {"command_id": command_id, **self._status(self._get(command_id))}
        return {"commands": [{"command_id": cid, **self._status(c)} for cid, c in self._commands.items()]}

    @staticmethod
    def _status(command: _Command) -> dict[str, Any]:
        state = "finished" if command.task.done() else "running"
        return {"action": command.action, "status": state}

    def _get(self, command_id: str) -> _Command:
        self._expire()
        command = self._commands.get(command_id)
        if command is None:
            raise ActionError(
                ErrorCode.UNKNOWN_COMMAND,
                f"no command {command_id!r}: results are kept until read or for {self._keep_for / 60:g} minutes",
            )
        return command

    def _expire(self) -> None:
        now = self._clock()
        for command_id, command in list(self._commands.items()):
            if command.finished_at is not None and now - command.finished_at > self._keep_for:
                del self._commands[command_id]

    async def close(self) -> None:
        for command in self._commands.values():
            command.task.cancel()
        await asyncio.gather(*(c.task for c in self._commands.values()), return_exceptions=True)
        self._commands.clear()
