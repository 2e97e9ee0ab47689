"""The semantic view, and so Set-of-Marks, shows what a person can see: controls faded
out (opacity 0 on them or an ancestor), clipped away (the visually-hidden pattern),
hidden by style or of no size are left out, by the rule behind the interaction model's
`visible`, but for a checkbox or radio button drawn by its label; a skip link appears
once focus shows it; a covered control stays, with `occ`.
Real Chromium, on tests/fixtures/visibility/page.html."""

from __future__ import annotations

import pytest

import pagelens

SEEN = ["Real", "Read more", "Search", "Covered", "Remember me", "Fast shipping"]
UNSEEN = ["Skip to content", "Ghost", "Faded link", "Clipped", "Clipped inside", "Hidden", "Zero", "Unlabelled"]


@pytest.fixture
async def fixture_page(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}visibility/page.html")
    return page


async def test_the_semantic_view_leaves_out_what_nobody_sees(fixture_page: pagelens.Page) -> None:
    model = await fixture_page.interaction_model()
    for include_offscreen in (False, True):
        tree = await fixture_page.semantic_tree(include_offscreen=include_offscreen)
        assert [node.n for node in tree.interactive_tree] == SEEN
        # One rule: the nodes are the controls the interaction model calls visible.
        assert [node.i for node in tree.interactive_tree] == [c.id for c in model.controls if c.visible]
    covered = next(node for node in tree.interactive_tree if node.n == "Covered")
    assert covered.occ is True
    listed = {c.name: c.visible for c in model.controls}
    assert all(listed[name] is False for name in UNSEEN if name in listed)
    assert {"Ghost", "Faded link", "Clipped", "Clipped inside", "Skip to content"} <= listed.keys()
    # The other views that show what is seen agree.
    assert (await fixture_page.summary()).interactive_count == len(SEEN)
    skeleton = (await fixture_page.skeleton()).html
    for name in UNSEEN:
        assert name not in skeleton


async def test_marks_outline_only_what_is_seen(fixture_page: pagelens.Page) -> None:
    for full_page in (False, True):
        shot = await pagelens.screenshot(fixture_page, full_page=full_page, marks=True)
        assert shot.marks is not None
        # Covered is seen but not marked: its mark would be drawn on what covers it.
        marked = [mark.name for mark in shot.marks]
        assert marked[:3] == ["Real", "Read more", "Search"] and "Covered" not in marked
        assert "Remember me" in marked and not set(marked) & set(UNSEEN)


async def test_a_skip_link_shows_once_focused(fixture_page: pagelens.Page) -> None:
    before = await fixture_page.semantic_tree()
    await fixture_page.playwright_page.focus("a.skip")
    after = await fixture_page.semantic_tree()
    assert [node.n for node in after.interactive_tree] == ["Skip to content", *SEEN]
    skip = after.interactive_tree[0]
    assert skip.s == "focused" and skip.i not in {node.i for node in before.interactive_tree}
    shot = await pagelens.screenshot(fixture_page, marks=True)
    assert shot.marks is not None and shot.marks[0].id == skip.i


async def test_a_page_faded_out_shows_nothing_until_it_fades_in(fixture_page: pagelens.Page) -> None:
    """The anti-flicker pattern: the whole body at opacity 0 while a script decides."""
    await fixture_page.playwright_page.evaluate("document.body.style.opacity = '0'")
    assert (await fixture_page.semantic_tree(include_offscreen=True)).interactive_tree == []
    shot = await pagelens.screenshot(fixture_page, marks=True)
    assert shot.marks == []
    await fixture_page.playwright_page.evaluate("document.body.style.opacity = ''")
    assert [node.n for node in (await fixture_page.semantic_tree()).interactive_tree] == SEEN


async def test_a_faded_out_frame_shows_none_of_its_controls(page: pagelens.Page) -> None:
    await page.set_content(
        "<button>Top</button><iframe style='opacity:0' srcdoc='<button>In faded frame</button>'></iframe>"
        "<iframe srcdoc='<button>In frame</button>'></iframe>"
    )
    model = await page.interaction_model()
    assert [(c.name, c.visible) for c in model.controls] == [
        ("Top", True),
        ("In faded frame", False),
        ("In frame", True),
    ]
    tree = await page.semantic_tree()
    assert [node.n for node in tree.interactive_tree] == ["Top", "In frame"]
