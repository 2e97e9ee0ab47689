"""From Chromium's capture to the image an agent gets: resized to at most `max_width`
pixels wide and MAX_SIDE high (aspect kept), marked, hashed and encoded as JPEG, within
the contract's 2 MB.

Everything here is CPU work on pixels: callers run `render` in a worker thread."""

from __future__ import annotations

import hashlib
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from PIL import Image

from pagelens.engine.models import SemanticNode
from pagelens.vision.marks import draw_marks, place_marks
from pagelens.vision.models import MAX_IMAGE_BASE64, MAX_SIDE, Mark

THUMBNAIL_SIZE = 64


@dataclass(frozen=True)
class Rendered:
    image: bytes | None  # None: the hash matched the one the caller has
    width: int
    height: int
    scale: float
    hash: str
    marks: list[Mark]
    quality: int  # the JPEG's
    reduced: bool  # made smaller than asked, to fit max_base64


# Over the size limit, the quality drops to this before the image shrinks: text still reads.
MIN_QUALITY = 35
MIN_WIDTH = 16
_SHRINK_MARGIN = 0.9  # a JPEG's size is not quite proportional to its pixels: aim a little under


def render(
    capture: bytes,
    *,
    origin: tuple[float, float],
    nodes: Sequence[SemanticNode],
    marks: bool,
    max_width: int,
    quality: int,
    known_hash: str | None,
    max_base64: int = MAX_IMAGE_BASE64,
) -> Rendered:
    """`capture` is an image taken at CSS scale (one pixel per CSS pixel) whose top-left
    corner lies at `origin` in the viewport. The hash is taken of the final pixels, marks
    included: equal hashes mean the caller would get the same picture.

    A JPEG whose base64 would pass `max_base64` characters is encoded again at
    MIN_QUALITY, then at smaller widths until it fits; each size is hashed as it is made,
    so a caller holding the hash of the reduced picture still gets `unchanged`."""
    with Image.open(io.BytesIO(capture)) as captured:
        original = captured.convert("RGB")
    fitting = width = _fitting_width(original, max_width)
    qualities = (quality, MIN_QUALITY) if quality > MIN_QUALITY else (quality,)
    while True:
        image, placed = _sized(original, width, origin=origin, nodes=nodes, marks=marks)
        scale = image.width / original.width
        digest = screen_hash(image)
        reduced = width < fitting
        shown = Rendered(None, image.width, image.height, scale, digest, placed, quality, reduced)
        if digest == known_hash:
            return shown
        for attempt in qualities:
            encoded = _jpeg(image, attempt)
            size = _base64_length(encoded)
            if size <= max_base64 or width == MIN_WIDTH:
                return replace(shown, image=encoded, quality=attempt, reduced=reduced or attempt != quality)
        qualities = (qualities[-1],)
        shrunk = int(width * math.sqrt(max_base64 / size) * _SHRINK_MARGIN)
        width = max(MIN_WIDTH, min(shrunk, width - 1))


def _fitting_width(original: Image.Image, max_width: int) -> int:
    """The width `original` is shown at: at most `max_width`, and narrow enough that its
    height (aspect kept) stays within MAX_SIDE (max_width itself is far below it)."""
    within_side = math.floor(original.width * MAX_SIDE / original.height)
    return max(1, min(original.width, max_width, within_side))


def _sized(
    original: Image.Image,
    width: int,
    *,
    origin: tuple[float, float],
    nodes: Sequence[SemanticNode],
    marks: bool,
) -> tuple[Image.Image, list[Mark]]:
    """`original` at `width` pixels wide (aspect kept), its marks drawn."""
    image = original
    if width != original.width:
        height = max(1, round(original.height * width / original.width))
        image = original.resize((width, height), Image.Resampling.BICUBIC)
    elif marks:
        image = original.copy()  # the marks of one size must not stay for the next
    placed = place_marks(nodes, origin=origin, scale=image.width / original.width, size=image.size) if marks else []
    draw_marks(image, placed)
    return image, placed


def _base64_length(data: bytes) -> int:
    return 4 * math.ceil(len(data) / 3)


def screen_hash(image: Image.Image) -> str:
    """32 hex digits: the 8×8 grey-level average hash (16 digits; the
    Hamming distance between two of them says how alike two screens look), then a digest
    of a 64×64 grey thumbnail and the size (16 digits). The average hash alone calls a
    screen unchanged when a checkbox got ticked or an error line appeared; the thumbnail
    does not, and Chromium draws an unchanged page to the same pixels every time."""
    import imagehash  # here, not at the top: it loads numpy (~0.3 s), which `import pagelens` should not wait for

    thumbnail = image.convert("L").resize((THUMBNAIL_SIZE, THUMBNAIL_SIZE), Image.Resampling.BOX)
    average = imagehash.average_hash(thumbnail, hash_size=8)  # from the thumbnail: the same 8×8, cheaper
    digest = hashlib.blake2b(thumbnail.tobytes(), digest_size=8)
    digest.update(f"{image.width}x{image.height}".encode())
    return f"{average}{digest.hexdigest()}"


def _jpeg(image: Image.Image, quality: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=quality)
    return buffer.getvalue()
