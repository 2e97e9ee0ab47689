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
    """Outline every mark's box, then label each with its id: above the box's top-left
    corner where there is room (the control's own text stays readable), else inside it.
    Labels go on last so that no outline crosses one."""
    draw = ImageDraw.Draw(image)
    for mark in marks:
        x, y, w, h = mark.box
        draw.rectangle((x, y, x + w - 1, y + h - 1), outline=mark_colour(mark.id), width=LINE_WIDTH)
    font = _font()
    for mark in marks:
        x, y, _, _ = mark.box
        left, top, right, bottom = draw.textbbox((0, 0), mark.id, font=font)
        label_width = right - left + 2 * LABEL_PADDING
        label_height = bottom - top + 2 * LABEL_PADDING
        label_x = max(0, min(x, image.width - label_width))
        label_y = y - label_height if y >= label_height else y
        draw.rectangle(
            (label_x, label_y, label_x + label_width - 1, label_y + label_height - 1), fill=mark_colour(mark.id)
        )
        draw.text((label_x + LABEL_PADDING - left, label_y + LABEL_PADDING - top), mark.id, fill="white", font=font)


def mark_colour(element_id: str) -> tuple[int, int, int]:
    """The same id always gets the same colour, from one screenshot to the next."""
    return PALETTE[int(element_id.rsplit(".", 1)[-1]) % len(PALETTE)]


@functools.cache
def _font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=FONT_SIZE)
