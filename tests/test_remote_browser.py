"""A browser that lives elsewhere: a Playwright browser server (`playwright launch-server`,
as a pool of remote browsers runs it), used by a session and by the daemon's runs."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from pagelens.actions import Session
from pagelens.browser.launcher import CHROMIUM_ARGS, find_browser
from pagelens.server.config import ServerConfig
from tests.agent_script import call, plan
from tests.llm_servers import OpenAIChatServer
from tests.server_support import MODEL, TOKEN, client, running_daemon

pytest_plugins = ["tests.agent_support", "tests.store_support", "tests.server_support"]


@pytest.fixture(scope="module")
async def ws_endpoint(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    """A Playwright browser server on this machine, launching Debian's Chromium."""
    config = tmp_path_factory.mktemp("pw") / "launch.json"
    config.write_text(json.dumps({"headless": True, "executablePath": find_browser(), "args": list(CHROMIUM_ARGS)}))
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium", "--config", str(config),
        stdout=asyncio.subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert server.stdout is not None
    line = (await asyncio.wait_for(server.stdout.readline(), 60)).decode().strip()
    assert line.startswith("ws://"), line
    yield line
    # The Python launcher runs Playwright's node driver: stop the whole process group.
    os.killpg(server.pid, signal.SIGTERM)
    await asyncio.wait_for(server.wait(), 30)


async def test_a_session_drives_a_browser_of_a_playwright_server(ws_endpoint: str, shop: str) -> None:
    for _ in range(2):  # closing the session leaves the server's browser for the next client
        async with await Session.start(ws_endpoint=ws_endpoint) as session:
            result = await session.interact({"action": "navigate", "url": shop + "index.html"})
            assert result["success"] and result["summary"]["title"] == "Kettle Shop"
            view = await session.analyze({"what": "semantic"})
            assert any(node["n"] == "Search products" for node in view.data["interactive_tree"])


async def test_an_endpoint_that_does_not_answer_is_a_typed_error() -> None:
    with pytest.raises(Exception) as caught:
        await Session.start(ws_endpoint="ws://127.0.0.1:9/nothing")
    assert getattr(caught.value, "code", None) == "browser_connect_failed"


async def test_the_daemon_runs_tasks_on_the_remote_browser(
    ws_endpoint: str, shop: str, tmp_path: Path, model_env: Callable[..., None]
) -> None:
    script = [plan(("Look at the shop", "in_progress")), call("finish", result="seen")]
    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'd.db'}", model=MODEL, ws_endpoint=ws_endpoint)
    async with OpenAIChatServer(script) as model, running_daemon(config, TOKEN) as daemon:
        model_env(model)
        async with client(daemon.base_url) as http:
            run = (await http.post("/api/runs", json={"task": "Look", "url": shop + "index.html"})).json()
            for _ in range(600):
                status = (await http.get(f"/api/runs/{run['id']}")).json()["status"]
                if status != "RUNNING":
                    break
                await asyncio.sleep(0.1)
    assert status == "COMPLETED"
    assert "Kettle Shop" in json.dumps(model.bodies[0])  # the page the remote browser loaded
