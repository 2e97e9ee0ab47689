"""From Chromium's capture to the image an agent gets: resized to at most `max_width`
pixels wide (aspect kept), marked, hashed and encoded as JPEG.

Everything here is CPU work on pixels: callers run `render` in a worker thread."""

from __future__ import annotations

import hashlib
import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from pagelens.engine.models import SemanticNode
from pagelens.vision.marks import draw_marks, place_marks
from pagelens.vision.models import Mark

THUMBNAIL_SIZE = 64


@dataclass(frozen=True)
class Rendered:
    image: bytes | None  # None: the hash matched the one the caller has
    width: int
    height: int
    scale: float
    hash: str
    marks: list[Mark]


def render(
    capture: bytes,
    *,
    origin: tuple[float, float],
    nodes: Sequence[SemanticNode],
    marks: bool,
    max_width: int,
    quality: int,
    known_hash: str | None,
) -> Rendered:
    """`capture` is an image taken at CSS scale (one pixel per CSS pixel) whose top-left
    corner lies at `origin` in the viewport. The hash is taken of the final pixels, marks
    included: equal hashes mean the caller would get the same picture."""
    with Image.open(io.BytesIO(capture)) as captured:
        image = captured.convert("RGB")
    css_width = image.width
    if image.width > max_width:
        height = max(1, round(image.height * max_width / image.width))
        image = image.resize((max_width, height), Image.Resampling.BICUBIC)
    scale = image.width / css_width
    placed = place_marks(nodes, origin=origin, scale=scale, size=image.size) if marks else []
    draw_marks(image, placed)
    digest = screen_hash(image)
    encoded = None if digest == known_hash else _jpeg(image, quality)
    return Rendered(image=encoded, width=image.width, height=image.height, scale=scale, hash=digest, marks=placed)


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
