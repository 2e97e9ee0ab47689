"""An action on an element inside a frame reports what changed in that frame's document:
its mutations, the alerts and toasts that appeared there (with their tone) and its change
log's lines, for a same-origin and a cross-origin (out-of-process) iframe alike."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from pagelens.actions import Session
from pagelens.browser.network import LOOPBACK_HOSTS
from tests.actions_helpers import go


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with await Session.start(allowed_hosts=list(LOOPBACK_HOSTS)) as session:
        yield session


async def form_ids(session: Session, fixtures_url: str, cross_origin_fixtures_url: str, frame: str) -> dict[str, str]:
    """Control name -> element id in the sign-in form of frame element `frame` ("#same"
    or "#cross"), as an agent reads them from the semantic view."""
    cross = f"{cross_origin_fixtures_url}frames/form.html"
    await go(session, f"{fixtures_url}frames/form-top.html?cross={cross}")
    view = await session.analyze({"what": "semantic"})
    page = await session.page()
    owner = await page.locator(frame).get_attribute("data-llm-id")
    nodes = view.data["interactive_tree"]
    return {node["n"]: node["i"] for node in nodes if node["i"].startswith(f"{owner}.")}


async def act(session: Session, **request: Any) -> dict[str, Any]:
    result = await session.interact(request)
    assert result["success"], result
    observations: dict[str, Any] = result["observations"]
    return observations


@pytest.mark.parametrize("frame", ["#same", "#cross"])
async def test_an_error_shown_in_the_frame_is_reported(
    session: Session, fixtures_url: str, cross_origin_fixtures_url: str, frame: str
) -> None:
    ids = await form_ids(session, fixtures_url, cross_origin_fixtures_url, frame)
    seen = await act(session, action="click", element_id=ids["Sign in"])
    assert seen["dom_mutated"] is True
    assert seen["recent_events"] == ["Wrong password"]
    assert seen["has_errors"] is True and seen["has_success"] is False
    assert "Error: 'Wrong password'" in seen["changes"], seen["changes"]
    assert seen["url_changed"] is False


@pytest.mark.parametrize("frame", ["#same", "#cross"])
async def test_a_checkbox_ticked_in_the_frame_is_reported(
    session: Session, fixtures_url: str, cross_origin_fixtures_url: str, frame: str
) -> None:
    ids = await form_ids(session, fixtures_url, cross_origin_fixtures_url, frame)
    seen = await act(session, action="check", element_id=ids["Remember me"])
    assert seen["changes"] == ["Changed: checkbox 'Remember me' checked"]
    assert seen["recent_events"] == [] and seen["has_errors"] is False


@pytest.mark.parametrize("frame", ["#same", "#cross"])
async def test_a_frame_that_loads_another_document_mutated_but_the_page_did_not_navigate(
    session: Session, fixtures_url: str, cross_origin_fixtures_url: str, frame: str
) -> None:
    ids = await form_ids(session, fixtures_url, cross_origin_fixtures_url, frame)
    seen = await act(session, action="click", element_id=ids["Help"])
    assert seen["dom_mutated"] is True and seen["url_changed"] is False


async def test_a_top_document_action_still_reports_the_top_document(
    session: Session, fixtures_url: str, cross_origin_fixtures_url: str
) -> None:
    ids = await form_ids(session, fixtures_url, cross_origin_fixtures_url, "#same")
    page = await session.page()
    await page.evaluate(
        """() => document.querySelector('h1').addEventListener('click', () => {
            const note = document.createElement('div');
            note.setAttribute('role', 'status');
            note.textContent = 'Saved';
            document.body.append(note);
        })"""
    )
    assert ids  # the frames are there, and their documents are not watched for a top action
    seen = await act(session, action="click", selector="text=Embedded forms")
    assert seen["dom_mutated"] is True
    assert seen["recent_events"] == ["Saved"] and seen["has_success"] is True
