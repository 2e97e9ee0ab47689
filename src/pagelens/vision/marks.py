"""Set-of-Marks (our addition): each visible control's box outlined on the
screenshot and labelled with its stable id, the very id the semantic view gives it, so a
vision model can name what it sees by an id that interact accepts."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from PIL import Image, ImageDraw, ImageFont

from pagelens.engine.models import SemanticNode
from pagelens.vision.models import Mark

# Saturated colours that white text reads well on; neighbours in document order (and so
# in id order) get different ones.
PALETTE: tuple[tuple[int, int, int], ...] = (
    (220, 20, 60),
    (0, 110, 200),
    (30, 140, 50),
    (200, 90, 0),
    (140, 30, 170),
    (0, 120, 120),
    (180, 0, 120),
    (150, 75, 0),
)
LINE_WIDTH = 2
FONT_SIZE = 12
LABEL_PADDING = 2


def place_marks(
    nodes: Iterable[SemanticNode],
    *,
    origin: tuple[float, float],
    scale: float,
    size: tuple[int, int],
) -> list[Mark]:
    """The nodes that show in an image whose top-left corner is at `origin` in the
    viewport (CSS pixels) and which has `scale` image pixels per CSS pixel, each with its
    box in image pixels, clipped to the image. A node covered by something else (`occ`)
    gets no mark: it would be drawn on whatever covers it."""
    width, height = size
    marks = []
    for node in nodes:
        if node.box is None or node.occ:
            continue
        x, y, w, h = node.box
        left = max(0, round((x - origin[0]) * scale))
        top = max(0, round((y - origin[1]) * scale))
        right = min(width, round((x + w - origin[0]) * scale))
        bottom = min(height, round((y + h - origin[1]) * scale))
        if right - left < 1 or bottom - top < 1:
            continue
        marks.append(Mark(id=node.i, role=node.r, name=node.n, box=(left, top, right - left, bottom - top), xy=node.xy))
    return marks


def draw_marks(image: Image.Image, marks: list[Mark]) -> None:
    """Outline every mark's box, then label each with its id where `place_labels` puts
    it. Labels go on last so that no outline crosses one."""
    draw = ImageDraw.Draw(image)
    for mark in marks:
        x, y, w, h = mark.box
        draw.rectangle((x, y, x + w - 1, y + h - 1), outline=mark_colour(mark.id), width=LINE_WIDTH)
    font = _font()
    for mark, (label_x, label_y, label_width, label_height) in zip(marks, place_labels(marks, image.size), strict=True):
        left, top, _, _ = draw.textbbox((0, 0), mark.id, font=font)
        draw.rectangle(
            (label_x, label_y, label_x + label_width - 1, label_y + label_height - 1), fill=mark_colour(mark.id)
        )
        draw.text((label_x + LABEL_PADDING - left, label_y + LABEL_PADDING - top), mark.id, fill="white", font=font)


Rect = tuple[int, int, int, int]  # x, y, width, height


def place_labels(marks: list[Mark], size: tuple[int, int]) -> list[Rect]:
    """Where each mark's id label goes, in the image: by the box's top-left corner, above
    it where there is room (the control's own text stays readable), else below, inside,
    then by its right edge; the first of these that no earlier label takes (one pixel
    apart, so two labels never read as one number), else the least taken. On a dense
    toolbar of small icons the labels then alternate above and below instead of covering
    each other's digits (a "41" half hidden reads as "4", another control's id)."""
    image_width, image_height = size
    font = _font()
    placed: list[Rect] = []
    for mark in marks:
        x, y, w, h = mark.box
        left, top, right, bottom = font.getbbox(mark.id)
        label_width = int(right - left) + 2 * LABEL_PADDING
        label_height = int(bottom - top) + 2 * LABEL_PADDING
        spots = [
            (x, y - label_height),
            (x, y + h),
            (x, y),
            (x + w - label_width, y - label_height),
            (x + w - label_width, y + h),
            (x + w, y),
        ]
        clamped = [
            (
                max(0, min(spot_x, image_width - label_width)),
                max(0, min(spot_y, image_height - label_height)),
                label_width,
                label_height,
            )
            for spot_x, spot_y in spots
        ]
        # min keeps the first of equals: the preferred free spot when there is one
        placed.append(min(clamped, key=lambda spot: sum(_overlap(spot, other) for other in placed)))
    return placed


def _overlap(a: Rect, b: Rect) -> int:
    """The area two rectangles share once `a` is grown by one pixel on every side."""
    width = min(a[0] + a[2] + 1, b[0] + b[2]) - max(a[0] - 1, b[0])
    height = min(a[1] + a[3] + 1, b[1] + b[3]) - max(a[1] - 1, b[1])
    return max(0, width) * max(0, height)


def mark_colour(element_id: str) -> tuple[int, int, int]:
    """The same id always gets the same colour, from one screenshot to the next."""
    return PALETTE[int(element_id.rsplit(".", 1)[-1]) % len(PALETTE)]


@functools.cache
def _font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=FONT_SIZE)
