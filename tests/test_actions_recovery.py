"""A session outlives its browser: Chromium killed between two calls is relaunched by
the next one, which says so, with the tab back at its address and the agent's ids still
usable."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from pagelens.actions import Session
from tests.actions_helpers import go, ids

pytest_plugins = ["tests.actions_support"]  # the `site` and `session` fixtures


async def _browser_pid(session: Session) -> int:
    cdp = await session._runtime.browser.playwright_browser.new_browser_cdp_session()
    processes = (await cdp.send("SystemInfo.getProcessInfo"))["processInfo"]
    return next(p["id"] for p in processes if p["type"] == "browser")


async def test_chromium_killed_between_two_calls(site: str) -> None:
    async with await Session.start() as session:
        first = await go(session, f"{site}modal.html")
        button = await ids(session)
        os.kill(await _browser_pid(session), signal.SIGKILL)

        closed = await session.interact({"action": "click", "element_id": button["No thanks"]})
        assert closed["success"] is True, closed
        assert closed["browser_restarted"] is True
        assert closed["tab_id"] == first["tab_id"] and closed["url"] == f"{site}modal.html"

        bought = await session.interact({"action": "click", "element_id": button["Buy now"]})
        assert bought["success"] is True and "browser_restarted" not in bought
        assert bought["observations"]["recent_events"] == ["Added to your basket"]

        # analyze, too, brings the browser back and says so.
        os.kill(await _browser_pid(session), signal.SIGKILL)
        view = await session.analyze({"what": "page_summary"})
        assert view.data["browser_restarted"] is True
        assert view.data["title"] == "Shop"


async def test_a_profile_of_its_own_and_attaching_to_a_running_chromium(site: str, tmp_path: Path) -> None:
    profile = tmp_path / "profile"
    async with await Session.start(user_data_dir=str(profile)) as owner:
        mine = await go(owner, f"{site}book.html")
        assert (profile / "Default").is_dir()  # Chromium runs on the given profile
        endpoint = owner._runtime.endpoint
        assert endpoint is not None and endpoint.startswith("ws://127.0.0.1:")
        # A second session attaches to that browser and sees the tab that was open.
        async with await Session.start(cdp_url=endpoint) as guest:
            tabs = (await guest.analyze({"what": "tabs"})).data["tabs"]
            assert [t["url"] for t in tabs] == [f"{site}book.html"]
            opened = await guest.interact({"action": "new_tab", "url": f"{site}search.html"})
            assert opened["summary"]["title"] == "Find a book"
        # Leaving, the guest closed the tab it opened, and only that one.
        assert [p.url for p in owner._runtime.browser.context.pages] == [f"{site}book.html"]
        assert mine["tab_id"] == "t1"
