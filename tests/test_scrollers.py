"""Scroll containers in the semantic view (engine/js/semantic.js): looked for among the
elements the page's style rules let scroll where its sheets can be read (stylerules.js),
by reading every element's style where one cannot (a cross-origin sheet) or where the
rules outnumber the elements. Every way finds the same containers."""

from __future__ import annotations

import pytest

import pagelens
from bench.axtruth import engine_evaluate

TALL = "<div style='height:400px'>x</div>"
STYLE = (
    "<style>"
    ".box{height:60px;overflow-y:auto} #by-id{height:60px;overflow:scroll}"
    " @media all { .in-media{height:60px;overflow:auto} } @layer base { .layered{height:60px;overflow:auto} }"
    " .wide{height:60px;overflow-x:auto} .bar{height:60px} .bar::-webkit-scrollbar{width:4px}"
    " .clipped{height:60px;overflow:hidden} section > .child{height:60px;overflow:auto}"
    " .themed{--flow:auto;height:60px;overflow:var(--flow)}"
    " .hides-x{height:60px;overflow-x:hidden}"
    # The body's overflow is the viewport's: the page scrolls, the body is no container.
    " html{height:100%} body{height:100%;overflow-x:hidden}"
    "</style>"
)
BODY = f"""
<div class=box data-k=class>{TALL}</div>
<div id=by-id data-k=id>{TALL}</div>
<div class=in-media data-k=media>{TALL}</div>
<div class=layered data-k=layer>{TALL}</div>
<div class=wide data-k=overflow-x>{TALL}</div>
<section><div class=child data-k=combinator>{TALL}</div></section>
<div class=themed data-k=custom-property>{TALL}</div>
<div class=hides-x data-k=hidden-x>{TALL}</div>
<div style="height:60px;overflow:auto" data-k=inline>{TALL}</div>
<div class=bar data-k=scrollbar-only>{TALL}</div>
<div class=clipped data-k=hidden-overflow>{TALL}</div>
<div class=box style="display:none" data-k=not-rendered>{TALL}</div>
<details><summary>More</summary><div class=box data-k=closed-details>{TALL}</div></details>
<div class=box data-k=short>short</div>
<div id=host data-k=host></div>
<script>
  document.getElementById('host').attachShadow({{mode: 'open'}}).innerHTML =
    "<style>.s{{height:60px;overflow:auto}}</style><div class=s data-k=shadow>{TALL}</div>";
</script>
"""
EXPECTED = [
    "class", "id", "media", "layer", "overflow-x", "combinator", "custom-property", "hidden-x", "inline", "shadow",
]  # fmt: skip
# More rules than the page has elements: the rules are not surveyed, every element's style
# is read (stylerules.js, worthSurveying).
MANY_RULES = "<style>" + "".join(f".unused-{i}{{color:red}}" for i in range(500)) + "</style>"


async def scroller_keys(page: pagelens.Page, head: str | None = None) -> list[str]:
    """The data-k of each scroll container, after loading BODY under `head` (if given)."""
    if head is not None:
        await page.set_content(f"<!doctype html><html><head>{head}</head><body>{BODY}</body></html>")
    tree = await page.semantic_tree()
    return [
        await engine_evaluate(page, f"engine.elementById({container.id!r}).dataset.k")
        for container in tree.scrollableContainers
    ]


@pytest.mark.parametrize(
    "head",
    [
        pytest.param(STYLE, id="sheets-read"),
        # A sheet from another origin cannot be read: every element's style is read instead.
        pytest.param('<link rel=stylesheet href="https://cdn.example.com/site.css">' + STYLE, id="sheets-opaque"),
        pytest.param(MANY_RULES + STYLE, id="rules-outnumber-elements"),
    ],
)
async def test_scroll_containers_from_every_kind_of_rule(page: pagelens.Page, head: str) -> None:
    assert sorted(await scroller_keys(page, head)) == sorted(EXPECTED)


async def test_a_rule_added_later_makes_a_scroller(page: pagelens.Page) -> None:
    assert "late" not in await scroller_keys(page, STYLE)
    await page.playwright_page.evaluate(
        "document.body.insertAdjacentHTML('beforeend', `<div class=late data-k=late>"
        f"{TALL}</div>`);"
        " document.styleSheets[0].insertRule('.late{height:60px;overflow:auto}')"
    )
    assert "late" in await scroller_keys(page)


async def test_scoped_rules_and_quirks_mode(page: pagelens.Page) -> None:
    """`:scope` in an @scope rule means the scoping root, not the document's; and in quirks
    mode class and id selectors match whatever the case (`.Box` styles class="box")."""
    scoped = "<style>@scope (.card) { :scope { height:60px; overflow:auto } }</style>"
    await page.set_content(
        f"<!doctype html><html><head>{scoped}</head><body><div class=card data-k=scoped>{TALL}</div></body></html>"
    )
    assert await scroller_keys(page) == ["scoped"]
    quirks = "<style>.Box{height:60px;overflow:auto} #Pane{height:60px;overflow:auto}</style>"
    await page.set_content(
        f"<html><head>{quirks}</head><body><div class=box data-k=class>{TALL}</div>"
        f"<div id=pane data-k=id>{TALL}</div></body></html>"
    )
    assert await scroller_keys(page) == ["class", "id"]
