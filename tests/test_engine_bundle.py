"""The engine's bundles: committed builds of the sources, one entry object per world,
nothing of ours left on a page's globals, and the role table the engine and Python share."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import pagelens
from pagelens.actions import Session
from pagelens.engine import ENGINE
from pagelens.engine.roles import ROLE_WORDS, SHORT_ROLE
from tests.actions_helpers import go

pytest_plugins = ["tests.actions_support"]  # the `site` and `session` fixtures

ROOT = Path(__file__).resolve().parents[1]
BUNDLES = [ROOT / "src/pagelens/engine/engine.bundle.js", ROOT / "src/pagelens/extraction/prune.bundle.js"]


def build_tools() -> str:
    """node, with the engine's build tools installed (in CI they must be)."""
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules/esbuild").is_dir():
        missing = "node and the engine's build tools (`npm ci`)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{missing} are missing; scripts/setup.sh installs them")
        pytest.skip(f"{missing} are not installed here; `bash scripts/setup.sh` installs them")
    return node


def test_the_committed_bundles_are_built_from_the_sources(tmp_path: Path) -> None:
    node = build_tools()
    subprocess.run([node, "scripts/bundle.mjs", str(tmp_path)], cwd=ROOT, check=True, timeout=120)
    for bundle in BUNDLES:
        fresh = (tmp_path / bundle.name).read_text(encoding="utf-8")
        assert bundle.read_text(encoding="utf-8") == fresh, f"{bundle.name} is stale: run `npm run build`"


async def test_the_profiler_names_the_functions_and_lines_of_the_minified_engine(site: str) -> None:
    build_tools()
    from bench.profile import function_times, profile_view

    profile = await profile_view(f"{site}catalogue.html", "semantic", repeat=30, headed=False)
    _, total_ms, _ = function_times(profile)
    module = (ROOT / "src/pagelens/engine/js/capture.js").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(module, 1) if "export function captureWithScan(" in text)
    assert f"captureWithScan capture.js:{line}" in total_ms, sorted(total_ms)[:20]


def test_the_bundle_evaluates_to_the_entry_object_and_declares_no_global() -> None:
    source = ENGINE.source()
    body = source[source.index("(() => {") :]
    assert body.rstrip().endswith("})()"), "the bundle must be one expression, its value the entry object"


OWN_NAMES = "Object.getOwnPropertyNames(window).sort()"


async def test_a_main_world_summary_leaves_nothing_on_the_page(session: Session, site: str) -> None:
    await go(session, f"{site}results.html?q=owls")
    page = (await session.tabs.current(None)).playwright_page
    before = await page.evaluate(OWN_NAMES)
    stamped = await page.evaluate("document.querySelectorAll('[data-llm-id]').length")
    for _ in range(2):
        summary = (await session.analyze({"what": "page_summary", "world": "main"})).data
        assert summary["headings"][0] == "h1: Results"
        after = await page.evaluate(OWN_NAMES)
        assert after == before
        assert not [name for name in after if "pagelens" in name.lower()]
        assert await page.evaluate("document.querySelectorAll('[data-llm-id]').length") == stamped


async def test_a_tab_pagelens_did_not_open_gets_the_engine_on_demand(
    browser: pagelens.Browser, fixtures_url: str
) -> None:
    """A tab opened behind pagelens' back (a popup, the user's tab): each document gets the
    engine in the pagelens world at its first view, and the page's own world sees nothing
    of it."""
    page = pagelens.Page(await browser.context.new_page())
    try:
        for name, title in (("actions/search.html", "Find a book"), ("actions/book.html", "Book")):
            await page.playwright_page.goto(f"{fixtures_url}{name}")
            before = await page.playwright_page.evaluate(OWN_NAMES)
            assert (await page.summary()).title == title
            assert await page.playwright_page.evaluate(OWN_NAMES) == before
    finally:
        await page.close()


CONTROLS = """<main>
<button>Save</button> <a href="/x">Docs</a> <input aria-label=Name> <input type=search aria-label=Find>
<select aria-label=Size><option>S</option></select> <input type=checkbox aria-label=Agree>
<input type=radio aria-label=Yes> <input type=range aria-label=Volume> <input type=number aria-label=Count>
<input type=date aria-label=Day> <input type=color aria-label=Paint> <input type=file aria-label=Photo>
<div role=switch tabindex=0 aria-checked=false>Wifi</div> <div tabindex=0>Card</div>
</main>"""


async def test_the_semantic_view_abbreviates_roles_by_the_one_table(page: pagelens.Page) -> None:
    await page.set_content(CONTROLS)
    tree = await page.semantic_tree()
    shown = {node.r: node.n for node in tree.interactive_tree}
    assert set(shown) <= set(SHORT_ROLE), sorted(set(shown) - set(SHORT_ROLE))
    everyone = "btn link inp srch sel chk rad sld spin date color file sw click"
    assert set(everyone.split()) <= set(shown)
    assert {SHORT_ROLE[r] for r in ("btn", "file")} == {"button"}
    assert all(short in ROLE_WORDS for short in shown)  # the ranker has words for each
