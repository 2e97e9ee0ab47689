"""bench.daemon's scripted model, in a process of its own: in the bench's event loop it
would wait behind the bench's fifty clients, and that wait would count as the daemon's.

    python -m bench.daemon_model LATENCY     # prints its base URL, then serves until stdin closes,
                                             # then prints its time per request (ms) as JSON

The model always answers with the next click, after LATENCY seconds (0: at once)."""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.agent_script import call  # noqa: E402
from tests.llm_servers import OpenAIChatServer, Reply  # noqa: E402

TURNS = 1_000_000  # more than any run asks for


def click_after(latency: float) -> Any:
    async def turn(body: dict[str, Any]) -> Reply:
        if latency:
            await asyncio.sleep(latency)
        return call("interact", "Next.", action="click", element_id="2")

    return turn


async def serve(latency: float) -> None:
    async with OpenAIChatServer(itertools.repeat(click_after(latency), TURNS)) as model:
        print(model.base_url, flush=True)
        await asyncio.to_thread(sys.stdin.read)  # until the bench closes our stdin
        print(json.dumps([seconds * 1000 for seconds in model.durations]), flush=True)


if __name__ == "__main__":
    asyncio.run(serve(float(sys.argv[1])))
