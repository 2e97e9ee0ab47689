"""The debugger tool on a real page: values, promises, thrown errors, a runaway loop."""

from __future__ import annotations

import time

import pytest

import pagelens
from pagelens.agent.tools import DebuggerParams, debugger
from pagelens.agent.tools.errors import ScriptTimeoutError, UnknownActionError


@pytest.fixture
async def target(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}agent/target.html")
    return page


async def run(page: pagelens.Page, code: str, **extra: object) -> tuple[str, dict[str, object]]:
    result = await debugger(
        page.playwright_page, DebuggerParams.model_validate({"action": "eval", "code": code, **extra})
    )
    return result.text, result.details


async def test_a_value_from_the_main_world(target: pagelens.Page) -> None:
    # `pageClicks` is a global of the page's own script: only the main world sees it.
    text, details = await run(target, "({clicks: window.pageClicks, title: document.title})")
    assert text == '{"clicks": [], "title": "Agent target"}'
    assert details == {"type": "object"}
    assert (await run(target, "undefined"))[0] == "undefined"
    assert (await run(target, "0/0"))[0] == "NaN"


async def test_a_promise_is_awaited(target: pagelens.Page) -> None:
    text, _ = await run(target, "new Promise(resolve => setTimeout(() => resolve(document.title.length), 50))")
    assert text == "12"


async def test_a_thrown_error_is_rendered(target: pagelens.Page) -> None:
    text, details = await run(target, "1;\nthrow new TypeError('boom')")
    assert text.startswith("TypeError: boom")
    assert details["exception"] is True
    assert details["className"] == "TypeError"
    assert details["line"] == 2


async def test_an_endless_loop_is_terminated_and_the_page_still_works(target: pagelens.Page) -> None:
    started = time.monotonic()
    with pytest.raises(ScriptTimeoutError) as caught:
        await run(target, "while (true) {}", timeout=1.0)
    assert caught.value.code == "script_timeout"
    assert time.monotonic() - started < 5
    await target.playwright_page.click("#go")
    assert (await run(target, "window.pageClicks"))[0] == '["go", "card"]'


async def test_an_unknown_action_is_refused(target: pagelens.Page) -> None:
    with pytest.raises(UnknownActionError) as caught:
        await run(target, "1", action="pause")
    assert caught.value.code == "unknown_action"
    assert "eval" in caught.value.message
