"""The typed contracts of the vision package: what a screenshot request may ask for and
what comes back."""

from __future__ import annotations

import base64
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_serializer, model_validator

from pagelens.errors import InvalidRequestError

ScreenshotKind = Literal["viewport", "full_page", "element"]

MAX_WIDTH = 1024  # what vision models take without shrinking
# The longest side clients take: Claude refuses an image over 8000 pixels on a side, so a
# taller capture (a long full page) is scaled down to it (imaging.py).
MAX_SIDE = 8000
JPEG_QUALITY = 70  # small, and text still reads
# The contract's 2 MB for a screenshot, counted as it travels: base64 characters. A JPEG
# that would pass it is encoded again at a lower quality, then smaller (imaging.py).
MAX_IMAGE_BASE64 = 2 * 1024 * 1024


# A screenshot's `hash` (imaging.screen_hash): 32 hex digits.
SCREEN_HASH_PATTERN = r"^[0-9a-f]{32}$"


class ScreenshotRequest(BaseModel):
    """What to shoot and how. Strict like CaptureRequest: no "yes" for true, no 2.5 for
    a width; at most one of element_id and selector, and neither with full_page."""

    model_config = ConfigDict(extra="forbid", strict=True)

    full_page: bool = False
    element_id: str | None = Field(None, pattern=r"^\d+(\.\d+)*$")
    selector: str | None = Field(None, min_length=1)
    marks: bool = False
    screenshot_hash: str | None = Field(None, pattern=SCREEN_HASH_PATTERN)
    max_width: int = Field(MAX_WIDTH, ge=16, le=4096)
    quality: int = Field(JPEG_QUALITY, ge=1, le=95)

    @model_validator(mode="after")
    def _one_subject(self) -> ScreenshotRequest:
        if self.element_id is not None and self.selector is not None:
            raise ValueError("give element_id or selector, not both")
        if self.full_page and self.kind == "element":
            raise ValueError("full_page shoots the whole page; an element shot takes element_id or selector alone")
        return self

    @property
    def kind(self) -> ScreenshotKind:
        if self.element_id is not None or self.selector is not None:
            return "element"
        return "full_page" if self.full_page else "viewport"

    @classmethod
    def parse(cls, **values: object) -> ScreenshotRequest:
        """The validated request; a bad value raises InvalidRequestError naming it."""
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'request'}: {e['msg'].removeprefix('Value error, ')}"
                for e in exc.errors()
            )
            raise InvalidRequestError(f"invalid screenshot request: {problems}") from exc


class Mark(BaseModel):
    """One Set-of-Marks label: the control's id in the semantic view (`i`), its role and
    name, where its box is drawn in the image (pixels: [x, y, w, h]) and its centre in
    the viewport (CSS pixels, the semantic view's `xy`)."""

    id: str
    role: str
    name: str
    box: tuple[int, int, int, int]
    xy: tuple[int, int]


class Screenshot(BaseModel):
    """A screenshot for an agent.

    `image` is the JPEG (standard base64 in JSON), or None when `unchanged`: the screen
    hashes the same as the `screenshot_hash` the caller already has. `hash` is always
    given: 16 hex digits of the 8×8 grey-level average hash and 16 of a digest
    of a 64×64 grey thumbnail, so equal hashes mean the image would show nothing new.
    `scale` is image pixels per CSS pixel; `origin` is where the image's top-left corner
    lies in the viewport (CSS pixels: negative for a scrolled full page)."""

    url: str
    kind: ScreenshotKind
    mime_type: Literal["image/jpeg"] = "image/jpeg"
    width: int
    height: int
    scale: float
    origin: tuple[int, int] = (0, 0)
    hash: str
    unchanged: bool = False
    image: bytes | None = None
    element_id: str | None = None
    truncated: bool = False  # a full page larger than the capture limits was cut
    quality: int = JPEG_QUALITY  # the JPEG quality the image was encoded at
    reduced: bool = False  # encoded at a lower quality, or smaller, to stay within MAX_IMAGE_BASE64
    marks: list[Mark] | None = None

    @property
    def image_base64(self) -> str | None:
        return base64.b64encode(self.image).decode("ascii") if self.image is not None else None

    @field_serializer("image", when_used="json")
    def _standard_base64(self, image: bytes | None) -> str | None:
        # Standard base64, what data: URLs and MCP image blocks carry (pydantic's own
        # bytes-as-base64 is the URL-safe alphabet).
        return base64.b64encode(image).decode("ascii") if image is not None else None
