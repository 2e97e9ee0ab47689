"""Occlusion (`occ`): every control the semantic view lists in the viewport
is checked against a hit test done here, in the page's main world, independently of the
engine: `document.elementFromPoint` at the centre of the control's visible part (drilling
into open shadow roots). The control is covered when the hit is neither the control nor
inside it. Agreement must be >= 98 % on each fixture."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import pagelens

# For each id: is the centre of the element's in-viewport part hit by something else?
_HIT_TEST_JS = """(ids) => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const inside = (node, el) => {
    for (let cur = node; cur; cur = cur.assignedSlot || cur.parentNode || cur.host) {
      if (cur === el) return true;
    }
    return false;
  };
  const out = {};
  for (const id of ids) {
    const el = document.querySelector(`[data-llm-id="${id}"]`);
    const r = el.getBoundingClientRect();
    const left = Math.max(r.left, 0), right = Math.min(r.right, vw);
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, vh);
    const x = (left + right) / 2, y = (top + bottom) / 2;
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    out[id] = { covered: !hit || !inside(hit, el), hit: hit ? hit.outerHTML.slice(0, 80) : null };
  }
  return out;
}"""


@dataclass
class Agreement:
    agree: int
    total: int
    occluded: dict[str, bool]  # name -> engine's occ
    disagreements: list[str]

    @property
    def rate(self) -> float:
        return self.agree / self.total


async def measure(page: pagelens.Page) -> Agreement:
    tree = await page.semantic_tree(include_offscreen=False, include_boxes=True)
    assert tree.occlusionUnchecked is None  # an ordinary page is hit tested in full
    nodes = tree.interactive_tree
    truth = await page.playwright_page.evaluate(_HIT_TEST_JS, [n.i for n in nodes])
    agree = 0
    disagreements = []
    for node in nodes:
        engine = bool(node.occ)
        expected = truth[node.i]["covered"]
        if engine == expected:
            agree += 1
        else:
            disagreements.append(f"{node.r} {node.n!r}: occ={engine}, hit {truth[node.i]['hit']}")
    return Agreement(agree, len(nodes), {n.n: bool(n.occ) for n in nodes}, disagreements)


def assert_agrees(result: Agreement, fixture: str) -> None:
    print(f"occlusion {fixture}: {result.agree}/{result.total} = {result.rate:.1%}")
    assert result.total >= 10, f"{fixture}: only {result.total} controls measured"
    # Both outcomes occur on every fixture, so agreement is not trivially all-false.
    assert any(result.occluded.values()) and not all(result.occluded.values())
    assert result.rate >= 0.98, f"{fixture}: {result.disagreements}"


async def test_custom_modal(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}occlusion/modal.html")
    before = await measure(page)
    assert not any(before.occluded.values()), "nothing covers the page before the modal opens"
    await page.playwright_page.evaluate("openModal()")
    result = await measure(page)
    assert_agrees(result, "modal")
    for name in ("Close dialog", "Remove", "Keep it", "Reason"):
        assert result.occluded[name] is False, name
    for name in ("Home", "Apply coupon", "Item 1", "Item 13", "Checkout", "Continue shopping"):
        assert result.occluded[name] is True, name


async def test_native_modal_dialog(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}occlusion/native-dialog.html")
    await page.playwright_page.evaluate("openModal()")
    result = await measure(page)
    assert_agrees(result, "native-dialog")
    for name in ("Email", "Password", "Sign in", "Cancel"):
        assert result.occluded[name] is False, name
    for name in ("Option 1", "Option 30", "Privacy", "Nickname"):
        assert result.occluded[name] is True, name


async def test_cookie_banner(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}occlusion/cookie-banner.html")
    result = await measure(page)
    assert_agrees(result, "cookie-banner")
    for name in ("Accept all", "Reject all", "Cookie settings", "Read story 1", "Save 1"):
        assert result.occluded[name] is False, name
    # The viewport is 800 px high and the banner 230: the fourth row of cards is under it.
    for name in ("Read story 13", "Save 13", "Save 16"):
        assert result.occluded[name] is True, name


async def test_pointer_events(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}occlusion/pointer-events.html")
    result = await measure(page)
    assert_agrees(result, "pointer-events")
    for name in (
        "Unavailable link",
        "Inert button",
        "Inert field",
        "Passed through",
        "Under shield 1",
        "Under shield link",
    ):
        assert result.occluded[name] is True, name
    for name in (
        "★ Star",
        "Profile",
        "Reclaimed",
        "Under ghost 1",
        "Under ghost link",
        "Plain 1",
        "Plain checkbox",
    ):
        assert result.occluded[name] is False, name


@pytest.mark.parametrize("scroll_y", [0, 1000, 1021, 2000])
async def test_sticky_header(page: pagelens.Page, fixtures_url: str, scroll_y: int) -> None:
    await page.goto(f"{fixtures_url}occlusion/sticky-header.html")
    await page.playwright_page.evaluate(f"window.scrollTo(0, {scroll_y})")
    result = await measure(page)
    if scroll_y == 0:
        assert result.agree == result.total and not any(result.occluded.values())
        return
    assert_agrees(result, f"sticky-header@{scroll_y}")
    for name in ("Products", "Search docs", "Back to top"):
        assert result.occluded[name] is False, name
    # Rows start under the 96 px header and are 44 px high: row i's centre is at
    # 96 + 44 * (i - 1) + 22 - scroll_y, covered while above the header's bottom.
    for i in range(1, 81):
        centre = 96 + 44 * (i - 1) + 22 - scroll_y
        if 0 < centre < 96 - 2 and f"Open {i}" in result.occluded:
            assert result.occluded[f"Open {i}"] is True, i
        if 96 + 2 < centre < 800 - 80:
            assert result.occluded[f"Open {i}"] is False, i


async def test_slow_hit_testing_is_cut_short_and_counted(page: pagelens.Page) -> None:
    """A hit test walks the sibling boxes: among 20,000 siblings it takes milliseconds
    (here ~2.5 ms), so the 2,000 small buttons filling the viewport would take seconds. The
    view stops at its time budget and counts the in-viewport nodes left untested."""
    count = 2000
    buttons = "".join(f'<button style="width:20px;height:12px;padding:0">{i}</button>' for i in range(count))
    await page.set_content(f"<body style='margin:0'><div>{buttons}{'<p>x</p>' * 20_000}</div></body>")
    tree = await page.semantic_tree()
    assert len(tree.interactive_tree) == count
    assert tree.occlusionUnchecked is not None and count // 2 < tree.occlusionUnchecked < count
    assert not any(node.occ for node in tree.interactive_tree)
