"""The whole path once: launch, navigate, every view, typed results."""

from __future__ import annotations

import pytest

import pagelens
from pagelens.engine.models import VIEWS


@pytest.mark.corpus
async def test_every_view_on_a_login_page(page: pagelens.Page, corpus_url: str) -> None:
    await page.goto(f"{corpus_url}login-loginform-github/page.html")
    compact = await page.summary("compact")
    assert isinstance(compact, pagelens.CompactSummary)
    assert compact.type == "login"
    assert compact.title == "Sign in · GitHub"
    for mode in VIEWS:
        view = await page.snapshot(mode)
        assert view.model_dump()
