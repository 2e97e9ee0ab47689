"""The store's typed errors; `code` is what callers match on."""

from __future__ import annotations

from pagelens.errors import ErrorCode, PagelensError


class StoreUnavailableError(PagelensError):
    """The database could not be reached or opened (the message names its URL, never its password)."""

    code = ErrorCode.STORE_UNAVAILABLE


class StoreError(PagelensError):
    """The database failed a read or a write."""

    code = ErrorCode.STORE_ERROR


class RecordNotFoundError(PagelensError):
    """No session, message or run has that id."""

    code = ErrorCode.RECORD_NOT_FOUND


class SkillNotFoundError(PagelensError):
    """No skill has that name."""

    code = ErrorCode.SKILL_NOT_FOUND


class SkillExistsError(PagelensError):
    """A skill already has that name."""

    code = ErrorCode.SKILL_EXISTS
