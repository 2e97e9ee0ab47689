"""The engine's bundles: committed builds of the sources, one entry object per world, and
nothing of ours left on a page's globals."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from actions_helpers import go

from pagelens.actions import Session
from pagelens.engine import ENGINE

pytest_plugins = ["actions_support"]  # the `site` and `session` fixtures

ROOT = Path(__file__).resolve().parents[1]
BUNDLES = [ROOT / "src/pagelens/engine/engine.bundle.js", ROOT / "src/pagelens/extraction/prune.bundle.js"]


def test_the_committed_bundles_are_built_from_the_sources(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules/esbuild").is_dir():
        missing = "node and the engine's build tools (`npm ci`)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{missing} are missing; scripts/setup.sh installs them")
        pytest.skip(f"{missing} are not installed here; `bash scripts/setup.sh` installs them")
    subprocess.run([node, "scripts/bundle.mjs", str(tmp_path)], cwd=ROOT, check=True, timeout=120)
    for bundle in BUNDLES:
        fresh = (tmp_path / bundle.name).read_text(encoding="utf-8")
        assert bundle.read_text(encoding="utf-8") == fresh, f"{bundle.name} is stale: run `npm run build`"


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
