"""The web UI at /ui, used as a person would in a real Chromium against a running daemon
whose runs have a scripted model: sign in, start a task, watch its plan, screenshot and
status, stop it, answer its question on the screenshot, reload; and pagelens' own
semantic view of the page names every control."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page as PlaywrightPage
from playwright.async_api import expect

import pagelens
from pagelens.server.config import ServerConfig
from tests.agent_script import SHOP_TASK, call, last_result, plan, shop_script
from tests.llm_servers import Hang, OpenAIChatServer, Reply
from tests.server_support import MODEL, TOKEN, RunningDaemon, client, running_daemon

pytest_plugins = ["tests.server_support", "tests.agent_support"]

LOOPBACK = ("127.0.0.1", "localhost")
WAIT_MS = 60_000
Script = list[Any]

# Records what the run panel and the screenshot showed, each time either changed: the
# states a person saw go by, however fast the scripted run is.
RECORDER = """() => {
  window.seen = [];
  const note = () => {
    const current = document.querySelector('#plan [aria-current="step"] .step-text');
    window.seen.push({
      status: document.querySelector('#run-status')?.textContent ?? '',
      step: current ? current.textContent : null,
      steps: document.querySelectorAll('#plan .step').length,
      planning: Boolean(document.querySelector('#plan .skeleton')),
      hash: document.querySelector('#screenshot')?.dataset.hash ?? null,
    });
  };
  const all = {subtree: true, childList: true, attributes: true, characterData: true};
  new MutationObserver(note).observe(document.body, all);
}"""


@asynccontextmanager
async def ui(
    database_url: str, model_env: Callable[..., None], script: Script, browser: pagelens.Browser
) -> AsyncIterator[tuple[RunningDaemon, PlaywrightPage, OpenAIChatServer]]:
    """A daemon whose model plays `script`, and a tab signed in to its /ui."""
    config = ServerConfig(database_url=database_url, model=MODEL, allowed_hosts=LOOPBACK)
    async with OpenAIChatServer(script) as model, running_daemon(config, TOKEN) as daemon:
        model_env(model)
        page = (await browser.new_page()).playwright_page
        try:
            await page.goto(daemon.base_url + "/ui/")
            await page.get_by_label("Daemon token").fill(TOKEN)
            await page.get_by_role("button", name="Sign in").click()
            await expect(page.get_by_role("button", name="Start")).to_be_visible()
            yield daemon, page, model
        finally:
            await page.close()


async def start_task(page: PlaywrightPage, task: str, url: str) -> None:
    await page.evaluate(RECORDER)
    await page.get_by_label("Task", exact=True).fill(task)
    await page.get_by_label("Start URL").fill(url)
    await page.get_by_role("button", name="Start").click()


async def status_becomes(page: PlaywrightPage, status: str) -> None:
    await expect(page.locator("#run-status")).to_have_text(status, timeout=WAIT_MS)


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """SQLite: the store behind the page is not what these tests are about."""
    return f"sqlite+aiosqlite:///{tmp_path / 'pagelens.db'}"


def hanging(thinking: asyncio.Event) -> Callable[[dict[str, Any]], Hang]:
    def turn(body: dict[str, Any]) -> Hang:
        thinking.set()
        return Hang(60)

    return turn


async def test_the_page_loads_without_the_token_and_the_api_still_needs_it(
    database_url: str, model_env: Callable[..., None]
) -> None:
    config = ServerConfig(database_url=database_url, model=MODEL)
    async with OpenAIChatServer([]) as model, running_daemon(config, TOKEN) as daemon:
        model_env(model)
        async with client(daemon.base_url, token="wrong") as stranger, client(daemon.base_url) as http:
            page = await stranger.get("/ui/")
            script = await stranger.get("/ui/app.js")
            refused = await stranger.get("/api/models")
            near_miss = await stranger.get("/uix")
            models = (await http.get("/api/models")).json()
            no_shot = await http.get("/api/runs/nothing/screenshot")
    assert page.status_code == 200 and "<h1>pagelens</h1>" in page.text
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert refused.status_code == 401 and near_miss.status_code == 401
    assert models == {"default": MODEL, "models": [MODEL, "openai/gpt-4.1-mini"]}
    assert "test-key" not in json.dumps(models)
    assert no_shot.status_code == 404 and no_shot.json()["error"] == "record_not_found"


async def test_a_task_runs_to_completed_with_its_plan_and_screenshots(
    database_url: str, model_env: Callable[..., None], shop: str, browser: pagelens.Browser
) -> None:
    async with ui(database_url, model_env, shop_script(), browser) as (_daemon, page, _model):
        await start_task(page, SHOP_TASK, shop + "index.html")
        await status_becomes(page, "COMPLETED")
        await expect(page.locator("#run-reason")).to_contain_text("Blue Kettle")
        seen: list[dict[str, Any]] = await page.evaluate("window.seen")
        title = await page.locator("#page-title").text_content()
        user = page.locator(".turn.user .bubble")
        thought = page.locator(".turn.assistant details.thought").first
        await expect(user).to_have_text(SHOP_TASK)
        await expect(page.locator(".turn.assistant .badge").first).to_be_visible()
        await thought.locator("summary").click()
        await expect(thought).to_contain_text("The Blue Kettle is a result.")
        user_side = await user.evaluate("e => getComputedStyle(e.parentElement).justifyContent")
        agent_side = await thought.evaluate("e => getComputedStyle(e.closest('.turn')).justifyContent")
        past = await page.locator("#plan .step.past").count()
        await expect(page.locator(".open-session[aria-current=true]")).to_contain_text(f"127.0.0.1: {SHOP_TASK}")
    steps = [state["step"] for state in seen if state["step"]]
    assert list(dict.fromkeys(steps)) == [
        "Search for kettles",
        "Open the Blue Kettle",
        "Ask the seller a question",
    ], steps  # the plan appeared and the highlight moved down it (the last step ends the run)
    assert len({state["hash"] for state in seen if state["hash"]}) >= 3  # the screenshot changed as pages did
    assert [s["status"] for s in seen if s["status"]][0] == "RUNNING"
    assert title == "Thank you" or title  # the tab's title is shown
    assert past == 4  # a finished run's steps are all past
    assert (user_side, agent_side) == ("flex-end", "flex-start")


async def test_a_failing_task_shows_failed_with_its_reason(
    database_url: str, model_env: Callable[..., None], shop: str, browser: pagelens.Browser
) -> None:
    script = [plan(("Look for teapots", "in_progress")), call("fail", reason="The shop sells no teapots")]
    async with ui(database_url, model_env, script, browser) as (_daemon, page, _model):
        await start_task(page, "Buy a teapot", shop + "index.html")
        await status_becomes(page, "FAILED")
        await expect(page.locator("#run-reason")).to_have_text("Reason: The shop sells no teapots")
        await expect(page.locator(".turn.verdict.failed")).to_contain_text("The shop sells no teapots")
        await expect(page.locator("#plan .step.failed")).to_have_count(1)


async def test_stop_gives_stopped(
    database_url: str, model_env: Callable[..., None], shop: str, browser: pagelens.Browser
) -> None:
    thinking = asyncio.Event()
    async with ui(database_url, model_env, [hanging(thinking)], browser) as (_daemon, page, _model):
        await start_task(page, "Wait for ever", shop + "index.html")
        await asyncio.wait_for(thinking.wait(), 60)
        await expect(page.locator("#plan")).to_contain_text("Planning…")  # no plan yet: the skeleton
        await page.get_by_role("button", name="Stop").click()
        await status_becomes(page, "STOPPED")
        await expect(page.get_by_role("button", name="Stop")).to_be_hidden()
        await expect(page.locator("#run-reason")).to_have_text("Reason: stopped by the user")


async def test_a_reload_shows_the_same_session_and_a_rename_sticks(
    database_url: str, model_env: Callable[..., None], shop: str, browser: pagelens.Browser
) -> None:
    script = [plan(("Read the page", "in_progress")), call("finish", result="It is a kettle shop.")]
    async with ui(database_url, model_env, script, browser) as (daemon, page, _model):
        async with client(daemon.base_url) as http:  # an older session, so "the latest" is not enough
            await http.post("/api/runs", json={"task": "Another", "url": shop + "other.html", "maxSteps": 1})
        await start_task(page, "What is this site?", shop + "index.html")
        await status_becomes(page, "COMPLETED")
        turns = await page.locator("#chat .turn").count()
        shot = await page.locator("#screenshot").get_attribute("data-hash")
        await page.get_by_role("button", name="Rename 127.0.0.1: What is this site?").click()
        await page.get_by_label("New title for 127.0.0.1: What is this site?").fill("Kettle shop")
        await page.get_by_label("New title for 127.0.0.1: What is this site?").press("Enter")
        await expect(page.locator(".open-session[aria-current=true]")).to_contain_text("Kettle shop")
        await page.reload()
        await expect(page.locator(".open-session[aria-current=true]")).to_contain_text("Kettle shop")
        await status_becomes(page, "COMPLETED")  # the token survived the reload: no sign-in
        await expect(page.locator("#chat .turn")).to_have_count(turns)
        await expect(page.locator("#screenshot")).to_have_attribute("data-hash", shot or "")
        await expect(page.locator("#plan .step")).to_have_count(1)
        sessions = await page.locator("#session-list .open-session").all_text_contents()
    assert len(sessions) == 2 and "Kettle shop" in sessions[0]  # the newest first


async def test_a_headless_question_is_answered_on_the_screenshot(
    database_url: str, model_env: Callable[..., None], shop: str, browser: pagelens.Browser
) -> None:
    def answer(body: dict[str, Any]) -> Reply:
        picked = last_result(body)
        return call("finish", result=f"{picked['tagName']} {picked['text']} {picked['selector']}")

    script = [call("ask_user_which_element", message="Which button searches?"), answer]
    async with ui(database_url, model_env, script, browser) as (_daemon, page, _model):
        # Where the button is in the run's tab: the same page at the same viewport size.
        probe = (await browser.new_page()).playwright_page
        await probe.goto(shop + "index.html")
        box = await probe.get_by_role("button", name="Search").bounding_box()
        size = probe.viewport_size
        await probe.close()
        assert box is not None and size is not None
        await start_task(page, "Which one searches?", shop + "index.html")
        await expect(page.get_by_role("region", name="The agent asks you to point at an element")).to_contain_text(
            "Which button searches?", timeout=WAIT_MS
        )
        target = page.get_by_role("button", name="Point at the element on the screenshot", exact=False)
        shown = await target.bounding_box()
        assert shown is not None
        x = (box["x"] + box["width"] / 2) / size["width"] * shown["width"]
        y = (box["y"] + box["height"] / 2) / size["height"] * shown["height"]
        await target.click(position={"x": x, "y": y})
        await status_becomes(page, "COMPLETED")
        await expect(page.locator("#run-reason")).to_have_text("Result: button Search button")
        await expect(page.locator("#question")).to_be_hidden()


async def test_every_control_of_the_page_has_a_name_in_pagelens_view(
    database_url: str, model_env: Callable[..., None], shop: str, browser: pagelens.Browser
) -> None:
    script = [
        plan(("Wait", "in_progress")),
        call("ask_user_which_element", message="Which?"),
        call("finish", result="-"),
    ]
    async with ui(database_url, model_env, script, browser) as (daemon, playwright_page, _model):
        page = pagelens.Page(playwright_page)
        await start_task(playwright_page, "Look around", shop + "index.html")
        await expect(playwright_page.locator("#question")).to_be_visible(timeout=WAIT_MS)
        await playwright_page.get_by_role("button", name="Rename 127.0.0.1: Look around").click()
        seen = [await page.semantic_tree()]  # the question, the Stop button, a rename form...
        await playwright_page.get_by_role("button", name="Decline").click()
        await status_becomes(playwright_page, "COMPLETED")
        seen.append(await page.semantic_tree())
        signed_out = await playwright_page.context.new_page()
        await signed_out.goto(daemon.base_url + "/ui/")
        await expect(signed_out.get_by_label("Daemon token")).to_be_visible()
        seen.append(await pagelens.Page(signed_out).semantic_tree())
        await signed_out.close()
    for tree in seen:
        controls = [(node.r, node.n) for node in tree.interactive_tree]
        assert controls and all(name.strip() for _role, name in controls), controls
