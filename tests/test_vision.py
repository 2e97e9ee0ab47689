"""Screenshots for agents, Set-of-Marks and select_dom_mode, on real
Chromium; then the screenshot parameters of analyze and the `pagelens screenshot` command
(the MCP surface is tested in test_mcp_server.py).

The fixture page (tests/fixtures/vision) has controls in a header, a form row, a card, an
iframe and one far below the fold; its viewport is 1280×800, so a viewport shot is resized
to 1024×640 (scale 0.8)."""

from __future__ import annotations

import functools
import io
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import pagelens
from pagelens.actions import AnalyzeRequest, InvalidParameterError
from pagelens.engine.models import SemanticNode
from pagelens.vision import PageStats, page_stats, select_dom_mode
from pagelens.vision import screenshots as screenshot_module
from pagelens.vision.imaging import MIN_QUALITY, render
from pagelens.vision.marks import mark_colour
from pagelens.vision.models import MAX_IMAGE_BASE64

JPEG_MAGIC = b"\xff\xd8\xff"
FIXTURES = Path(__file__).parent / "fixtures" / "vision"


@pytest.fixture
async def fixture_page(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    await page.goto(f"{fixtures_url}vision/page.html")
    return page


def decoded(shot: pagelens.Screenshot) -> Image.Image:
    assert shot.image is not None
    image = Image.open(io.BytesIO(shot.image))
    assert image.format == "JPEG"
    assert image.size == (shot.width, shot.height)
    return image.convert("RGB")


def scaled(node: SemanticNode, origin: tuple[int, int], scale: float) -> tuple[int, int, int, int]:
    """The node's box in image pixels, as the marks should place it."""
    assert node.box is not None
    x, y, w, h = node.box
    left, top = round((x - origin[0]) * scale), round((y - origin[1]) * scale)
    return left, top, round((x + w - origin[0]) * scale) - left, round((y + h - origin[1]) * scale) - top


def close(a: tuple[int, ...], b: tuple[int, ...], within: int = 1) -> bool:
    return all(abs(p - q) <= within for p, q in zip(a, b, strict=True))


def distance(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(abs(p - q) for p, q in zip(a, b, strict=True))


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """A pixel of an RGB image, as its bands (getpixel's type also covers one-band images)."""
    bands = image.getpixel(xy)
    assert isinstance(bands, tuple), bands
    return bands


async def node_named(page: pagelens.Page, name: str) -> SemanticNode:
    tree = await page.semantic_tree(include_offscreen=True, include_boxes=True)
    return next(node for node in tree.interactive_tree if node.n == name)


# ---- the viewport JPEG and its hash


async def test_viewport_shot_is_a_jpeg_at_most_1024_wide(fixture_page: pagelens.Page) -> None:
    shot = await pagelens.screenshot(fixture_page)
    assert shot.image is not None and shot.image.startswith(JPEG_MAGIC)
    assert (shot.kind, shot.mime_type) == ("viewport", "image/jpeg")
    assert (shot.width, shot.height, shot.scale) == (1024, 640, 0.8)
    image = decoded(shot)
    assert image.getpixel((512, 320)) != image.getpixel((10, 10))  # the page, not a blank frame
    assert shot.marks is None and not shot.unchanged
    assert len(shot.image) < 150_000  # the contract says ~50-150 KB

    narrow = await pagelens.screenshot(fixture_page, max_width=640, quality=40)
    assert (narrow.width, narrow.height) == (640, 400)
    assert narrow.image is not None and len(narrow.image) < len(shot.image)


async def test_hash_holds_while_the_screen_does_and_unchanged_comes_back_without_image(
    fixture_page: pagelens.Page,
) -> None:
    first = await pagelens.screenshot(fixture_page)
    again = await pagelens.screenshot(fixture_page)
    assert len(first.hash) == 32 and first.hash == again.hash

    await fixture_page.playwright_page.check("#agree")  # a small visible change: one tick
    ticked = await pagelens.screenshot(fixture_page)
    assert ticked.hash != first.hash

    same = await pagelens.screenshot(fixture_page, screenshot_hash=ticked.hash)
    assert same.unchanged and same.image is None and same.hash == ticked.hash
    assert (same.width, same.height) == (ticked.width, ticked.height)

    stale = await pagelens.screenshot(fixture_page, screenshot_hash=first.hash)
    assert not stale.unchanged and stale.image is not None and stale.hash == ticked.hash

    await fixture_page.playwright_page.evaluate("document.querySelector('#status').textContent = 'Saved'")
    assert (await pagelens.screenshot(fixture_page)).hash != ticked.hash


# ---- Set-of-Marks


async def test_marks_carry_the_semantic_ids_where_the_controls_are(fixture_page: pagelens.Page) -> None:
    tree = await fixture_page.semantic_tree(include_boxes=True)
    plain = decoded(await pagelens.screenshot(fixture_page))
    shot = await pagelens.screenshot(fixture_page, marks=True)
    marked = decoded(shot)

    visible = {node.i: node for node in tree.interactive_tree if not node.occ}
    assert shot.marks is not None
    assert {mark.id for mark in shot.marks} == set(visible)
    assert any("." in mark.id for mark in shot.marks)  # the iframe's controls too, by their prefixed ids
    for mark in shot.marks:
        node = visible[mark.id]
        assert (mark.role, mark.name, mark.xy) == (node.r, node.n, node.xy)
        assert close(mark.box, scaled(node, (0, 0), shot.scale)), (mark, node)
        # The outline is drawn along the box's left edge (2 px): there the picture took the
        # mark's colour (JPEG blurs colours a little, hence the margins).
        x, y, _, h = mark.box
        colour = mark_colour(mark.id)
        edge = min(((x, y + h // 2), (x + 1, y + h // 2)), key=lambda p: distance(pixel(marked, p), colour))
        assert distance(pixel(marked, edge), colour) < distance(pixel(plain, edge), colour), mark
        assert distance(pixel(marked, edge), pixel(plain, edge)) > 60, mark


async def test_marks_follow_the_device_scale_factor(browser: pagelens.Browser, fixtures_url: str) -> None:
    context = await browser.playwright_browser.new_context(
        viewport={"width": 1280, "height": 800}, device_scale_factor=2
    )
    try:
        page = pagelens.Page(await context.new_page())
        await page.goto(f"{fixtures_url}vision/page.html")
        tree = await page.semantic_tree(include_boxes=True)
        shot = await pagelens.screenshot(page, marks=True)
        assert (shot.width, shot.height, shot.scale) == (1024, 640, 0.8)  # CSS pixels, not device pixels
        nodes = {node.i: node for node in tree.interactive_tree}
        assert shot.marks
        for mark in shot.marks:
            assert close(mark.box, scaled(nodes[mark.id], (0, 0), shot.scale)), mark
    finally:
        await context.close()


# ---- full page and element shots


async def test_full_page_shot_reaches_below_the_fold(fixture_page: pagelens.Page) -> None:
    await fixture_page.playwright_page.evaluate("window.scrollTo(0, 300)")
    height = await fixture_page.playwright_page.evaluate("document.documentElement.scrollHeight")
    shot = await pagelens.screenshot(fixture_page, full_page=True, marks=True)
    assert shot.kind == "full_page" and shot.origin == (0, -300) and not shot.truncated
    assert shot.width == 1024 and abs(shot.height - height * 0.8) <= 1
    decoded(shot)

    far = await node_named(fixture_page, "Far below")
    assert shot.marks is not None
    mark = next(mark for mark in shot.marks if mark.id == far.i)
    assert close(mark.box, scaled(far, shot.origin, shot.scale))
    assert mark.box[1] > 800  # drawn where the page has it, far below the first screen


async def test_element_shots_by_id_in_frames_below_the_fold_and_by_selector(fixture_page: pagelens.Page) -> None:
    save = await node_named(fixture_page, "Save")
    assert save.box is not None
    shot = await pagelens.screenshot(fixture_page, element_id=save.i)
    assert shot.kind == "element" and shot.element_id == save.i and shot.scale == 1.0
    assert close((shot.width, shot.height), save.box[2:], within=2)  # the enclosing whole-pixel rectangle
    decoded(shot)

    subscribe = await node_named(fixture_page, "Subscribe")
    assert "." in subscribe.i and subscribe.box is not None
    framed = await pagelens.screenshot(fixture_page, element_id=subscribe.i)
    assert close((framed.width, framed.height), subscribe.box[2:], within=2)
    assert close(framed.origin, subscribe.box[:2])

    far = await node_named(fixture_page, "Far below")
    assert far.box is not None
    below = await pagelens.screenshot(fixture_page, element_id=far.i, marks=True)
    assert close((below.width, below.height), far.box[2:], within=2)
    assert await fixture_page.playwright_page.evaluate("scrollY") > 0  # scrolled into view to be shot
    assert below.marks is not None and [mark.id for mark in below.marks] == [far.i]

    card = await pagelens.screenshot(fixture_page, selector="#card")
    box = await fixture_page.playwright_page.locator("#card").bounding_box()
    assert box is not None and close((card.width, card.height), (round(box["width"]), round(box["height"])), within=2)


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"element_id": "9999"}, "not_found"),
        ({"element_id": "9999.1"}, "not_found"),
        ({"selector": "#nothing-here"}, "not_found"),
        ({"selector": "[["}, "invalid_request"),
        ({"element_id": "1", "selector": "#save"}, "invalid_request"),
        ({"full_page": True, "selector": "#save"}, "invalid_request"),
        ({"element_id": "save"}, "invalid_request"),
        ({"quality": 0}, "invalid_request"),
        ({"max_width": 10_000}, "invalid_request"),
        ({"marks": "yes"}, "invalid_request"),
        ({"timeout": 0}, "invalid_request"),
    ],
)
async def test_bad_requests_are_typed_errors(fixture_page: pagelens.Page, arguments: dict, code: str) -> None:
    with pytest.raises(pagelens.PagelensError) as caught:
        await pagelens.screenshot(fixture_page, **arguments)
    assert caught.value.code == code, caught.value


async def test_a_hidden_element_is_not_visible(fixture_page: pagelens.Page) -> None:
    with pytest.raises(pagelens.PagelensError) as caught:
        await pagelens.screenshot(fixture_page, selector="#ghost")
    assert caught.value.code == "not_visible"


# ---- select_dom_mode

SIMPLE = PageStats(interactive_count=12)
BUSY = PageStats(interactive_count=80)
GALLERY = PageStats(interactive_count=30, visual_count=8)
NO_SEMANTIC = PageStats(interactive_count=12, semantic_available=False)


@pytest.mark.parametrize(
    ("query", "stats", "mode"),
    [
        # 1: the full DOM only when the model asked for it
        ("click the gear icon", PageStats(full_dom_requested=True), "full"),
        # 2: visual words, positions, visual questions
        ("click the gear icon on the right", SIMPLE, "hybrid"),
        ("what's the price of the red item", SIMPLE, "hybrid"),
        ("open the first result", SIMPLE, "hybrid"),
        ("click the button next to the logo", SIMPLE, "hybrid"),
        ("which colour is the banner", NO_SEMANTIC, "hybrid"),
        ("click the blue button", SIMPLE, "hybrid"),
        ("change how the page looks", SIMPLE, "hybrid"),
        ("what does this chart show", SIMPLE, "hybrid"),
        ("click the Images tab", SIMPLE, "hybrid"),
        # 3: a complex page, and a query that names no plain action
        ("subscribe to the newsletter", BUSY, "hybrid"),
        ("add the kettle to my basket", GALLERY, "hybrid"),
        ("click subscribe", BUSY, "semantic"),
        ("type my email", GALLERY, "semantic"),
        # 4: the semantic view, by default
        ("click the Search button", SIMPLE, "semantic"),
        ("enter my email", SIMPLE, "semantic"),
        ("fill in the first name", SIMPLE, "semantic"),  # a form field, not a position
        ("log in", PageStats(interactive_count=30, visual_count=2), "semantic"),
        ("topics about laptops", SIMPLE, "semantic"),  # whole words only
        # 5: the skeleton when there is no semantic view
        ("click the Search button", NO_SEMANTIC, "skeleton"),
        ("submit the form", {"interactive_count": 3, "semantic_available": False}, "skeleton"),
    ],
)
def test_select_dom_mode_decision_table(query: str, stats: PageStats | dict, mode: str) -> None:
    assert select_dom_mode(query, stats) == mode


def test_select_dom_mode_rejects_bad_stats() -> None:
    with pytest.raises(pagelens.InvalidRequestError):
        select_dom_mode("click", {"interactive_count": -1})
    with pytest.raises(pagelens.InvalidRequestError):
        select_dom_mode("click", {"controls": 3})
    assert select_dom_mode("click save") == "semantic"  # no stats: a plain page


async def test_page_stats_feed_select_dom_mode(fixture_page: pagelens.Page) -> None:
    stats = await page_stats(fixture_page)
    assert stats.interactive_count >= 6 and stats.semantic_available and stats.visual_count == 0
    assert select_dom_mode("press Save", stats) == "semantic"


async def test_a_very_tall_page_is_cut_and_says_so(page: pagelens.Page, monkeypatch: pytest.MonkeyPatch) -> None:
    # A lower cut than the real 16,384 px: the same code path, a fraction of the pixels.
    monkeypatch.setattr(screenshot_module, "MAX_FULL_PAGE_SIDE", 2_000)
    await page.set_content("<body style='margin:0'><div style='height:5000px;background:#def'>tall</div></body>")
    shot = await pagelens.screenshot(page, full_page=True, max_width=256)
    assert shot.truncated and shot.width == 256 and shot.height == round(2_000 * 256 / 1280)
    # An element taller than the viewport is shot whole, painted beyond the viewport.
    tall = await pagelens.screenshot(page, selector="div", max_width=256)
    assert (tall.kind, tall.width, tall.height, tall.truncated) == ("element", 256, 1000, False)


def test_the_command_line_writes_the_jpeg_and_prints_its_facts(tmp_path: Path) -> None:
    out = tmp_path / "shot.jpg"
    command = ["screenshot", str(FIXTURES / "page.html"), "-o", str(out), "--marks"]
    done = subprocess.run(
        [sys.executable, "-m", "pagelens.cli.main", *command],
        capture_output=True,
        text=True,
        timeout=90,
    )
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout)
    assert (facts["kind"], facts["width"], facts["height"]) == ("viewport", 1024, 640)
    assert [mark["id"] for mark in facts["marks"]][:3] == ["1", "2", "3"]
    with Image.open(out) as image:
        assert (image.format, image.size) == ("JPEG", (1024, 640))


@pytest.mark.parametrize(
    ("arguments", "parameter"),
    [
        ({"what": "semantic", "marks": True}, "marks"),
        ({"what": "skeleton", "screenshot_hash": "abc"}, "screenshot_hash"),
        ({"what": "screenshot", "element_id": "3", "selector": "#save"}, "selector"),
        ({"what": "screenshot", "full_page": True, "element_id": "3"}, "full_page"),
        ({"what": "screenshot", "screenshot_hash": "f" * 300}, "screenshot_hash"),
        ({"what": "screenshot", "screenshot_hash": "zz"}, "screenshot_hash"),
        # The budget's parameters go with the views that are cut to it.
        ({"what": "screenshot", "query": "save"}, "query"),
        ({"what": "dom", "max_tokens": 100}, "max_tokens"),
        ({"what": "full", "page": 2}, "page"),
        ({"what": "tabs", "query": "x"}, "query"),
        # Types are not guessed at.
        ({"what": "interaction", "include_values": "yes"}, "include_values"),
        ({"what": "interaction", "max_iframe_depth": "2"}, "max_iframe_depth"),
    ],
)
def test_analyze_rejects_parameters_out_of_place(arguments: dict, parameter: str) -> None:
    with pytest.raises(InvalidParameterError) as caught:
        AnalyzeRequest.parse(arguments)
    assert caught.value.parameter == parameter


async def test_a_screenshot_over_2_mb_is_encoded_again_smaller(page: pagelens.Page, fixtures_url: str) -> None:
    # 1280×9000 CSS pixels of colour noise: at 1024 px wide and quality 70 its JPEG would
    # be well over 10 MB.
    await page.goto(f"{fixtures_url}vision/noise.html")
    shot = await pagelens.screenshot(page, full_page=True)
    assert shot.image is not None
    assert len(shot.image_base64 or "") <= MAX_IMAGE_BASE64
    assert shot.reduced and shot.quality == MIN_QUALITY
    assert shot.width < 1024 and shot.height == round(9000 * shot.width / 1280)
    assert shot.scale == round(shot.width / 1280, 4)
    image = decoded(shot)  # still a JPEG of the size it says
    corner = image.crop((0, 0, 32, 32)).tobytes()
    assert len({corner[i : i + 3] for i in range(0, len(corner), 3)}) > 500  # still the noise, not a blur
    # The reduced picture's hash answers `unchanged` like any other.
    again = await pagelens.screenshot(page, full_page=True, screenshot_hash=shot.hash)
    assert again.unchanged and again.image is None


def test_the_size_cap_lowers_the_quality_before_the_size() -> None:
    noise = Image.frombytes("RGB", (1024, 700), random.Random(7).randbytes(1024 * 700 * 3))
    buffer = io.BytesIO()
    noise.save(buffer, format="JPEG", quality=95)
    capture = buffer.getvalue()
    render_noise = functools.partial(
        render, capture, origin=(0, 0), nodes=[], marks=False, max_width=1024, known_hash=None
    )
    whole = render_noise(quality=70)
    assert whole.image is not None and (whole.quality, whole.reduced, whole.width) == (70, False, 1024)
    # A limit the quality-70 JPEG passes but a lower quality meets: same size, lower quality.
    limit = 4 * len(whole.image) // 3 - 1
    lower = render_noise(quality=70, max_base64=limit)
    assert lower.image is not None and 4 * math.ceil(len(lower.image) / 3) <= limit
    assert (lower.quality, lower.reduced, lower.width, lower.hash) == (MIN_QUALITY, True, 1024, whole.hash)
    # A limit no quality meets at this size: smaller, at the lowest quality.
    small = render_noise(quality=70, max_base64=limit // 8)
    assert small.image is not None and 4 * math.ceil(len(small.image) / 3) <= limit // 8
    assert small.quality == MIN_QUALITY and small.reduced and small.width < 1024
    assert small.height == round(700 * small.width / 1024)
