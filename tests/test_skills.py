"""The `skill` tool over SQLite and PostgreSQL: every action, the patterns, validation,
and the defaults seeded once."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from pagelens.agent.skills import InvalidSkillError, SkillParams, Skills, default_skills, matches, skill
from pagelens.errors import ErrorCode, InvalidParameterError
from pagelens.store import SkillExistsError, SkillNotFoundError, Store

pytest_plugins = ["tests.store_support"]

DEFAULT_NAMES = {"github", "wikipedia", "hacker-news", "stack-overflow"}
ISSUES = {
    "name": "github-issues",
    "description": "Helpers for GitHub issue lists.",
    "patterns": ["github.com/*/*/issues", "github.com/*/*/issues/**"],
    "library": "function openIssues() {\n  return document.querySelectorAll('.issue').length;\n}\n",
    "instructions": "Call openIssues() first.",
}


@pytest.fixture
async def skills(store: Store) -> Skills:
    return Skills(store)


async def call(skills: Skills, **params: Any) -> dict[str, Any]:
    return await skill(skills, SkillParams(**params))


# Patterns


@pytest.mark.parametrize(
    ("pattern", "url", "expected"),
    [
        ("github.com/*/issues", "https://github.com/pagelens/issues", True),
        ("github.com/*/issues", "https://github.com/pagelens/pagelens/issues", False),
        ("github.com/*/issues", "https://github.com/issues", False),
        ("github.com/*/*/issues/**", "https://github.com/a/b/issues", True),
        ("github.com/*/*/issues/**", "https://github.com/a/b/issues/12/comments", True),
        ("github.com/**", "https://github.com/", True),
        ("github.com/**", "https://github.com/a/b/c/d", True),
        ("github.com/**", "https://gist.github.com/a", False),
        ("github.com/**", "https://notgithub.com/a", False),
        ("github.com/a/**/z", "https://github.com/a/z", True),
        ("github.com/a/**/z", "https://github.com/a/b/c/z", True),
        ("github.com/a/**/z", "https://github.com/a/b/c/y", False),
        ("github.com/issue-*", "https://github.com/issue-42", True),
        ("github.com/issue-*", "https://github.com/pr-42", False),
        # Hosts: `*` is one label, `**` any number of them, none included.
        ("*.github.com/**", "https://gist.github.com/x", True),
        ("*.github.com/**", "https://github.com/x", False),
        ("*.github.com/**", "https://a.b.github.com/x", False),
        ("**.wikipedia.org/wiki/**", "https://wikipedia.org/wiki/Python", True),
        ("**.wikipedia.org/wiki/**", "https://en.m.wikipedia.org/wiki/Python", True),
        ("**.wikipedia.org/wiki/**", "https://en.wikipedia.org/w/index.php", False),
        ("**.wikipedia.org/wiki/**", "https://wikipedia.org.evil.com/wiki/x", False),
        ("**/**", "http://localhost:8000/anything/at/all", True),
        # Case, www, port, query, fragment and trailing slashes do not matter.
        ("github.com/*/issues", "HTTPS://GitHub.COM/Foo/Issues", True),
        ("GitHub.com/Foo/Issues", "https://github.com/foo/issues", True),
        ("github.com/*/issues", "https://www.github.com:443/foo/issues/?q=is%3Aopen#top", True),
        ("www.github.com/*/issues", "https://github.com/foo/issues", True),
        ("github.com/*/issues/", "github.com/foo/issues", True),
        ("news.ycombinator.com/item", "https://news.ycombinator.com/item?id=1", True),
        ("news.ycombinator.com", "https://news.ycombinator.com/", True),
        ("news.ycombinator.com", "https://news.ycombinator.com/news", False),
    ],
)
def test_patterns_match_host_and_path(pattern: str, url: str, expected: bool) -> None:
    assert matches(pattern, url) is expected


@pytest.mark.parametrize(
    "pattern",
    [
        "https://github.com/**",
        "github.com/*?tab=issues",
        "github.com:443/**",
        "github..com/**",
        "git hub.com",
        "github.com//issues",
        "github.com/a**/b",
        "***.github.com",
        "   ",
    ],
)
async def test_malformed_patterns_are_refused(skills: Skills, pattern: str) -> None:
    with pytest.raises(InvalidSkillError) as caught:
        await call(skills, action="create", **{**ISSUES, "patterns": [pattern]})
    assert caught.value.code == ErrorCode.INVALID_SKILL
    assert "patterns" in caught.value.message


# Actions


async def test_create_then_get_with_and_without_the_library(skills: Skills) -> None:
    created = await call(skills, action="create", **ISSUES)
    assert created == {"created": {k: ISSUES[k] for k in ("name", "description", "patterns")}}

    brief = (await call(skills, action="get", name="github-issues"))["skill"]
    assert "library" not in brief and brief["instructions"] == ISSUES["instructions"]
    full = (await call(skills, action="get", name="github-issues", include_library=True))["skill"]
    assert {k: full[k] for k in ISSUES} == ISSUES and {"created_at", "updated_at"} <= set(full)


async def test_create_refuses_a_taken_name(skills: Skills) -> None:
    await call(skills, action="create", **ISSUES)
    with pytest.raises(SkillExistsError) as caught:
        await call(skills, action="create", **{**ISSUES, "description": "another"})
    assert caught.value.code == ErrorCode.SKILL_EXISTS
    assert (await skills.get("github-issues")).description == ISSUES["description"]


async def test_list_all_or_those_for_a_url(skills: Skills) -> None:
    await call(skills, action="create", **ISSUES)
    everything = {s["name"] for s in (await call(skills, action="list"))["skills"]}
    assert everything == DEFAULT_NAMES | {"github-issues"}

    on_issues = (await call(skills, action="list", url="https://github.com/a/b/issues?q=bug"))["skills"]
    assert [s["name"] for s in on_issues] == ["github", "github-issues"]
    assert set(on_issues[0]) == {"name", "description", "patterns"}  # the library stays out of lists
    on_wiki = await call(skills, action="list", url="https://de.wikipedia.org/wiki/Berlin")
    assert [s["name"] for s in on_wiki["skills"]] == ["wikipedia"]
    assert await call(skills, action="list", url="https://example.com/") == {"skills": []}


async def test_libraries_for_a_url(skills: Skills) -> None:
    await call(skills, action="create", **{**ISSUES, "library": ""})
    libraries = await skills.libraries_for("https://github.com/a/b/issues")
    assert len(libraries) == 1 and "function githubRepo()" in libraries[0]  # the empty library is left out


async def test_rewrite_replaces_given_fields_and_keeps_the_rest(skills: Skills) -> None:
    await call(skills, action="create", **ISSUES)
    result = await call(skills, action="rewrite", name="github-issues", library="function n() { return 1; }")
    assert result["rewritten"]["name"] == "github-issues"
    record = await skills.get("github-issues")
    assert (record.library, record.description, record.instructions) == (
        "function n() { return 1; }",
        ISSUES["description"],
        ISSUES["instructions"],
    )
    assert record.updated_at > record.created_at


async def test_rewrite_renames(skills: Skills) -> None:
    await call(skills, action="create", **ISSUES)
    result = await call(
        skills, action="rewrite", name="github-issues", new_name="gh-issues", patterns=["github.com/**"]
    )
    assert result["rewritten"] == {
        "name": "gh-issues",
        "description": ISSUES["description"],
        "patterns": ["github.com/**"],
    }
    with pytest.raises(SkillNotFoundError):
        await skills.get("github-issues")
    assert (await skills.get("gh-issues")).library == ISSUES["library"]


async def test_rewrite_cannot_take_another_skills_name(skills: Skills) -> None:
    await call(skills, action="create", **ISSUES)
    with pytest.raises(SkillExistsError):
        await call(skills, action="rewrite", name="github-issues", new_name="github")
    assert (await skills.get("github-issues")).name == "github-issues"


async def test_update_replaces_the_one_occurrence(skills: Skills) -> None:
    await call(skills, action="create", **ISSUES)
    result = await call(skills, action="update", name="github-issues", old="'.issue'", new="'[data-issue]'")
    assert result == {"updated": {k: ISSUES[k] for k in ("name", "description", "patterns")}, "field": "library"}
    assert "document.querySelectorAll('[data-issue]')" in (await skills.get("github-issues")).library

    await call(skills, action="update", name="github-issues", field="instructions", old="first", new="before all")
    await call(skills, action="update", name="github-issues", field="description", old="GitHub ", new="")
    record = await skills.get("github-issues")
    assert (record.instructions, record.description) == ("Call openIssues() before all.", "Helpers for issue lists.")


@pytest.mark.parametrize(("old", "found"), [("nowhere", "does not occur"), ("(", "occurs 2 times"), ("", "does not")])
async def test_update_needs_exactly_one_occurrence(skills: Skills, old: str, found: str) -> None:
    await call(skills, action="create", **ISSUES)
    with pytest.raises(InvalidParameterError) as caught:
        await call(skills, action="update", name="github-issues", old=old, new="x")
    assert caught.value.code == ErrorCode.INVALID_REQUEST and caught.value.parameter == "old"
    assert found in caught.value.message
    assert (await skills.get("github-issues")).library == ISSUES["library"]


async def test_update_cannot_introduce_navigation(skills: Skills) -> None:
    await call(skills, action="create", **ISSUES)
    with pytest.raises(InvalidSkillError):
        await call(skills, action="update", name="github-issues", old="return ", new="location.href = '/x'; return ")
    assert (await skills.get("github-issues")).library == ISSUES["library"]


async def test_delete(skills: Skills) -> None:
    await call(skills, action="create", **ISSUES)
    assert await call(skills, action="delete", name="github-issues") == {"deleted": "github-issues"}
    with pytest.raises(SkillNotFoundError) as caught:
        await call(skills, action="get", name="github-issues")
    assert caught.value.code == ErrorCode.SKILL_NOT_FOUND


@pytest.mark.parametrize(
    "params",
    [
        {"action": "get", "name": "missing"},
        {"action": "delete", "name": "missing"},
        {"action": "rewrite", "name": "missing", "description": "x"},
        {"action": "update", "name": "missing", "old": "a", "new": "b"},
    ],
)
async def test_actions_on_a_missing_skill(skills: Skills, params: dict[str, Any]) -> None:
    with pytest.raises(SkillNotFoundError, match="'missing'"):
        await call(skills, **params)


@pytest.mark.parametrize(
    ("params", "missing"),
    [
        ({"action": "get"}, "name"),
        ({"action": "create", "name": "x", "description": "d"}, "patterns"),
        ({"action": "update", "name": "x", "old": "a"}, "new"),
        ({"action": "delete"}, "name"),
    ],
)
def test_params_name_what_the_action_needs(params: dict[str, Any], missing: str) -> None:
    with pytest.raises(ValidationError, match=f"needs .*{missing}"):
        SkillParams(**params)


def test_params_refuse_unknown_actions() -> None:
    with pytest.raises(ValidationError):
        SkillParams(action="rename", name="x")


# Validation


@pytest.mark.parametrize("name", ["GitHub", "git hub", "-github", "github-", "git--hub", "git_hub", "", "a" * 65])
async def test_invalid_names_are_refused(skills: Skills, name: str) -> None:
    with pytest.raises(InvalidSkillError, match="name"):
        await call(skills, action="create", **{**ISSUES, "name": name})


@pytest.mark.parametrize(
    "library",
    [
        "location.href = 'https://example.com'",
        "window.location = url;",
        "document.location.assign(url)",
        "function go() {\n  location.replace(next);\n}",
        "history.pushState({}, '', '/next')",
        "window.open('https://example.com')",
    ],
)
async def test_navigating_libraries_are_refused(skills: Skills, library: str) -> None:
    with pytest.raises(InvalidSkillError, match="must not navigate") as caught:
        await call(skills, action="create", **{**ISSUES, "library": library})
    assert "navigate()" in caught.value.message


@pytest.mark.parametrize(
    "library",
    [
        "const here = location.href;",
        "if (location.href === start) { done(); }",
        "item.location = 'Berlin';",
        "const path = document.location.pathname;",
    ],
)
async def test_reading_the_location_is_allowed(skills: Skills, library: str) -> None:
    await call(skills, action="create", **{**ISSUES, "library": library})
    assert (await skills.get("github-issues")).library == library


async def test_the_library_size_is_capped(skills: Skills) -> None:
    with pytest.raises(InvalidSkillError, match="limit is 100,000"):
        await call(skills, action="create", **{**ISSUES, "library": "// " + "x" * 100_000})


@pytest.mark.parametrize(
    ("field", "value", "complaint"),
    [
        ("description", "  ", "description"),
        ("patterns", [], "patterns"),
        ("instructions", "x" * 20_001, "instructions"),
    ],
)
async def test_other_fields_are_checked(skills: Skills, field: str, value: Any, complaint: str) -> None:
    with pytest.raises(InvalidSkillError, match=complaint):
        await call(skills, action="create", **{**ISSUES, field: value})


async def test_patterns_are_stored_normalized(skills: Skills) -> None:
    patterns = ["WWW.GitHub.com/*/issues/", "github.com/*/issues"]
    await call(skills, action="create", **{**ISSUES, "patterns": patterns})
    assert (await skills.get("github-issues")).patterns == ["github.com/*/issues"]


# The defaults


async def test_the_defaults_are_seeded_once(store: Store) -> None:
    first = Skills(store)
    assert {s.name for s in await first.list()} == DEFAULT_NAMES
    await first.delete("github")
    await first.update("wikipedia", "description", "Read Wikipedia", "Skim Wikipedia")

    later = Skills(store)  # another process, or the next start
    assert {s.name for s in await later.list()} == DEFAULT_NAMES - {"github"}
    assert (await later.get("wikipedia")).description.startswith("Skim Wikipedia")
    assert await store.skills.seed(default_skills()) is False


async def test_seeding_keeps_a_users_skill_of_the_same_name(store: Store) -> None:
    mine = {**ISSUES, "name": "github", "patterns": ["github.com/mine/**"]}
    await store.skills.create(default_skills()[0].model_copy(update=mine))
    await Skills(store).list()
    assert (await store.skills.get("github")).patterns == ["github.com/mine/**"]


async def test_seeding_survives_reopening(database_url: str) -> None:
    async with await Store.open(database_url) as store:
        await Skills(store).delete("hacker-news")
    async with await Store.open(database_url) as store:
        assert "hacker-news" not in {s.name for s in await Skills(store).list()}


def test_the_default_skills_are_valid_and_distinct() -> None:
    defaults = default_skills()
    assert {s.name for s in defaults} == DEFAULT_NAMES
    assert all(s.library and s.instructions for s in defaults)
    assert matches(defaults[0].patterns[0], "https://github.com/python/cpython/issues")
