"""Frames: same-origin and cross-origin (out-of-process) iframes are captured and
stitched into the top view with frame-prefixed ids ("12.5" is control 5 inside the frame
element 12), boxes and click points in the top viewport, and depth limits counted."""

from __future__ import annotations

from typing import Any

import pagelens
from pagelens.engine.models import PageModel, SemanticView


async def goto_top(page: pagelens.Page, fixtures_url: str, cross_origin_fixtures_url: str) -> None:
    child = f"{cross_origin_fixtures_url}frames/child.html"
    await page.goto(f"{fixtures_url}frames/top.html?cross={child}")


async def frame_element_id(page: pagelens.Page, selector: str) -> str:
    """The data-llm-id the engine stamped on a frame element (read from the shared DOM)."""
    value = await page.playwright_page.locator(selector).get_attribute("data-llm-id")
    assert value, f"{selector} has no data-llm-id"
    return value


async def rect(page: pagelens.Page, frame_selector: str | None, selector: str) -> dict[str, float]:
    """An element's box in the top viewport, as Playwright measures it."""
    root: Any = page.playwright_page
    if frame_selector:
        root = root.frame_locator(frame_selector)
    box = await root.locator(selector).bounding_box()
    assert box is not None
    return box


async def hit(page: pagelens.Page, frame_selector: str, x: float, y: float) -> str | None:
    """Press the mouse at (x, y) of the top viewport; the id of what the frame's document
    received the press on (the child page records it)."""
    body = page.playwright_page.frame_locator(frame_selector).locator("body")
    await page.playwright_page.mouse.move(x, y)
    await page.playwright_page.mouse.down()
    await page.playwright_page.mouse.up()
    return await body.get_attribute("data-hit")


def by_name(model: PageModel, name: str) -> list[Any]:
    return [c for c in model.controls if c.name == name]


def nodes_named(tree: SemanticView, name: str) -> list[Any]:
    return [n for n in tree.interactive_tree if n.n == name]


def close_to(a: float, b: float, tolerance: float = 1.5) -> bool:
    return abs(a - b) <= tolerance


async def test_cross_origin_child_is_out_of_process(
    page: pagelens.Page, fixtures_url: str, cross_origin_fixtures_url: str
) -> None:
    # The premise of the cross-origin tests: the child really runs in another process.
    await goto_top(page, fixtures_url, cross_origin_fixtures_url)
    session = await page.playwright_page.context.new_cdp_session(page.playwright_page)
    tree = await session.send("Page.getFrameTree")
    in_process = [c["frame"]["url"] for c in tree["frameTree"].get("childFrames", [])]
    await session.detach()
    assert any("127.0.0.1" in url for url in in_process)
    assert not any("localhost" in url for url in in_process)


async def test_interaction_model_stitches_both_frames(
    page: pagelens.Page, fixtures_url: str, cross_origin_fixtures_url: str
) -> None:
    await goto_top(page, fixtures_url, cross_origin_fixtures_url)
    model = await page.interaction_model()
    same, cross = await frame_element_id(page, "#same"), await frame_element_id(page, "#cross")
    assert same != cross

    top = by_name(model, "Top button")
    assert len(top) == 1 and "." not in top[0].id
    buttons = {c.id.split(".")[0]: c for c in by_name(model, "Child button")}
    fields = {c.id.split(".")[0]: c for c in by_name(model, "Child field")}
    assert set(buttons) == {same, cross} and set(fields) == {same, cross}
    for owner, frame_selector in ((same, "#same"), (cross, "#cross")):
        button, field = buttons[owner], fields[owner]
        assert button.id.count(".") == 1 and field.id.count(".") == 1
        assert button.id in model.aimap and model.aimap[button.id] == button.selector
        # Boxes are in the top viewport: pressing the mouse at a box's centre lands on
        # the element (Playwright's own boxes are off by the frame's border and padding
        # for out-of-process frames, so the mouse is the judge).
        for control, element_id in ((button, "child-btn"), (field, "child-field")):
            box = control.boundingBox
            assert await hit(page, frame_selector, box.x + box.width / 2, box.y + box.height / 2) == element_id
            assert await hit(page, frame_selector, box.x + 2, box.y + 2) == element_id
            assert await hit(page, frame_selector, box.x - 3, box.y - 3) != element_id
            expected = await rect(page, frame_selector, f"#{element_id}")
            assert close_to(box.width, expected["width"]) and close_to(box.height, expected["height"])
            assert control.inViewport and control.visible
    assert model.total_controls == len(model.controls) == 5
    assert len({c.id for c in model.controls}) == 5  # unique across frames
    assert model.unreachable.framesBeyondDepth == 0 and model.unreachable.framesFailed == 0


async def test_semantic_tree_stitches_both_frames(
    page: pagelens.Page, fixtures_url: str, cross_origin_fixtures_url: str
) -> None:
    await goto_top(page, fixtures_url, cross_origin_fixtures_url)
    tree = await page.semantic_tree()
    same, cross = await frame_element_id(page, "#same"), await frame_element_id(page, "#cross")
    top = nodes_named(tree, "Top button")
    assert len(top) == 1 and top[0].f is None and "." not in top[0].i
    children = nodes_named(tree, "Child button") + nodes_named(tree, "Child field")
    assert len(children) == 4
    frame_numbers: dict[str, set[int]] = {}
    for node in children:
        owner = node.i.split(".")[0]
        assert owner in (same, cross)
        assert node.f is not None
        frame_numbers.setdefault(owner, set()).add(node.f)
        assert node.box is None  # boxes only when asked for
        # The click point lands inside the frame element and on the element itself.
        frame_selector = "#same" if owner == same else "#cross"
        iframe = await rect(page, None, frame_selector)
        x, y = node.xy
        assert iframe["x"] < x < iframe["x"] + iframe["width"]
        assert iframe["y"] < y < iframe["y"] + iframe["height"]
        target = "child-btn" if node.n == "Child button" else "child-field"
        assert await hit(page, frame_selector, x, y) == target
    # One frame number per frame, different between the frames.
    assert all(len(numbers) == 1 for numbers in frame_numbers.values())
    assert frame_numbers[same] != frame_numbers[cross]

    boxed = await page.semantic_tree(include_boxes=True)
    buttons = [n for n in boxed.interactive_tree if n.n == "Child button" and n.i.startswith(f"{cross}.")]
    assert len(buttons) == 1 and buttons[0].box is not None
    x, y, width, height = buttons[0].box
    assert await hit(page, "#cross", x + 2, y + 2) == "child-btn"
    assert await hit(page, "#cross", x + width - 2, y + height - 2) == "child-btn"
    assert await hit(page, "#cross", x + width + 3, y + height + 3) != "child-btn"


async def test_max_iframe_depth_zero_counts_frames_instead(
    page: pagelens.Page, fixtures_url: str, cross_origin_fixtures_url: str
) -> None:
    await goto_top(page, fixtures_url, cross_origin_fixtures_url)
    model = await page.interaction_model({"maxIframeDepth": 0})
    assert [c.name for c in model.controls] == ["Top button"]
    assert model.unreachable.framesBeyondDepth == 2
    tree = await page.semantic_tree(max_iframe_depth=0)
    assert [n.n for n in tree.interactive_tree] == ["Top button"]
    assert tree.unreachable is not None and tree.unreachable.framesBeyondDepth == 2


async def test_nested_frames_follow_the_depth_limit(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}frames/nested.html")
    expected_names = ["Level 0 button", "Level 1 button", "Level 2 button", "Level 3 button"]
    for depth, beyond in ((0, 1), (1, 1), (2, 1), (3, 0), (10, 0)):
        model = await page.interaction_model({"maxIframeDepth": depth})
        assert [c.name for c in model.controls] == expected_names[: depth + 1], depth
        assert model.unreachable.framesBeyondDepth == beyond, depth
        # "a.b.c": one more prefix per level of nesting.
        assert [c.id.count(".") for c in model.controls] == list(range(depth + 1)[:4])
        tree = await page.semantic_tree(max_iframe_depth=depth)
        assert [n.n for n in tree.interactive_tree] == expected_names[: depth + 1], depth
        assert tree.unreachable is not None and tree.unreachable.framesBeyondDepth == beyond
    deepest = by_name(await page.interaction_model({"maxIframeDepth": 3}), "Level 3 button")[0]
    frame = page.playwright_page.frame_locator("iframe").frame_locator("iframe").frame_locator("iframe")
    box = await frame.locator("button").bounding_box()  # same-origin all the way: Playwright is right
    assert box is not None
    assert close_to(deepest.boundingBox.x, box["x"]) and close_to(deepest.boundingBox.y, box["y"])


async def test_ids_are_stable_across_captures(
    page: pagelens.Page, fixtures_url: str, cross_origin_fixtures_url: str
) -> None:
    await goto_top(page, fixtures_url, cross_origin_fixtures_url)
    first = await page.interaction_model()
    second = await page.interaction_model()
    assert [(c.id, c.name) for c in first.controls] == [(c.id, c.name) for c in second.controls]
    tree = await page.semantic_tree()
    assert {n.i for n in tree.interactive_tree} == {c.id for c in first.controls}


async def test_frames_off_screen_or_across_the_fold(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}frames/offscreen.html")
    model = await page.interaction_model()
    below = await frame_element_id(page, "#below")
    straddle = await frame_element_id(page, "#straddle")
    in_viewport = {(c.id.split(".")[0], c.name): c.inViewport for c in model.controls if "." in c.id}
    # Each frame's own viewport shows both controls; the top viewport shows only the
    # straddling frame's button.
    assert in_viewport == {
        (below, "Child button"): False,
        (below, "Child field"): False,
        (straddle, "Child button"): True,
        (straddle, "Child field"): False,
    }

    tree = await page.semantic_tree()
    shown = [n for n in tree.interactive_tree if n.i.startswith((f"{below}.", f"{straddle}."))]
    assert [n.n for n in shown] == ["Child button"]
    assert shown[0].i.startswith(f"{straddle}.")
    assert shown[0].xy[1] < 800  # the click point is inside the top viewport
    everything = await page.semantic_tree(include_offscreen=True)
    assert len([n for n in everything.interactive_tree if "." in n.i]) == 4
