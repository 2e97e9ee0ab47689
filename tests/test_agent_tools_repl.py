"""The repl tool on real pages: a sandbox that cannot see the page, helpers that reach it."""

from __future__ import annotations

import base64
import json
import time
from typing import Any

import pytest

import pagelens
from pagelens.agent.tools import ReplLimits, ReplParams, ReplResult, repl
from pagelens.agent.tools.errors import NavigationRefusedError, ReplError, ReplTimeoutError


class Navigator:
    """The agent's navigate, as the repl sees it: records each call and loads the URL."""

    def __init__(self, page: pagelens.Page) -> None:
        self.page = page
        self.calls: list[str] = []

    async def __call__(self, url: str) -> dict[str, Any]:
        self.calls.append(url)
        await self.page.goto(url)
        return {"finalUrl": self.page.url, "title": await self.page.title()}


@pytest.fixture
async def target(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}agent/target.html")
    return page


async def run(page: pagelens.Page, code: str, **options: Any) -> ReplResult:
    options.setdefault("navigate", Navigator(page))
    return await repl(page.playwright_page, ReplParams(title="test", code=code), **options)


async def test_console_then_the_completion_value(target: pagelens.Page) -> None:
    result = await run(
        target, "console.log('a', 1, {b: 2}); console.warn('careful'); await sleep(20); [1, 2].map(x => x * 2)"
    )
    assert result.output == 'a 1 {"b":2}\nwarn: careful\n=> [2,4]'
    assert result.files == []


async def test_the_sandbox_cannot_see_the_page(target: pagelens.Page) -> None:
    result = await run(
        target,
        "({url: location.href, button: document.querySelector('#go'), title: document.title,"
        " clicks: typeof pageClicks})",
    )
    assert json.loads(result.output.removeprefix("=> ")) == {
        "url": "about:blank",
        "button": None,
        "title": "",
        "clicks": "undefined",
    }


async def test_browserjs_runs_in_the_page_with_json_arguments(target: pagelens.Page) -> None:
    code = """
    const read = (selector, suffix) => document.querySelector(selector).textContent + suffix;
    const info = await browserjs(read, '#go', '!');
    const clicks = await browserjs(() => window.pageClicks);
    ({info, clicks})
    """
    assert (await run(target, code)).output == '=> {"info":"Go!","clicks":[]}'


async def test_a_page_error_rejects_browserjs(target: pagelens.Page) -> None:
    throw = "browserjs(() => { throw new Error('nope ' + document.title) })"
    caught = await run(target, f"try {{ await {throw} }} catch (e) {{ console.log('caught:', e.message) }}")
    assert caught.output.startswith("caught: ") and "nope Agent target" in caught.output
    with pytest.raises(ReplError) as uncaught:
        await run(target, f"await {throw}")
    assert "nope Agent target" in uncaught.value.message


async def test_a_library_is_loaded_before_browserjs(target: pagelens.Page) -> None:
    library = "window.__libraryLoads = (window.__libraryLoads || 0) + 1; function shout(s) { return s.toUpperCase() }"
    code = "[await browserjs(() => shout(document.title)), await browserjs(() => window.__libraryLoads)]"
    result = await run(target, code, libraries=[library])
    assert result.output == '=> ["AGENT TARGET",1]'
    # Once per document: a second call on the same document does not load it again.
    assert (await run(target, "await browserjs(() => window.__libraryLoads)", libraries=[library])).output == "=> 1"


async def test_navigate_goes_through_the_callback(target: pagelens.Page, fixtures_url: str) -> None:
    navigator = Navigator(target)
    code = f"const r = await navigate({{url: '{fixtures_url}agent/other.html'}});"
    code += " await browserjs(() => document.title) + ' ' + r.title"
    result = await run(target, code, navigate=navigator)
    assert result.output == '=> "Other Other"'
    assert navigator.calls == [f"{fixtures_url}agent/other.html"]


@pytest.mark.parametrize(
    "attempt",
    [
        "location.href = 'other.html'",
        "location.assign('other.html')",
        "location.reload()",
        "history.pushState({}, '', 'pushed.html')",
        "history.back()",
        "document.getElementById('form').submit()",
        "window.open('other.html')",
        # After the function returned: only the refusal of document requests sees this one.
        "setTimeout(() => { location.href = 'other.html' }, 5)",
    ],
)
async def test_browserjs_may_not_navigate(target: pagelens.Page, attempt: str) -> None:
    before = target.url
    with pytest.raises(NavigationRefusedError) as caught:
        await run(target, f"try {{ await browserjs(() => {{ {attempt} }}) }} catch {{}}; 'done'")
    assert caught.value.code == "navigation_refused"
    assert "navigate(" in caught.value.message
    assert target.url == before
    assert await target.playwright_page.evaluate("window.pageClicks") == []  # the same document
    # The guard is gone afterwards: the page has its own open() and history back.
    natives = "[window.open, history.back, history.pushState].map(f => String(f).includes('[native code]'))"
    assert await target.playwright_page.evaluate(natives) == [True, True, True]


@pytest.mark.parametrize("attempt", ["location.href = 'http://127.0.0.1:1/x'", "history.back()", "window.open('x')"])
async def test_the_sandbox_may_not_navigate(target: pagelens.Page, attempt: str) -> None:
    with pytest.raises(NavigationRefusedError) as caught:
        await run(target, f"try {{ {attempt} }} catch {{}}; await sleep(100); 1")
    assert "navigate(" in caught.value.message


async def test_native_helpers_send_trusted_events(target: pagelens.Page) -> None:
    code = "await nativeClick('#go'); await nativeType('#field', 'hi'); await nativePress('Enter');"
    code += " await nativeKeyDown('Shift'); await nativeKeyUp('Shift'); await browserjs(() => window.trusted)"
    events = json.loads((await run(target, code)).output.removeprefix("=> "))
    assert ["click", True] in events
    assert ["keydown", True, "h"] in events and ["input", True, None] in events
    assert ["keydown", True, "Enter"] in events
    assert ["keydown", True, "Shift"] in events and ["keyup", True, "Shift"] in events
    assert all(trusted for _, trusted, *_ in events)
    assert await target.playwright_page.input_value("#field") == "hi"


async def test_files_come_back_base64(target: pagelens.Page) -> None:
    code = """
    returnFile('notes.txt', 'héllo', 'text/plain');
    returnFile({fileName: 'bytes.bin', content: new Uint8Array([0, 1, 255])});
    returnFile('buffer.bin', new Uint8Array([7, 8]).buffer, 'application/x-test');
    """
    result = await run(target, code)
    files = {file.file_name: file for file in result.files}
    assert base64.b64decode(files["notes.txt"].content_base64).decode() == "héllo"
    assert files["notes.txt"].mime_type == "text/plain"
    assert base64.b64decode(files["bytes.bin"].content_base64) == bytes([0, 1, 255])
    assert files["bytes.bin"].mime_type == "application/octet-stream"
    assert base64.b64decode(files["buffer.bin"].content_base64) == bytes([7, 8])
    assert result.model_dump(by_alias=True)["files"][0]["fileName"] == "notes.txt"


async def test_an_error_names_its_line(target: pagelens.Page) -> None:
    with pytest.raises(ReplError) as caught:
        await run(target, "console.log('before');\nconst x = 1;\nnull.boom")
    assert caught.value.code == "repl_error"
    assert "TypeError" in caught.value.message and "(line 3)" in caught.value.message
    assert caught.value.output == "before"


async def test_output_is_cut_at_its_limit(target: pagelens.Page) -> None:
    result = await run(target, "'x'.repeat(5000)", limits=ReplLimits(max_output_chars=1000))
    assert result.output.startswith('=> "xxx')
    assert result.output.endswith("[output cut: 4005 more characters]")  # 5005 = `=> ` and the quoted string


@pytest.mark.parametrize("loop", ["while (true) {}", "await browserjs(() => { while (true) {} })"])
async def test_an_endless_loop_times_out_and_the_next_call_works(target: pagelens.Page, loop: str) -> None:
    started = time.monotonic()
    with pytest.raises(ReplTimeoutError) as caught:
        await run(target, loop, limits=ReplLimits(timeout=1.0))
    assert caught.value.code == "repl_timeout"
    assert time.monotonic() - started < 6
    assert (await run(target, "await browserjs(() => document.title)")).output == '=> "Agent target"'
