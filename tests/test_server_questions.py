"""A run's `ask_user_which_element` when its browser window is on a screen: the question
shows in the web UI, and the answer may come from the window (the on-page picker, real
mouse events) or from the UI (a point on the screenshot), whichever comes first."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Page as PlaywrightPage

from pagelens.actions import Session
from pagelens.agent.tools import AskUserParams, PickedElement
from pagelens.server import conversation
from pagelens.server.config import ServerConfig
from pagelens.server.questions import Questions
from tests.server_support import TOKEN, running_daemon

pytest_plugins = ["tests.agent_support"]

_OVERLAY = "document.querySelector('pagelens-picker')"


async def search_button(page: PlaywrightPage) -> tuple[float, float]:
    box = await page.locator("button").bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


async def asked(daemon_state: Any, run_id: str) -> dict[str, Any]:
    """The question as the UI finds it on the run, once it is there."""
    for _ in range(200):
        run = await daemon_state.store.runs.get(run_id)
        if run is not None and run.state and run.state.get("question"):
            question: dict[str, Any] = run.state["question"]
            return question
        await asyncio.sleep(0.05)
    raise AssertionError("the question never reached the run")


async def test_a_headed_run_takes_the_answer_from_the_window_or_the_ui(
    tmp_path: Path, shop: str, session: Session
) -> None:
    config = ServerConfig(database_url=f"sqlite:///{tmp_path / 'q.db'}")
    async with running_daemon(config, TOKEN) as daemon:
        state = daemon.state
        chat = await conversation.session_for(state, url=shop, task="Point")
        run = await state.store.runs.create("Point", session_id=chat.id)
        questions = Questions(state, run.id, chat.id, headed=True)
        page = await session.page()
        await page.goto(shop + "index.html")
        params = AskUserParams(message="Which button searches?", timeout=30)

        # In the window: a real click on the button.
        asking: asyncio.Task[PickedElement] = asyncio.create_task(questions.ask(page, params))
        question = await asked(state, run.id)
        assert question["inBrowser"] is True and question["message"] == "Which button searches?"
        await page.wait_for_function(_OVERLAY, timeout=5000)
        x, y = await search_button(page)
        await page.mouse.move(x, y, steps=3)
        await page.mouse.down()
        await page.mouse.up()
        picked = await asyncio.wait_for(asking, 10)
        assert picked.tag_name == "button" and picked.text == "Search"
        assert (await state.store.runs.get(run.id)).state == {"question": None}  # type: ignore[union-attr]

        # From the UI: a point on the screenshot; the window's overlay goes.
        asking = asyncio.create_task(questions.ask(page, params))
        question = await asked(state, run.id)
        await page.wait_for_function(_OVERLAY, timeout=5000)
        width, height = await page.evaluate("() => [innerWidth, innerHeight]")
        questions.answer({"type": "pick", "questionId": question["id"], "x": x / width, "y": y / height})
        picked = await asyncio.wait_for(asking, 10)
        assert picked.tag_name == "button"
        assert await page.evaluate(f"{_OVERLAY} === null")
