"""Screenshots with Set-of-Marks as a vision agent reads them: every id label legible on a
dense toolbar of small icons, and marks where the controls are on a right-to-left page
that scrolls sideways, whose content reaches left of the root element.

Fixtures in tests/fixtures/vision_qa; the viewport is 1280×800."""

from __future__ import annotations

import io
from itertools import combinations

from PIL import Image

import pagelens
from pagelens.vision.marks import draw_marks, mark_colour, place_labels


def decoded(shot: pagelens.Screenshot) -> Image.Image:
    assert shot.image is not None
    return Image.open(io.BytesIO(shot.image)).convert("RGB")


def near(image: Image.Image, xy: tuple[int, int], colour: tuple[int, int, int], within: int = 90) -> bool:
    """The pixel at `xy` has about `colour` (JPEG blurs colours a little)."""
    bands = image.getpixel(xy)
    assert isinstance(bands, tuple)
    return sum(abs(p - q) for p, q in zip(bands, colour, strict=True)) < within


async def test_labels_on_a_dense_toolbar_of_small_icons_never_cover_each_other(
    page: pagelens.Page, fixtures_url: str
) -> None:
    # 40 icons of 18 px two pixels apart, and 10 of 12 px: at scale 0.8 an id label
    # ("41": some 17 px) is wider than its control, so labels side by side would overlap
    # and a "41" half covered by "42" reads as "4".
    await page.goto(f"{fixtures_url}vision_qa/toolbar.html")
    shot = await pagelens.screenshot(page, marks=True)
    assert shot.marks is not None and len(shot.marks) == 50
    labels = place_labels(shot.marks, (shot.width, shot.height))
    for (first, a), (second, b) in combinations(zip(shot.marks, labels, strict=True), 2):
        apart = a[0] + a[2] < b[0] or b[0] + b[2] < a[0] or a[1] + a[3] < b[1] or b[1] + b[3] < a[1]
        assert apart, (first.id, a, second.id, b)
    # The same marks drawn on a lossless canvas (the JPEG blurs a small label's colour
    # toward its neighbours'): each label is drawn where placed, whole, its four corners
    # its own colour.
    canvas = Image.new("RGB", (shot.width, shot.height))
    draw_marks(canvas, shot.marks)
    for mark, (x, y, w, h) in zip(shot.marks, labels, strict=True):
        corners = [(x, y), (x + w - 1, y), (x, y + h - 1), (x + w - 1, y + h - 1)]
        assert {canvas.getpixel(corner) for corner in corners} == {mark_colour(mark.id)}, (mark.id, x, y)
        # Beside its own control: touching or overlapping the box.
        bx, by, bw, bh = mark.box
        assert x <= bx + bw and bx <= x + w and y <= by + bh and by <= y + h, (mark, (x, y, w, h))


async def test_a_right_to_left_full_page_marks_the_controls_where_the_image_shows_them(
    page: pagelens.Page, fixtures_url: str
) -> None:
    # 2000 px of content in a 1280 px viewport, scrolled to its start (the right): the
    # content reaches 720 px left of the viewport, where scrollX is 0.
    await page.goto(f"{fixtures_url}vision_qa/rtl.html")
    plain = decoded(await pagelens.screenshot(page, full_page=True))
    shot = await pagelens.screenshot(page, full_page=True, marks=True)
    assert shot.origin == (-720, 0) and (shot.width, shot.scale) == (1024, 0.512)
    assert shot.marks is not None and len(shot.marks) == 2  # the far-left one too
    red = (204, 0, 0)
    for mark in shot.marks:
        x, y, w, h = mark.box
        assert near(plain, (x + 3, y + 3), red), mark  # on the button the image shows (off its text)
        # xy, a viewport point, maps onto it by origin and scale (a little left of centre: off its text)
        left = round((mark.xy[0] - 25 - shot.origin[0]) * shot.scale)
        top = round((mark.xy[1] - shot.origin[1]) * shot.scale)
        assert near(plain, (left, top), red), mark

    # An element wider than the viewport is painted beyond it, from its own left edge.
    wide = decoded(await pagelens.screenshot(page, selector="#wide", max_width=1000))
    assert wide.size == (1000, 50)
    assert near(wide, (12, 12), red) and near(wide, (962, 12), red)  # #end 20 px from the left, #start from the right
