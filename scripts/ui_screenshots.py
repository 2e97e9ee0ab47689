"""The web UI's screenshots in the README and docs/server.md, made again on demand:

    PYTHONPATH=src .venv/bin/python scripts/ui_screenshots.py [--out docs/images]

A daemon on a temporary SQLite store runs the fixture shop's task (tests/fixtures/agent)
with the tests' scripted model, and a Chromium signed in to its /ui is shot at each stage:
ui-running.png (a step of the plan under way), ui-completed.png and ui-question.png (a
headless run asking which element, answered on the screenshot)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.async_api import Page, expect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pagelens  # noqa: E402
from pagelens.browser.network import LOOPBACK_HOSTS  # noqa: E402
from pagelens.server.config import ServerConfig  # noqa: E402
from tests.agent_script import SHOP_TASK, call, shop_script  # noqa: E402
from tests.llm_servers import OpenAIChatServer, Reply  # noqa: E402
from tests.server_support import MODEL, TOKEN, running_daemon  # noqa: E402

VIEWPORT = (1440, 960)
WAIT_MS = 60_000
GATED_TURN = 5  # the shop script's turn that opens a result: the run waits there to be shot


async def main(out: Path) -> None:
    gate = asyncio.Event()
    script: list[Any] = shop_script()
    script[GATED_TURN] = _after(gate, script[GATED_TURN])
    with (
        tempfile.TemporaryDirectory() as folder,
        pagelens.serve_directory(ROOT / "tests" / "fixtures" / "agent") as shop,
    ):
        os.environ["XDG_CONFIG_HOME"] = str(Path(folder) / "config")  # no user model config in the way
        os.environ.pop("PAGELENS_MODEL", None)
        config = ServerConfig(
            database_url=f"sqlite+aiosqlite:///{Path(folder) / 'pagelens.db'}",
            model=MODEL,
            allowed_hosts=LOOPBACK_HOSTS,
        )
        async with (
            OpenAIChatServer(script) as model,
            running_daemon(config, TOKEN) as daemon,
            pagelens.launch(allowed_hosts=LOOPBACK_HOSTS, viewport=VIEWPORT) as browser,
        ):
            os.environ.update(OPENAI_API_KEY=model.api_key, OPENAI_BASE_URL=model.base_url)
            page = (await browser.new_page()).playwright_page
            await page.goto(daemon.base_url + "/ui/")
            await page.get_by_label("Daemon token").fill(TOKEN)
            await page.get_by_role("button", name="Sign in").click()

            await _start(page, SHOP_TASK, shop + "index.html")
            await expect(page.locator("#plan [aria-current=step]")).to_contain_text(
                "Open the Blue Kettle", timeout=WAIT_MS
            )
            await expect(page.locator("#page-title")).to_have_text("Search results", timeout=WAIT_MS)
            await page.screenshot(path=out / "ui-running.png")
            gate.set()
            await expect(page.locator("#run-status")).to_have_text("COMPLETED", timeout=WAIT_MS)
            await page.locator(".turn.assistant details.thought summary").first.click()
            await page.evaluate("scrollTo(0, 0)")
            await page.screenshot(path=out / "ui-completed.png")

            model.add(call("ask_user_which_element", message="Which button runs the search?"))
            model.add(call("finish", result="The search button."))
            await _start(page, "Show me the search button", shop + "index.html")
            await expect(page.locator("#question")).to_be_visible(timeout=WAIT_MS)
            await page.get_by_role("button", name="Point at the element", exact=False).focus()
            await page.screenshot(path=out / "ui-question.png")
            await page.get_by_role("button", name="Decline").click()
            await expect(page.locator("#run-status")).to_have_text("COMPLETED", timeout=WAIT_MS)
    for name in ("running", "completed", "question"):
        print(out / f"ui-{name}.png")


def _after(gate: asyncio.Event, turn: Any) -> Any:
    """`turn`, played once `gate` is set."""

    async def gated(body: dict[str, Any]) -> Reply:
        await gate.wait()
        reply: Reply = turn(body) if callable(turn) else turn
        return reply

    return gated


async def _start(page: Page, task: str, url: str) -> None:
    await page.get_by_label("Task", exact=True).fill(task)
    await page.get_by_label("Start URL").fill(url)
    await page.get_by_role("button", name="Start").click()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images")
    folder = parser.parse_args().out
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(folder))
