"""The check every emitted selector must pass in the page it was emitted in (002): the
interaction view's `selector` (and `aimap`) and the compact summary's
`primary_actions[].selector` match exactly their own element.

A CSS selector is checked in the page's main world, across the document and every open
shadow root (the scope Playwright's CSS engine pierces): it must match one element, and
that element must carry the control's data-llm-id. A `text=` selector is resolved by the
action layer against accessible names, so exactly one control of its frame may bear that
name. Used by test_selectors.py on fixtures and by test_corpus_sweep.py on the corpus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from playwright.async_api import Frame

import pagelens

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


async def check_page(page: pagelens.Page, where: str, compact: pagelens.CompactSummary | None = None) -> Tally:
    """The check of the module's docstring; `compact`: the page's compact summary where
    the caller has taken it already."""
    tally = Tally()
    # Generous limits: this checks what the selectors say, not how fast they come.
    model = await page.interaction_model(timeout=CAPTURE_LIMIT_S)
    if compact is None:
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
        frame_prefix = await _frame_prefix(frame, pw.main_frame, memo)
        controls = by_prefix.pop(frame_prefix, []) if frame_prefix is not None else []
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
        matched_id = result.get("id")  # None where the selector failed or the element has no id
        name = names.get(matched_id, "") if matched_id is not None else ""
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
