"""`Skill`, a skill as the agent may save it (validated), and `SkillParams`, the tool's call."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator, model_validator

from pagelens.agent.skills.library import library_problem
from pagelens.agent.skills.patterns import normalize_pattern, pattern_problem
from pagelens.store import SkillFields

NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_NAME_CHARS = 64
MAX_DESCRIPTION_CHARS = 1_000
MAX_INSTRUCTIONS_CHARS = 20_000
MAX_PATTERNS = 20

Action = Literal["list", "get", "create", "rewrite", "update", "delete"]
EditableField = Literal["library", "description", "instructions"]


class Skill(SkillFields):
    """A skill: JavaScript helpers (`library`) and advice (`instructions`) for the pages its
    `patterns` match (see pagelens.agent.skills.patterns)."""

    name: str = Field(description="A slug: lower-case letters and digits in words joined by '-'.")
    description: str = Field(description="One or two sentences: what the skill helps with, on which site.")
    patterns: list[str] = Field(description="Where it applies, e.g. 'github.com/*/issues' or '**.wikipedia.org/**'.")
    library: str = Field("", description="JavaScript run inside browserjs() before the agent's code; no navigation.")
    instructions: str = Field("", description="Notes for the agent: how the site works, which helper to use when.")

    @field_validator("name")
    @classmethod
    def _slug(cls, name: str) -> str:
        if len(name) > MAX_NAME_CHARS or not NAME.fullmatch(name):
            raise ValueError(
                f"{name!r} is not a skill name: use lower-case letters and digits in words joined by '-' "
                f"(at most {MAX_NAME_CHARS} characters), e.g. 'github-issues'"
            )
        return name

    @field_validator("description")
    @classmethod
    def _described(cls, description: str) -> str:
        description = description.strip()
        if not description or len(description) > MAX_DESCRIPTION_CHARS:
            raise ValueError(f"the description must be 1 to {MAX_DESCRIPTION_CHARS:,} characters")
        return description

    @field_validator("patterns")
    @classmethod
    def _well_formed(cls, patterns: list[str]) -> list[str]:
        normal = list(dict.fromkeys(normalize_pattern(pattern) for pattern in patterns))
        if not 1 <= len(normal) <= MAX_PATTERNS:
            raise ValueError(f"a skill needs 1 to {MAX_PATTERNS} patterns, e.g. ['github.com/**']")
        for pattern in normal:
            problem = pattern_problem(pattern)
            if problem:
                raise ValueError(problem)
        return normal

    @field_validator("library")
    @classmethod
    def _runs_in_place(cls, library: str) -> str:
        problem = library_problem(library)
        if problem:
            raise ValueError(problem)
        return library

    @field_validator("instructions")
    @classmethod
    def _bounded(cls, instructions: str) -> str:
        if len(instructions) > MAX_INSTRUCTIONS_CHARS:
            raise ValueError(f"the instructions are limited to {MAX_INSTRUCTIONS_CHARS:,} characters")
        return instructions


class SkillParams(BaseModel):
    """One call of the `skill` tool. The fields an action reads are listed with it."""

    action: Action = Field(
        description=(
            "list [url]: the skills, or those whose patterns match url. "
            "get name [include_library]. "
            "create name description patterns [library instructions]. "
            "rewrite name [new_name description patterns library instructions]: replace whole fields, or rename. "
            "update name field old new: replace the one occurrence of old with new in a field. "
            "delete name."
        )
    )
    name: str | None = Field(None, description="The skill acted on (all actions but list).")
    url: str | None = Field(None, description="list: only the skills for this page.")
    include_library: bool = Field(False, description="get: include the library's code.")
    description: str | None = None
    patterns: list[str] | None = None
    library: str | None = None
    instructions: str | None = None
    new_name: str | None = Field(None, description="rewrite: the skill's new name.")
    field: EditableField = Field("library", description="update: the field the replacement is made in.")
    old: str | None = Field(None, description="update: the exact text to replace; it must occur exactly once.")
    new: str | None = Field(None, description="update: the text that replaces it.")

    def skill_fields(self) -> dict[str, Any]:
        """The skill's fields this call gives (name aside)."""
        given = self.model_dump(include={"description", "patterns", "library", "instructions"})
        return {field: value for field, value in given.items() if value is not None}

    @model_validator(mode="after")
    def _has_what_the_action_reads(self) -> SkillParams:
        needed = {
            "list": (),
            "get": ("name",),
            "create": ("name", "description", "patterns"),
            "rewrite": ("name",),
            "update": ("name", "old", "new"),
            "delete": ("name",),
        }[self.action]
        missing = [name for name in needed if getattr(self, name) is None]
        if missing:
            raise ValueError(f"{self.action} needs {', '.join(missing)}")
        return self
