"""The web UI at /ui as a demanding person uses it, in a real Chromium against a running
daemon: the keyboard (Enter, the skip link, the focus kept across re-renders), the daemon
coming back with another token, long words at phone and desktop widths, the contrast of
texts, fields and the focus ring, and a page that loads without console errors.

Most sessions and runs here are written through the daemon's own services and store, as
its routes write them, so that only the test of a failing model launches a run's browser."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page as PlaywrightPage
from playwright.async_api import expect

import pagelens
from pagelens.agent.plan import Plan, PlanStep
from pagelens.server.config import ServerConfig
from pagelens.server.conversation import add_message, session_for
from pagelens.server.serve import listening_socket
from pagelens.store import Role, RunChanges
from tests import server_support
from tests.llm_servers import Fail, OpenAIChatServer
from tests.server_support import MODEL, TOKEN, RunningDaemon, running_daemon

pytest_plugins = ["tests.server_support", "tests.agent_support"]

LOOPBACK = ("127.0.0.1", "localhost")
WAIT_MS = 60_000

# The WCAG contrast of what a person sees: `color` over the backgrounds stacked behind
# it, with the opacity of a faded ancestor blended in as the browser paints it.
CONTRAST = """
const parse = (css) => {
  const [r, g, b, a = 1] = css.match(/[\\d.]+/g).map(Number);
  return { rgb: [r, g, b], a };
};
const mix = (top, bottom, alpha) => top.map((v, i) => v * alpha + bottom[i] * (1 - alpha));
const luminance = (rgb) => {
  const [r, g, b] = rgb.map((v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const ratio = (x, y) => {
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
};
const chain = (element) => {
  const all = [];
  for (let e = element; e; e = e.parentElement) all.unshift(e);
  return all;
};
const stack = (elements) =>
  elements.reduce((under, e) => {
    const { rgb, a } = parse(getComputedStyle(e).backgroundColor);
    return mix(rgb, under, a);
  }, [255, 255, 255]);
// [foreground, background] of `css` (a colour) drawn on `element`.
const painted = (element, css) => {
  const all = chain(element);
  const faded = all.findIndex((e) => Number(getComputedStyle(e).opacity) < 1);
  const opacity = all.reduce((o, e) => o * Number(getComputedStyle(e).opacity), 1);
  const behind = stack(faded < 0 ? all : all.slice(0, faded));
  const inside = stack(all);
  const { rgb, a } = parse(css);
  return [mix(mix(rgb, inside, a), behind, opacity), mix(inside, behind, opacity)];
};
"""

# Every visible text of the page whose contrast is under WCAG's 4.5:1 (3:1 when large).
LOW_CONTRAST_TEXTS = (
    """() => {"""
    + CONTRAST
    + """
  const low = [];
  for (const element of document.querySelectorAll("body *")) {
    const own = [...element.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !element.checkVisibility() || element.closest(".visually-hidden, :disabled")) continue;
    const style = getComputedStyle(element);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const [fg, bg] = painted(element, style.color);
    const r = ratio(fg, bg);
    const what = `${element.className || element.tagName} "${element.textContent.trim().slice(0, 30)}"`;
    if (r < (large ? 3 : 4.5)) low.push(`${what}: ${r.toFixed(2)}`);
  }
  return low;
}"""
)

# The contrast of the focused control's ring with what is around it (the ring is drawn
# outside the control, on its parent), and of a field's border with the field's surroundings.
RING_CONTRAST = (
    """() => {"""
    + CONTRAST
    + """
  const focused = document.activeElement;
  return ratio(...painted(focused.parentElement, getComputedStyle(focused).outlineColor));
}"""
)
BORDER_CONTRAST = (
    """(field) => {"""
    + CONTRAST
    + """
  return ratio(...painted(field.parentElement, getComputedStyle(field).borderTopColor));
}"""
)


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'pagelens.db'}"


def daemon_at(database_url: str, token: str = TOKEN) -> AbstractAsyncContextManager[RunningDaemon]:
    return running_daemon(ServerConfig(database_url=database_url, model=MODEL, allowed_hosts=LOOPBACK), token)


@asynccontextmanager
async def daemon_and_tab(
    database_url: str, browser: pagelens.Browser
) -> AsyncIterator[tuple[RunningDaemon, PlaywrightPage]]:
    async with daemon_at(database_url) as daemon:
        page = (await browser.new_page()).playwright_page
        try:
            yield daemon, page
        finally:
            await page.close()


async def sign_in(page: PlaywrightPage, base_url: str, address: str = "/ui/") -> None:
    await page.goto(base_url + address)
    await page.get_by_label("Daemon token").fill(TOKEN)
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_role("button", name="Start")).to_be_visible()


async def a_session(daemon: RunningDaemon, task: str, *messages: tuple[Role, str, dict[str, Any]]) -> str:
    """A session of the task, made as the run route makes it, with `messages` (role, content, fields)."""
    session = await session_for(daemon.state, url="https://example.com/", task=task)
    await add_message(daemon.state, session.id, "user", task)
    for role, content, fields in messages:
        await add_message(daemon.state, session.id, role, content, **fields)
    return session.id


async def a_finished_run(daemon: RunningDaemon, session_id: str, task: str, status: str, result: str) -> None:
    """A run of the session as one that ended is kept: its plan with past steps, its result."""
    steps = [
        PlanStep(id="1", index=0, description="Open the shop", status="completed"),
        PlanStep(id="2", index=1, description="Find the kettle", status="failed"),
        PlanStep(id="3", index=2, description="Ask the seller", status="skipped"),
    ]
    plan = Plan(steps=steps, currentStepIndex=2).model_dump(mode="json")
    run = await daemon.state.store.runs.create(task, session_id=session_id, model=MODEL, status="RUNNING")
    await daemon.state.store.runs.update(run.id, RunChanges(status=status, result=result, plan=plan))


def open_session(page: PlaywrightPage) -> Any:
    return page.locator(".open-session[aria-current=true]")


async def test_the_page_loads_without_console_errors(database_url: str, browser: pagelens.Browser) -> None:
    async with daemon_and_tab(database_url, browser) as (daemon, page):
        errors: list[str] = []
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        await sign_in(page, daemon.base_url)
        await page.reload()
        await expect(page.get_by_role("button", name="Start")).to_be_visible()
        await page.wait_for_load_state("networkidle")
    assert errors == []  # the browser's own request for the page's icon included


async def test_signing_in_leaves_the_focus_on_the_task(database_url: str, browser: pagelens.Browser) -> None:
    async with daemon_and_tab(database_url, browser) as (daemon, page):
        await sign_in(page, daemon.base_url)
        await expect(page.get_by_label("Task", exact=True)).to_be_focused()


async def test_a_blank_task_is_refused_on_the_page(database_url: str, browser: pagelens.Browser) -> None:
    async with daemon_and_tab(database_url, browser) as (daemon, page):
        posts: list[str] = []
        page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
        await sign_in(page, daemon.base_url)
        await page.get_by_label("Task", exact=True).fill("  \n  ")
        await page.get_by_role("button", name="Start").click()
        await expect(page.locator("#task-error")).to_have_text("Write a task first.")
        await expect(page.get_by_label("Task", exact=True)).to_be_focused()
    assert posts == []


async def test_enter_starts_the_task_and_shift_enter_adds_a_line(
    database_url: str, model_env: Callable[..., None], shop: str, browser: pagelens.Browser
) -> None:
    async with OpenAIChatServer([Fail(500)] * 5) as model:
        model_env(model)
        async with daemon_and_tab(database_url, browser) as (daemon, page):
            await sign_in(page, daemon.base_url)
            await page.get_by_label("Start URL").fill(shop + "index.html")
            task = page.get_by_label("Task", exact=True)
            await task.press_sequentially("Look around")
            await task.press("Shift+Enter")
            await task.press_sequentially("then stop")
            await expect(task).to_have_value("Look around\nthen stop")
            await task.press("Enter")
            bubble = page.locator(".turn.user .bubble")
            await expect(bubble).to_have_text("Look around\nthen stop", timeout=WAIT_MS)
            await expect(bubble).to_have_js_property("innerText", "Look around\nthen stop")  # shown on two lines
            await expect(task).to_have_value("")
            await expect(page.locator("#run-status")).to_have_text("FAILED", timeout=WAIT_MS)


async def test_a_failed_run_says_failed_once(
    database_url: str, model_env: Callable[..., None], shop: str, browser: pagelens.Browser
) -> None:
    async with OpenAIChatServer([Fail(500, message="the model broke")] * 5) as model:
        model_env(model)
        async with daemon_and_tab(database_url, browser) as (daemon, page):
            await sign_in(page, daemon.base_url)
            await page.get_by_label("Task", exact=True).fill("Look around")
            await page.get_by_label("Start URL").fill(shop + "index.html")
            await page.get_by_role("button", name="Start").click()
            await expect(page.locator("#run-status")).to_have_text("FAILED", timeout=WAIT_MS)
            await expect(page.locator("#run-reason")).to_contain_text("the model broke")
            verdict = await page.locator(".turn.verdict.failed .bubble").text_content()
    # The daemon stores the verdict as "FAILED: <reason>"; the bubble's label says FAILED.
    assert verdict is not None and verdict.startswith("FAILED: ") and verdict.count("FAILED") == 1, verdict
    assert "the model broke" in verdict


async def test_opening_a_session_or_a_new_message_keeps_the_keyboard_focus(
    database_url: str, browser: pagelens.Browser
) -> None:
    async with daemon_and_tab(database_url, browser) as (daemon, page):
        thought = {"metadata": {"thought": "The kettle is on the first page."}, "status": "success"}
        older = await a_session(daemon, "Find a kettle", ("assistant", "✅ Opened the shop", thought))
        await a_session(daemon, "Find a teapot")
        await sign_in(page, daemon.base_url)
        await expect(open_session(page)).to_contain_text("Find a teapot")
        button = page.locator(".open-session", has_text="Find a kettle")
        await button.focus()
        await page.keyboard.press("Enter")
        await expect(open_session(page)).to_contain_text("Find a kettle")
        await expect(button).to_be_focused()

        summary = page.locator(".turn.assistant summary")
        await summary.focus()
        await page.keyboard.press("Enter")  # unfolds the Thought
        await expect(page.locator(".turn.assistant details")).to_have_attribute("open", "")
        await add_message(daemon.state, older, "assistant", "✅ Clicked the kettle", status="success")
        await expect(page.locator("#chat .turn")).to_have_count(3)
        await expect(summary).to_be_focused()

        await page.get_by_role("button", name="Rename example.com: Find a teapot").click()
        await page.get_by_label("New title for example.com: Find a teapot").press("Escape")
        await expect(page.get_by_role("button", name="Rename example.com: Find a teapot")).to_be_focused()


async def test_the_skip_link_keeps_the_open_session_in_the_address(
    database_url: str, browser: pagelens.Browser
) -> None:
    async with daemon_and_tab(database_url, browser) as (daemon, page):
        older = await a_session(daemon, "Find a kettle")
        await a_session(daemon, "Find a teapot")
        await sign_in(page, daemon.base_url, f"/ui/#session={older}")
        await page.reload()  # signed in: the page opens as it does from then on
        await expect(open_session(page)).to_contain_text("Find a kettle")
        await page.keyboard.press("Tab")
        await expect(page.get_by_role("link", name="Skip to the task")).to_be_focused()
        await page.keyboard.press("Enter")
        await expect(page.locator("#task-section")).to_be_focused()
        assert page.url.endswith(f"#session={older}")
        await page.reload()
        await expect(open_session(page)).to_contain_text("Find a kettle")


async def test_a_daemon_back_with_another_token_asks_to_sign_in_again(
    database_url: str, browser: pagelens.Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    probe = listening_socket("127.0.0.1", 0)
    port = probe.getsockname()[1]
    probe.close()
    # Both daemons on one port, as `pagelens serve` restarted.
    monkeypatch.setattr(server_support, "listening_socket", lambda host, _port: listening_socket(host, port))
    page = (await browser.new_page()).playwright_page
    try:
        async with daemon_at(database_url) as daemon:
            await a_session(daemon, "Find a kettle")
            await sign_in(page, daemon.base_url)
            await expect(page.locator("#connection")).to_have_text("Live")
        await expect(page.locator("#connection")).to_have_text("Offline: reconnecting…")
        async with daemon_at(database_url, token="another-token"):
            await expect(page.get_by_label("Daemon token")).to_be_visible(timeout=WAIT_MS)
            await expect(page.locator("#login-error")).to_contain_text("no longer takes that token")
    finally:
        await page.close()


@pytest.mark.parametrize("width", [375, 1280])
async def test_a_long_word_wraps_instead_of_widening_the_page(
    database_url: str, browser: pagelens.Browser, width: int
) -> None:
    word = "https://example.com/" + "kettle" * 300
    async with daemon_and_tab(database_url, browser) as (daemon, page):
        await page.set_viewport_size({"width": width, "height": 800})
        session = await a_session(daemon, word)
        await a_finished_run(daemon, session, word, "COMPLETED", word)
        await sign_in(page, daemon.base_url)
        await expect(page.locator("#run-status")).to_have_text("COMPLETED")
        await expect(page.locator("#run-reason")).to_be_visible()
        sizes = await page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert sizes[0] <= sizes[1], sizes


async def test_texts_fields_and_the_focus_ring_have_enough_contrast(
    database_url: str, browser: pagelens.Browser
) -> None:
    async with daemon_and_tab(database_url, browser) as (daemon, page):
        failed = await a_session(daemon, "Find a teapot", ("assistant", "FAILED: no teapot", {"status": "failed"}))
        await a_finished_run(daemon, failed, "Find a teapot", "FAILED", "no teapot")
        done = await a_session(daemon, "Find a kettle", ("assistant", "The Blue Kettle", {"status": "completed"}))
        await a_finished_run(daemon, done, "Find a kettle", "COMPLETED", "The Blue Kettle")
        await page.goto(daemon.base_url + "/ui/")
        low = await page.evaluate(LOW_CONTRAST_TEXTS)  # the sign-in form
        await sign_in(page, daemon.base_url)
        for session in (done, failed):
            await page.goto(f"{daemon.base_url}/ui/#session={session}")
            await page.reload()
            await expect(page.locator("#plan .step.past")).to_have_count(3)
            await expect(page.locator(".turn.verdict")).to_have_count(1)
            low += await page.evaluate(LOW_CONTRAST_TEXTS)
        await page.keyboard.press("Tab")
        await page.keyboard.press("Tab")  # past the skip link, to Sign out
        await expect(page.get_by_role("button", name="Sign out")).to_be_focused()
        ring = await page.evaluate(RING_CONTRAST)
        border = await page.get_by_label("Task", exact=True).evaluate(BORDER_CONTRAST)
    assert low == []
    assert ring >= 3, ring  # WCAG 1.4.11: what shows the focus, 3:1 with what is around it
    assert border >= 3, border  # and what shows where a field is
