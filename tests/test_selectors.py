"""Every emitted selector matches exactly its own element (002): the interaction view's
`selector` (and `aimap`) and the compact summary's `primary_actions[].selector`.

A CSS selector is checked in the page's main world, across the document and every open
shadow root (the scope Playwright's CSS engine pierces): it must match one element, and
that element must carry the control's data-llm-id. A `text=` selector is resolved by the
action layer against accessible names, so exactly one control of its frame may bear that
name. Checked on the whole corpus and on fixtures with shadow DOM and quirks mode.

The interaction view's selectors must also hold in a fresh load where pagelens never ran
(docs/ids.md): bench/selectors.py resolves them in a second browser context, here on a
few corpus pages with repeated menu items and links.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from dataclasses import dataclass, field

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

import pagelens
from bench.corpus import answer_https_from_disk, corpus_pages
from bench.selectors import load_frozen, skip_slow_resources, sweep_page

WORKERS = 4
CAPTURE_LIMIT_S = 60.0
_ICON_GLYPHS = re.compile("[\ue000-\uf8ff]")

# [[id or null, selector]] -> for each: null when it matches exactly the element stamped
# `id` (any single element when id is null), else what went wrong. Also reports each
# single match's id and tag.
_CHECK_JS = """(items) => {
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return items.map(([id, selector]) => {
    let count = 0, first = null;
    try {
      for (const root of roots) {
        const found = root.querySelectorAll(selector);
        count += found.length;
        if (!first && found.length) first = found[0];
      }
    } catch (e) {
      return { problem: `invalid: ${e.message}` };
    }
    if (count !== 1) return { problem: `matches ${count} elements` };
    const got = first.getAttribute('data-llm-id');
    if (id !== null && got !== id) return { problem: `matches element ${got}` };
    return { problem: null, id: got, tag: first.localName };
  });
}"""


@dataclass
class Tally:
    checked: int = 0
    actions: int = 0  # of which primary actions
    failures: list[str] = field(default_factory=list)
    unnamed: list[str] = field(default_factory=list)  # controls without a selector

    def add(self, other: Tally) -> None:
        self.checked += other.checked
        self.actions += other.actions
        self.failures += other.failures
        self.unnamed += other.unnamed


def _fold(text: str) -> str:
    return " ".join(text.split()).lower()


def _label_matches(label: str, name: str) -> bool:
    """A summary label is the control's name without icon-font glyphs (the Unicode
    private use area), cut to 40 characters (the views cut names to 50 or 160), with an
    ellipsis when cut."""
    name = " ".join(_ICON_GLYPHS.sub("", name).split())
    if label.endswith("\u2026"):
        return name.startswith(label[:-1].rstrip())
    return label == name


async def _frame_prefix(frame: Frame, main: Frame, memo: dict[Frame, str | None]) -> str | None:
    """The id prefix of a frame's controls ("12." for the frame element 12), or None
    when the frame's owner was not captured."""
    if frame == main:
        return ""
    if frame in memo:
        return memo[frame]
    memo[frame] = None
    parent = frame.parent_frame
    owner = await frame.frame_element()
    owner_id = await owner.get_attribute("data-llm-id")
    parent_prefix = await _frame_prefix(parent, main, memo) if parent else None
    if owner_id is not None and parent_prefix is not None:
        memo[frame] = f"{parent_prefix}{owner_id}."
    return memo[frame]


async def _check(frame: Frame, items: list[list[str | None]]) -> list[dict]:
    return await frame.evaluate(_CHECK_JS, items) if items else []


async def check_page(page: pagelens.Page, where: str) -> Tally:
    tally = Tally()
    # Generous limits: this checks what the selectors say, not how fast they come.
    model = await page.interaction_model(timeout=CAPTURE_LIMIT_S)
    compact = await page.summary("compact", timeout=CAPTURE_LIMIT_S)
    pw = page.playwright_page

    # The interaction view, frame by frame (an id "12.5" is control 5 of frame element 12).
    assert model.aimap == {c.id: c.selector for c in model.controls if c.selector is not None}, where
    by_prefix: dict[str, list] = {}
    for control in model.controls:
        assert control.selector is None or "data-llm-id" not in control.selector, where
        if control.selector is None:
            tally.unnamed.append(control.name)
            continue
        prefix, _, local = control.id.rpartition(".")
        by_prefix.setdefault(f"{prefix}." if prefix else "", []).append((local, control))
    memo: dict[Frame, str | None] = {}
    for frame in pw.frames:
        prefix = await _frame_prefix(frame, pw.main_frame, memo)
        controls = by_prefix.pop(prefix, []) if prefix is not None else []
        results = await _check(frame, [[local, c.selector] for local, c in controls])
        for (_, control), result in zip(controls, results, strict=True):
            tally.checked += 1
            if result["problem"]:
                tally.failures.append(
                    f"{where}: {control.selector!r} ({control.role} {control.name!r}): {result['problem']}"
                )
    for prefix, controls in by_prefix.items():
        tally.checked += len(controls)
        tally.failures.append(f"{where}: {len(controls)} controls in frame {prefix!r} not found")

    # The compact summary's primary actions (main frame only). When the interaction view
    # stopped at its cap, names come from the semantic view, which lists every control.
    if model.truncated:
        semantic = await page.semantic_tree(include_offscreen=True, timeout=CAPTURE_LIMIT_S)
        names = {n.i: n.n for n in semantic.interactive_tree if n.f is None}
    else:
        names = {c.id: c.name for c in model.controls if "." not in c.id}
    css = [a for a in compact.primary_actions if not a.selector.startswith("text=")]
    results = await _check(pw.main_frame, [[None, a.selector] for a in css])
    for action, result in zip(css, results, strict=True):
        tally.checked += 1
        tally.actions += 1
        problem = result["problem"]
        name = names.get(result.get("id"), "")
        if not problem and (result["tag"] != action.tag or not _label_matches(action.label, name)):
            problem = f"matches {result['tag']} {result['id']} named {name!r}"
        if problem:
            tally.failures.append(f"{where}: action {action.label!r} {action.selector!r}: {problem}")
    for action in compact.primary_actions:
        if not action.selector.startswith("text="):
            continue
        tally.checked += 1
        tally.actions += 1
        wanted = _fold(action.selector[len("text=") :])
        same = [i for i, name in names.items() if _fold(name) == wanted]
        if len(same) != 1:
            visible = {c.id for c in model.controls if c.visible}
            shown = "" if model.truncated else f" ({len(visible.intersection(same))} visible)"
            tally.failures.append(f"{where}: {action.selector!r} names {len(same)} controls{shown}")
    return tally


@pytest.mark.corpus
async def test_selectors_across_the_corpus(browser: pagelens.Browser, corpus_url: str) -> None:
    pages = list(corpus_pages())
    assert len(pages) == 520
    await answer_https_from_disk(browser.context, corpus_url)
    queue: asyncio.Queue = asyncio.Queue()
    for entry in pages:
        queue.put_nowait(entry)
    total = Tally()

    async def worker() -> None:
        page = await browser.new_page()
        pw = page.playwright_page
        await pw.route("**/*", skip_slow_resources)
        cdp = await pw.context.new_cdp_session(pw)
        try:
            while not queue.empty():
                entry = queue.get_nowait()
                await load_frozen(page, cdp, entry.path(corpus_url), seconds=8)
                try:
                    total.add(await check_page(page, entry.id))
                except PlaywrightError as exc:
                    total.failures.append(f"{entry.id}: could not check: {str(exc).splitlines()[0]}")
        finally:
            await page.close()

    await asyncio.gather(*(worker() for _ in range(WORKERS)))
    print(
        f"selectors: {total.checked} checked on {len(pages)} pages ({total.actions} primary"
        f" actions), {len(total.failures)} failing"
    )
    assert total.checked > 20_000
    assert not total.failures, "\n".join(total.failures[:50])
    assert not total.unnamed, total.unnamed[:50]


async def test_selectors_with_shadow_dom(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}primitives/selectors-shadow.html")
    tally = await check_page(page, "selectors-shadow")
    model = await page.interaction_model()
    # Three identical cards, two identical inner widgets and the slotted controls are all there.
    names = [c.name for c in model.controls]
    assert names.count("Buy") == 3 and names.count("Deep") == 2 and "Slotted send" in names
    actions = (await page.summary("compact")).primary_actions
    assert tally.checked == len(model.controls) - len(tally.unnamed) + len(actions)
    assert not tally.failures, tally.failures
    # No CSS selector tells apart the controls of identical shadow trees (docs/ids.md):
    # those of the three cards and the two inner widgets have none; all others have one.
    cards = {"Save": 3, "Buy": 3, "Search": 3, "Details": 3}
    widgets = {"Deep": 2, "Search": 2}
    assert Counter(tally.unnamed) == Counter(cards) + Counter(widgets)


async def test_selectors_in_quirks_mode(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}primitives/selectors-quirks.html")
    assert await page.playwright_page.evaluate("document.compatMode") == "BackCompat"
    tally = await check_page(page, "selectors-quirks")
    assert tally.checked >= 15
    assert not tally.failures and not tally.unnamed, (tally.failures, tally.unnamed)


async def test_selectors_on_the_stable_id_and_occlusion_fixtures(page: pagelens.Page, fixtures_url: str) -> None:
    total = Tally()
    for fixture in (
        "ids/list.html",
        "occlusion/modal.html",
        "occlusion/native-dialog.html",
        "occlusion/cookie-banner.html",
        "occlusion/pointer-events.html",
        "occlusion/sticky-header.html",
        "primitives/states.html",
        "primitives/regions.html",
    ):
        await page.goto(f"{fixtures_url}{fixture}")
        total.add(await check_page(page, fixture))
    assert total.checked >= 300
    assert not total.failures, total.failures
    # A lone link at the top of a shadow tree: `a` matches the document's links too, and
    # no CSS selector reaches into a shadow tree from its host (docs/ids.md).
    assert total.unnamed == ["in-shadow"]


# Real pages whose controls repeat: a search page's "Translate this page" links (German
# and Russian results), the same links in two menus or two footers, and a shadow tree.
FRESH_LOAD_PAGES = {
    "serp-googlescraper-page_number_selector-google_8": ("Diese Seite übersetzen", 2),
    "serp-googlescraper-page_number_selector-yandex_5": ("Перевод", 8),
    "dash-adminlte-index2": ("Login", 2),
    "formasaurus-integral-marketing.com-1": ("Facebook", 2),
    "wpt-accname-name-shadowdom-basic": ("foo", 1),
}


@pytest.mark.corpus
async def test_selectors_find_their_element_in_a_fresh_load(browser: pagelens.Browser, corpus_url: str) -> None:
    sweeps = {page_id: await sweep_page(browser, f"{corpus_url}{page_id}/page.html") for page_id in FRESH_LOAD_PAGES}
    checks = [check for sweep in sweeps.values() for check in sweep.controls]
    assert len(checks) >= 300
    assert not [c.selector for c in checks if c.selector is None or "data-llm-id" in c.selector]
    failures = [f"{c.role} {c.name!r} {c.selector!r}: {c.outcome()}" for c in checks if not c.same]
    assert not failures, failures
    # The repeated controls are there, each with a selector of its own.
    for page_id, (name, least) in FRESH_LOAD_PAGES.items():
        repeated = [c.selector for c in sweeps[page_id].controls if c.name == name]
        assert len(repeated) >= least and len(set(repeated)) == len(repeated), (page_id, repeated)
