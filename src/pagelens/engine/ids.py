"""Element ids as every view gives them (docs/ids.md): digits stamped by the engine, and
for an element inside frames, the ids of the frame elements on the way down first:
"12.5" is element 5 in the document of frame element 12."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pagelens.errors import InvalidParameterError

_ELEMENT_ID = re.compile(r"^\d+(\.\d+)*$")


@dataclass(frozen=True)
class ElementId:
    """An element id: the frame elements' ids (outermost first) and the element's own."""

    frames: tuple[str, ...]
    local: str

    @classmethod
    def parse(cls, text: str, *, parameter: str = "element_id") -> ElementId:
        """ "12.30.5" → frames ("12", "30"), local "5"; anything else is an
        InvalidParameterError naming `parameter`."""
        if not isinstance(text, str) or not _ELEMENT_ID.match(text):
            raise InvalidParameterError(parameter, f'{text!r} is not an element id (digits, "12.5" in frames)')
        *frames, local = text.split(".")
        return cls(tuple(frames), local)

    @classmethod
    def frame(cls, text: str, *, parameter: str = "frame") -> tuple[str, ...]:
        """A frame element's id as the path of frame elements down to it ("12.30")."""
        parsed = cls.parse(text, parameter=parameter)
        return (*parsed.frames, parsed.local)

    def __str__(self) -> str:
        return ".".join((*self.frames, self.local))
