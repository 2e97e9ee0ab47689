"""`Skills`: the agent's skills kept in the store, seeded once with the defaults, and
`skill`, the tool function the agent calls."""

from __future__ import annotations

import builtins
import contextlib
import json
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

from pydantic import ValidationError

from pagelens.agent.skills.errors import InvalidSkillError
from pagelens.agent.skills.model import EditableField, Skill, SkillParams
from pagelens.agent.skills.patterns import matches
from pagelens.errors import InvalidParameterError
from pagelens.store import SkillRecord, Store

DEFAULT_SKILLS = "default-skills.json"


def default_skills() -> list[Skill]:
    """The skills a new database starts with (default-skills.json, next to this module)."""
    text = resources.files(__package__).joinpath(DEFAULT_SKILLS).read_text(encoding="utf-8")
    return [Skill.model_validate(entry) for entry in json.loads(text)]


def validated(fields: dict[str, Any]) -> Skill:
    """`fields` as a Skill, or InvalidSkillError naming the first field refused and why."""
    try:
        return Skill.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise InvalidSkillError(f"{where}: {first['msg'].removeprefix('Value error, ')}") from exc


class Skills:
    """The skills in `store`. The defaults are added on first use, once per database."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._seeded = False

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, url: str | None = None) -> AsyncIterator[Skills]:
        """The skills in the store at `url` (default: PAGELENS_DATABASE_URL, else the
        SQLite file in the user's data folder), closed when the block ends."""
        async with await Store.open(url) as store:
            yield cls(store)

    async def _ready(self) -> None:
        if not self._seeded:
            await self._store.skills.seed(default_skills())
            self._seeded = True

    async def list(self, url: str | None = None) -> list[SkillRecord]:
        """Every skill, or those with a pattern matching `url`."""
        await self._ready()
        skills = await self._store.skills.list()
        if url is None:
            return skills
        return [skill for skill in skills if any(matches(pattern, url) for pattern in skill.patterns)]

    async def libraries_for(self, url: str) -> builtins.list[str]:
        """The libraries to load before browserjs() runs on `url`."""
        return [skill.library for skill in await self.list(url) if skill.library]

    async def get(self, name: str) -> SkillRecord:
        await self._ready()
        return await self._store.skills.get(name)

    async def create(self, skill: Skill) -> SkillRecord:
        await self._ready()
        return await self._store.skills.create(skill)

    async def rewrite(self, name: str, changes: dict[str, Any]) -> SkillRecord:
        """Replace the fields of skill `name` given in `changes` (the others are kept);
        a new `name` among them renames it."""
        current = await self.get(name)
        return await self._store.skills.replace(name, validated({**_fields(current), **changes}))

    async def update(self, name: str, field: EditableField, old: str, new: str) -> SkillRecord:
        """Replace the one occurrence of `old` in the skill's `field` with `new`."""
        current = await self.get(name)
        text: str = getattr(current, field)
        count = text.count(old) if old else 0
        if count != 1:
            found = "does not occur" if count == 0 else f"occurs {count} times"
            raise InvalidParameterError(
                "old",
                f"{found} in the {field} of {name!r}; give text that occurs exactly once "
                "(include more of its surroundings), or rewrite the field",
            )
        return await self._store.skills.replace(name, validated({**_fields(current), field: text.replace(old, new)}))

    async def delete(self, name: str) -> None:
        await self._ready()
        await self._store.skills.delete(name)


async def skill(skills: Skills, params: SkillParams) -> dict[str, Any]:
    """The `skill` tool: one action on the agent's skills, a JSON-able result. Raises
    SkillNotFoundError, SkillExistsError, InvalidSkillError or InvalidParameterError."""
    # SkillParams has checked that the action's required parameters are there.
    name = params.name or ""
    match params.action:
        case "list":
            return {"skills": [_summary(record) for record in await skills.list(params.url)]}
        case "get":
            record = await skills.get(name)
            return {"skill": record.model_dump(mode="json", exclude=None if params.include_library else {"library"})}
        case "create":
            created = await skills.create(validated({**params.skill_fields(), "name": name}))
            return {"created": _summary(created)}
        case "rewrite":
            changes = params.skill_fields() | ({"name": params.new_name} if params.new_name else {})
            return {"rewritten": _summary(await skills.rewrite(name, changes))}
        case "update":
            updated = await skills.update(name, params.field, params.old or "", params.new or "")
            return {"updated": _summary(updated), "field": params.field}
        case "delete":
            await skills.delete(name)
            return {"deleted": name}


def _fields(record: SkillRecord) -> dict[str, Any]:
    return record.model_dump(include=set(Skill.model_fields))


def _summary(record: SkillRecord) -> dict[str, Any]:
    return record.model_dump(mode="json", include={"name", "description", "patterns"})
