"""The skills' own typed error; not-found and name clashes come from the store
(`SkillNotFoundError`, `SkillExistsError`)."""

from __future__ import annotations

from pagelens.errors import ErrorCode, PagelensError


class InvalidSkillError(PagelensError):
    """A skill's name, description, patterns or library were refused; the message says why."""

    code = ErrorCode.INVALID_SKILL
