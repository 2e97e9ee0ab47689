"""Focused checks of the primitives behind names, roles and coverage (engine/js/accname.js,
role.js, visibility.js) on small pages; the same measured on every corpus page against
Chromium's own accessibility tree is in test_corpus_sweep.py.

Each focused case states the value pagelens must produce; where Chromium exposes the same
thing, the test also checks that Chromium agrees, so the expectations are Chromium's
behaviour and not our own guess.
"""

from __future__ import annotations

import json

import pytest

import pagelens
from bench.axtruth import ax_ground_truth, chromium_name, engine_evaluate
from pagelens.engine.models import InteractiveControl


async def names_by_key(page: pagelens.Page, html: str) -> dict[str, str]:
    """pagelens' accessible name of every [data-k] element of `html`."""
    await page.set_content(html)
    return await engine_evaluate(
        page,
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-k]'),"
        " (e) => [e.dataset.k, engine.accessibleName(e)]))",
    )


async def chromium_names(page: pagelens.Page, keys: list[str]) -> dict[str, str | None]:
    return {k: await chromium_name(page, f"document.querySelector('[data-k={json.dumps(k)}]')") for k in keys}


async def assert_names(page: pagelens.Page, cases: list[tuple[str, str, str]]) -> None:
    """Each (key, html, expected name): pagelens and Chromium both give `expected`."""
    html = "\n".join(body for _, body, _ in cases)
    ours = await names_by_key(page, html)
    theirs = await chromium_names(page, [k for k, _, _ in cases])
    for key, _, expected in cases:
        assert ours[key] == expected, f"{key}: pagelens {ours[key]!r}, expected {expected!r}"
        assert theirs[key] == expected, f"{key}: Chromium {theirs[key]!r}, expected {expected!r}"


async def test_name_from_content_joins_text_as_laid_out(page: pagelens.Page) -> None:
    await assert_names(
        page,
        [
            ("inline", "<a href=# data-k=inline><span>Sign</span><span>in</span></a>", "Signin"),
            ("blocks", "<a href=# data-k=blocks><div>Sign</div><div>in</div></a>", "Sign in"),
            ("inline-block", '<a href=# data-k=inline-block><i style="display:inline-block">★</i>Star</a>', "★ Star"),
            ("flex", '<button data-k=flex style="display:flex"><span>Add</span>to cart</button>', "Add to cart"),
            ("contents", '<a href=# data-k=contents><span style="display:contents">A</span><span>B</span></a>', "A B"),
            ("img-alt", '<a href=# data-k=img-alt>Follow<img alt="Twitter" src="x.png">now</a>', "Follow Twitter now"),
            ("aria-label", "<a href=# data-k=aria-label>x<span aria-label=label>y</span>z</a>", "x label z"),
            (
                "empty-icon",
                '<a href=# data-k=empty-icon>A<span style="display:inline-block;width:9px"></span>B</a>',
                "AB",
            ),
            ("br", "<a href=# data-k=br>Line<br>break</a>", "Line break"),
        ],
    )


async def test_whitespace_counts_only_where_blink_keeps_it(page: pagelens.Page) -> None:
    # The space after the aria-hidden price sits next to collapsible whitespace, so Blink
    # drops it and the two prices run together; a lone space between spans is kept.
    await assert_names(
        page,
        [
            (
                "dropped",
                '<a href=# data-k=dropped><span><span>€9</span><span aria-hidden="true">€</span> </span>'
                " <span>(€3/kg)</span></a>",
                "€9(€3/kg)",
            ),
            (
                "kept",
                '<a href=# data-k=kept><span>€9</span><span aria-hidden="true">€</span> <span>(€3/kg)</span></a>',
                "€9 (€3/kg)",
            ),
        ],
    )


async def test_rendered_text_and_generated_content(page: pagelens.Page) -> None:
    await assert_names(
        page,
        [
            ("upper", '<a href=# data-k=upper style="text-transform:uppercase">Skip to content</a>', "SKIP TO CONTENT"),
            (
                "capitalize",
                '<a href=# data-k=capitalize style="text-transform:capitalize">video: arts</a>',
                "Video: Arts",
            ),
            # Generated content belongs to its element: an inline <i> abuts the text after it,
            # an inline-block one does not.
            (
                "before",
                '<style>.ic::before{content:"→";display:inline-block}</style>'
                "<a href=# data-k=before><i class=ic></i>Next</a>",
                "→Next",
            ),
            (
                "icon",
                '<style>.fa{display:inline-block}.fa::before{content:"★"}</style>'
                "<a href=# data-k=icon><i class=fa></i><span>Star</span></a>",
                "★ Star",
            ),
            (
                "alt-text",
                '<style>.new::after{content:"*" / "new"}</style><a href=# data-k=alt-text class=new>Docs</a>',
                "Docs new",
            ),
            ("hidden-text", '<a href=# data-k=hidden-text>Save<span style="display:none"> draft</span></a>', "Save"),
            (
                "revealed",
                '<a href=# data-k=revealed>Open <span style="visibility:hidden">secret '
                '<b style="visibility:visible">shown</b></span></a>',
                "Open shown",
            ),
        ],
    )


async def test_generated_content_from_every_kind_of_rule(page: pagelens.Page) -> None:
    """Pseudo styles are read only for elements some ::before/::after rule can match
    (engine/js/pseudo.js): every way a rule can reach an element is still seen."""
    style = (
        "<style>"
        '#go::after{content:" go"} a.more::before{content:"more "} nav .item::after{content:" item"}'
        ' [data-icon]::before{content:attr(data-icon) " "} .tools > ::before{content:"tag "}'
        ' .tip:not(.off)::after{content:" tip"} @media all { .m::before{content:"media "} }'
        ' @layer base { .l::before{content:"layer "} } .caf\\e9::before{content:"cafe "}'
        ' .nest { &::after{content:" nested"} } .plain::before{color:red}'
        "</style>"
    )
    await assert_names(
        page,
        [
            ("id", f"{style}<a href=# id=go data-k=id>Id</a>", "Id go"),
            ("class", "<a href=# class=more data-k=class>Class</a>", "more Class"),
            ("descendant", "<nav><a href=# class=item data-k=descendant>Nav</a></nav>", "Nav item"),
            ("outside", "<a href=# class=item data-k=outside>Outside</a>", "Outside"),
            ("attribute", "<a href=# data-icon=@ data-k=attribute>Mail</a>", "@ Mail"),
            ("child", "<a href=# class=tools data-k=child><span>Tools</span></a>", "tag Tools"),
            ("pseudo-class", "<a href=# class=tip data-k=pseudo-class>Tip</a>", "Tip tip"),
            ("negated", "<a href=# class='tip off' data-k=negated>Off</a>", "Off"),
            ("media", "<a href=# class=m data-k=media>Media</a>", "media Media"),
            ("layer", "<a href=# class=l data-k=layer>Layer</a>", "layer Layer"),
            ("non-ascii", "<a href=# class=caf\u00e9 data-k=non-ascii>Cafe</a>", "cafe Cafe"),
            ("nested", "<a href=# class=nest data-k=nested>Nest</a>", "Nest nested"),
            ("no-content", "<a href=# class=plain data-k=no-content>Plain</a>", "Plain"),
            ("quote", "<a href=# data-k=quote><q>Hi</q></a>", "\u201cHi\u201d"),
            ("quotes", """<a href=# data-k=quotes><q style='quotes:"<<" ">>"'>Hi</q></a>""", "<<Hi>>"),
        ],
    )


async def test_generated_content_in_quirks_mode(page: pagelens.Page) -> None:
    """Quirks mode matches class and id selectors whatever their case."""
    html = (
        "<html><head><style>.More::before{content:'more '} #Go::after{content:' go'}</style></head><body>"
        "<a href=# class=more data-k=class>Class</a><a href=# id=go data-k=id>Id</a></body></html>"
    )
    await page.set_content(html)
    names = await engine_evaluate(
        page,
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-k]'),"
        " (e) => [e.dataset.k, engine.accessibleName(e)]))",
    )
    assert names == {"class": "more Class", "id": "Id go"}


async def test_generated_content_of_rules_added_later(page: pagelens.Page) -> None:
    html = "<style>.x{color:red}</style><a href=# class=late data-k=late>Late</a>"
    assert (await names_by_key(page, html))["late"] == "Late"
    await engine_evaluate(page, "document.styleSheets[0].insertRule('.late::before{content:\"new \"}', 1)")
    names = await engine_evaluate(page, "engine.accessibleName(document.querySelector('[data-k=late]'))")
    assert names == "new Late"
    assert await chromium_name(page, "document.querySelector('[data-k=late]')") == "new Late"


async def test_containers_that_do_not_lend_their_content(page: pagelens.Page) -> None:
    await assert_names(
        page,
        [
            (
                "figure",
                '<a href=# data-k=figure><figure><img alt="Cover" src="x.png"></figure>'
                "<figcaption>Cover</figcaption></a>",
                "Cover",
            ),
            ("nav", "<a href=# data-k=nav><nav>Menu</nav>Home</a>", "Home"),
            (
                "data-table",
                "<a href=# data-k=data-table><table><tr><th>H</th></tr><tr><td>C</td></tr></table>x</a>",
                "x",
            ),
            ("layout-table", "<a href=# data-k=layout-table><table><tr><td>A</td><td>B</td></tr></table></a>", "A B"),
            ("generic-title", '<a href=# data-k=generic-title><span title="Edit"></span></a>', ""),
            ("img-title", '<a href=# data-k=img-title><img title="Edit" src="x.png"></a>', "Edit"),
            (
                "svg-use",
                '<svg style="display:none"><symbol id=tw><title>Twitter</title></symbol></svg>'
                '<a href=# data-k=svg-use><svg width=9 height=9><use href="#tw"></use></svg></a>',
                "Twitter",
            ),
        ],
    )


async def test_form_control_names(page: pagelens.Page) -> None:
    await assert_names(
        page,
        [
            ("submit", "<input type=submit data-k=submit>", "Submit"),
            ("reset", "<input type=reset data-k=reset>", "Reset"),
            ("empty-value", '<input type=submit value="" title="Send" data-k=empty-value>', ""),
            ("label-first", "<label>Send now <input type=submit value=Go data-k=label-first></label>", "Send now"),
            ("image", "<input type=image src=x.png data-k=image>", "Submit"),
            ("file", '<input type=file title="Upload" data-k=file>', "Choose File"),
            ("placeholder", '<input placeholder="Search the site" data-k=placeholder>', "Search the site"),
            ("title-first", '<input title="Query" placeholder="Search" data-k=title-first>', "Query"),
            ("hidden-label", '<label for=h style="display:none">Name</label><input id=h data-k=hidden-label>', ""),
            (
                "embedded",
                "<label><input type=checkbox data-k=embedded> Ship to <select><option>Paris</option></select></label>",
                "Ship to Paris",
            ),
            (
                "labelledby-hidden",
                '<span id=lh hidden>Secret <b aria-hidden="true">name</b></span>'
                "<button aria-labelledby=lh data-k=labelledby-hidden>x</button>",
                "Secret name",
            ),
        ],
    )


async def test_fields_named_by_one_label(page: pagelens.Page) -> None:
    """The common <label for> of one text run (accname.js names it without the general
    algorithm) and the cases next to it that the general algorithm must still take."""
    await assert_names(
        page,
        [
            ("for-label", "<label for=l1>E-mail</label><input id=l1 data-k=for-label>", "E-mail"),
            (
                "transformed",
                "<label for=l2 style='text-transform:uppercase'>zip</label><input id=l2 data-k=transformed>",
                "ZIP",
            ),
            (
                "select",
                "<label for=l3>Country</label><select id=l3 data-k=select><option>France</option></select>",
                "Country",
            ),
            ("button", "<label for=l4>Go on</label><button id=l4 data-k=button>Next</button>", "Go on"),
            (
                "two-labels",
                "<label for=l5>First</label><label for=l5>Second</label><input id=l5 data-k=two-labels>",
                "First Second",
            ),
            (
                "label-named",
                "<label for=l6 aria-label='Phone number'>Tel</label><input id=l6 data-k=label-named>",
                "Phone number",
            ),
            ("field-named", "<label for=l7>Label</label><input id=l7 aria-label=Own data-k=field-named>", "Own"),
            (
                "generated",
                "<style>.req::after{content:' *'}</style>"
                "<label for=l8 class=req>Name</label><input id=l8 data-k=generated>",
                "Name *",
            ),
            (
                "hidden-field",
                "<label for=l9>Shown</label><input id=l9 style='visibility:hidden' data-k=hidden-field>",
                "",
            ),
            ("wrapping", "<label><input type=checkbox data-k=wrapping> Remember me</label>", "Remember me"),
            ("wrapping-after", "<label>Newsletter <input type=checkbox data-k=wrapping-after></label>", "Newsletter"),
            ("pretty", "<label>\n  <input type=radio name=r data-k=pretty>\n  <!-- choice -->\n  Yes\n</label>", "Yes"),
            ("two-texts", "<label>Size <input type=radio name=s data-k=two-texts> large</label>", "Size large"),
            ("comment", "<button data-k=comment><!-- icon --> Save </button>", "Save"),
        ],
    )


async def test_text_through_plain_wrappers(page: pagelens.Page) -> None:
    """One run of text inside plain wrappers (accname.js names it without the general
    algorithm), and the wrappers that must leave it to the general algorithm."""
    sr_only = "<style>.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}"
    sr_only += " .glyph::before{content:'+'} .gone{display:none}</style>"
    await assert_names(
        page,
        [
            (
                "icon",
                sr_only + "<button data-k=icon><span class=icon></span><span class=sr>Close</span></button>",
                "Close",
            ),
            (
                "role-button",
                "<span role=button tabindex=0 data-k=role-button><span class=sr>Menu</span></span>",
                "Menu",
            ),
            ("deep", "<a href=# data-k=deep><div><span><b> Deep </b></span></div></a>", "Deep"),
            (
                "transformed",
                "<button data-k=transformed><span style='text-transform:uppercase'>ok</span></button>",
                "OK",
            ),
            ("label", "<label><span>City</span> <input data-k=label></label>", "City"),
            ("two-runs", "<a href=# data-k=two-runs><span>One</span><span>Two</span></a>", "OneTwo"),
            ("glyph", "<button data-k=glyph><span class=glyph></span>Add</button>", "+Add"),
            ("hidden-run", "<button data-k=hidden-run><span class=gone>Secret</span>Shown</button>", "Shown"),
            ("hidden-only", "<button data-k=hidden-only title=Tip><span class=gone>Secret</span></button>", "Tip"),
            ("aria-hidden", "<button data-k=aria-hidden title=Tip><span aria-hidden=true>x</span></button>", "Tip"),
            ("named-wrapper", "<a href=# data-k=named-wrapper><span aria-label=Label>text</span></a>", "Label"),
            (
                "field-inside",
                "<label><input data-k=field-inside> <span>Size <select><option>XL</option></select></span></label>",
                "Size XL",
            ),
        ],
    )


async def test_empty_label_falls_back_to_placeholder(page: pagelens.Page) -> None:
    """HTML-AAM falls back to title and placeholder when the label gives no text; Chromium
    stops at the empty label. pagelens follows the spec here, on purpose."""
    html = '<label><input placeholder="Search the site" data-k=wrapped></label>'
    assert await names_by_key(page, html) == {"wrapped": "Search the site"}
    assert await chromium_names(page, ["wrapped"]) == {"wrapped": ""}


async def test_roles_follow_chromium(page: pagelens.Page) -> None:
    await page.set_content("""
      <a onclick="go()" data-k=onclick-link>Go</a>
      <summary data-k=lone-summary>Alone</summary>
      <details><summary data-k=summary>More</summary>x</details>
      <ul><li><a href=# role=listitem data-k=listitem-outside-list>x</a></li></ul>
      <ul><a href=# role=listitem data-k=listitem-in-list>x</a></ul>
      <div><div role=option data-k=option-outside-listbox>o</div></div>
      <div role=listbox><div><div role=option data-k=option-in-listbox>o</div></div></div>
      <a href=# role=region data-k=unnamed-region>r</a>
      <section aria-label=Intro role=region data-k=named-region>r</section>
      <figure data-k=figure>f</figure>
      <output data-k=output>1</output>
      <section title=Outline data-k=titled-section>s</section>
      <main><aside data-k=aside-in-main>a</aside></main>
      <article><aside data-k=aside-in-article>a</aside><aside aria-label=Notes data-k=named-aside>a</aside></article>
    """)
    ours = await engine_evaluate(
        page,
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-k]'),"
        " (e) => [e.dataset.k, engine.getRole(e)]))",
    )
    assert ours == {
        "onclick-link": "link",
        "lone-summary": "generic",
        "summary": "button",
        "listitem-outside-list": "link",
        "listitem-in-list": "listitem",
        "option-outside-listbox": "generic",
        "option-in-listbox": "option",
        "unnamed-region": "link",
        "named-region": "region",
        "figure": "figure",
        "output": "status",
        "titled-section": "region",
        "aside-in-main": "complementary",
        "aside-in-article": "generic",
        "named-aside": "complementary",
    }
    # Chromium agrees (its names for these roles are the same words, but for <summary>).
    cdp = await page.playwright_page.context.new_cdp_session(page.playwright_page)
    chromium = {}
    document = await cdp.send("DOM.getDocument", {"depth": 0})
    for key in ours:
        query = {"nodeId": document["root"]["nodeId"], "selector": f"[data-k={key}]"}
        found = await cdp.send("DOM.querySelector", query)
        tree = await cdp.send("Accessibility.getPartialAXTree", {"nodeId": found["nodeId"], "fetchRelatives": False})
        chromium[key] = tree["nodes"][0]["role"]["value"]
    assert chromium == {**ours, "summary": "DisclosureTriangle"}


async def test_interactive_role_of_anchor_with_click_handler(page: pagelens.Page) -> None:
    await page.set_content('<a onclick="go()">Show more</a><summary>Not a control</summary>')
    model = await page.interaction_model()
    assert [(c.role, c.name) for c in model.controls] == [("link", "Show more")]


async def test_visibility_primitives(page: pagelens.Page) -> None:
    await page.set_content("""
      <div style="display:none"><button data-k=in-display-none>a</button></div>
      <div style="display:contents" data-k=contents><button>b</button></div>
      <details><summary>s</summary><button data-k=in-closed-details>c</button></details>
      <div aria-hidden="true"><button data-k=aria-hidden>d</button></div>
      <button style="visibility:hidden" data-k=visibility-hidden>e</button>
      <button style="opacity:0" data-k=transparent>f</button>
      <button style="position:absolute;left:-9999px" data-k=offscreen>g</button>
      <span style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">
        <button data-k=clipped>h</button></span>
      <button data-k=plain>i</button>
    """)
    state = await engine_evaluate(
        page,
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-k]'), (e) => [e.dataset.k,"
        " [engine.isRendered(e), engine.isRendered(e) && engine.isVisible(e)]]))",
    )
    assert state == {
        "in-display-none": [False, False],
        "contents": [True, False],
        "in-closed-details": [False, False],
        "aria-hidden": [False, False],
        "visibility-hidden": [False, False],
        "transparent": [True, False],
        "offscreen": [True, True],
        "clipped": [True, False],
        "plain": [True, True],
    }


CLIPPING_STYLE = (
    "<style>.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}"
    " .vh{position:absolute;clip-path:inset(50%)} @media all { .collapsed{height:0;overflow:hidden} }"
    " .scroller{height:40px;overflow:auto}</style>"
)


@pytest.mark.parametrize(
    "head",
    [
        pytest.param(CLIPPING_STYLE, id="sheets-read"),
        # A sheet from another origin cannot be surveyed: every element's style is read.
        pytest.param(f'<link rel=stylesheet href="https://cdn.example.com/a.css">{CLIPPING_STYLE}', id="sheets-opaque"),
    ],
)
async def test_clipping_by_style_rules(page: pagelens.Page, head: str) -> None:
    """The visually-hidden patterns and collapsed menus, styled by class rules (in a
    media rule too), whether or not the engine can read the page's style sheets."""
    await page.set_content(f"""<!doctype html><html><head>{head}</head><body>
      <span class=sr-only><button data-k=in-sr-only>a</button></span>
      <button class=vh data-k=clip-path>b</button>
      <div class=collapsed><ul><li><a href=# data-k=collapsed-menu>c</a></li></ul></div>
      <div class=scroller><button data-k=in-scroller>d</button></div>
      <button data-k=plain>e</button></body></html>""")
    visible = await engine_evaluate(
        page,
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-k]'),"
        " (e) => [e.dataset.k, engine.isVisible(e)]))",
    )
    expected = {"in-sr-only": False, "clip-path": False, "collapsed-menu": False, "in-scroller": True, "plain": True}
    assert visible == expected


async def scanned_controls(page: pagelens.Page) -> dict[str, InteractiveControl]:
    """The controls of the interaction view (a scan), by their data-k."""
    model = await page.interaction_model()
    keys = await engine_evaluate(
        page,
        "Object.fromEntries(Array.from(document.querySelectorAll('[data-k]'),"
        " (e) => [e.getAttribute('data-llm-id'), e.dataset.k]))",
    )
    return {keys[c.id]: c for c in model.controls if c.id in keys}


async def visible_in_views(page: pagelens.Page) -> dict[str, bool]:
    return {key: control.visible for key, control in (await scanned_controls(page)).items()}


# Clipped, hidden or inert by what a scan meets: rules read from the sheets (a shorthand
# through a custom property too), inline styles, the browser's own sheet, aria-hidden
# and inert; then the same inside and around shadow trees, whose sheets a survey of the
# document's cannot read.
HIDING_PAGE = """<!doctype html><html><head><style>
  .sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
  .collapsed{--shut:hidden;overflow:var(--shut);height:0}
  .tall{height:40px}</style></head><body>
  <span class=sr-only><a href=#a data-k=sr-only>a</a></span>
  <div class=collapsed><div><div><button data-k=var-collapsed>b</button></div></div></div>
  <div style="height:0;overflow:hidden"><button data-k=inline-collapsed>c</button></div>
  <div aria-hidden=true><div><button data-k=aria-hidden>d</button></div></div>
  <div inert><button data-k=inert>e</button></div>
  <div class=tall><button data-k=plain>f</button></div>
  {shadow}</body></html>"""
SHADOW_PART = """<div id=host><button data-k=slotted>g</button></div>
  <div id=open-host><button data-k=slotted-open>h</button></div>
  <script>
    document.getElementById('host').attachShadow({mode: 'open'}).innerHTML =
      '<div style="height:0;overflow:hidden"><slot></slot></div>';
    document.getElementById('open-host').attachShadow({mode: 'open'}).innerHTML =
      '<div aria-hidden=true><slot></slot></div>';
  </script>"""


@pytest.mark.parametrize("shadow", [pytest.param("", id="light-tree"), pytest.param(SHADOW_PART, id="shadow-trees")])
async def test_scans_hide_what_clips_or_hides(page: pagelens.Page, shadow: str) -> None:
    await page.set_content(HIDING_PAGE.replace("{shadow}", shadow))
    expected = {"sr-only": False, "var-collapsed": False, "inline-collapsed": False, "plain": True}
    if shadow:
        expected["slotted"] = False  # clipped by its shadow tree's wrapper
    assert await visible_in_views(page) == expected  # aria-hidden, inert and slotted-open: no controls
    summary = await page.summary("full")
    assert summary.interactive_element_count == 1


# Text transformed by a rule, an inline style, and a rule that turns it off again.
TRANSFORM_PAGE = """<!doctype html><html><head><style>.up{text-transform:uppercase} .keep{text-transform:none}
  </style></head><body>
  <button class=up data-k=by-rule>save</button>
  <div style="text-transform:lowercase"><a href=#b data-k=inherited-inline>SAVE</a></div>
  <div class=up><span><a href=#c class=keep data-k=turned-off>Save</a></span></div>
  <button data-k=wrapped><span class=up>ok</span></button>
  <button data-k=plain>Save</button></body></html>"""
# Nothing in the document transforms text, a shadow tree's wrapper does: a scan reads no
# element's style only while it knows that nothing does.
SHADOW_TRANSFORM_PAGE = """<!doctype html><html><body><button data-k=plain>Save <b>now</b></button>
  <div id=host><a href=#e data-k=slotted>save</a></div>
  <script>
    document.getElementById('host').attachShadow({mode: 'open'}).innerHTML =
      '<div style="text-transform:uppercase"><slot></slot></div>';
  </script></body></html>"""


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        pytest.param(
            TRANSFORM_PAGE,
            {"by-rule": "SAVE", "inherited-inline": "save", "turned-off": "Save", "wrapped": "OK", "plain": "Save"},
            id="document",
        ),
        pytest.param(
            "<div style='Text-Transform: uppercase'><a href=#a data-k=inline>save</a></div>"
            "<button data-k=plain>Go</button>",
            {"inline": "SAVE", "plain": "Go"},
            id="inline-only",
        ),
        pytest.param(SHADOW_TRANSFORM_PAGE, {"plain": "Save now", "slotted": "SAVE"}, id="shadow-tree"),
    ],
)
async def test_scans_transform_text_as_styles_say(page: pagelens.Page, html: str, expected: dict[str, str]) -> None:
    await page.set_content(html)
    assert {key: control.name for key, control in (await scanned_controls(page)).items()} == expected
    assert await chromium_names(page, list(expected)) == expected


async def test_names_are_recomputed_on_each_capture(page: pagelens.Page) -> None:
    await page.set_content("<button id=b>Play</button><a href=# id=a role=button>Stop</a>")
    first = await page.interaction_model()
    await page.playwright_page.evaluate(
        "document.getElementById('b').textContent = 'Pause'; document.getElementById('a').removeAttribute('role')"
    )
    second = await page.interaction_model()
    assert [(c.role, c.name) for c in first.controls] == [("button", "Play"), ("button", "Stop")]
    assert [(c.role, c.name) for c in second.controls] == [("button", "Pause"), ("link", "Stop")]


async def test_ground_truth_maps_ax_nodes_to_stamped_elements(page: pagelens.Page) -> None:
    await page.set_content("""
      <a href=#x>Home</a> <button>Save</button> <input aria-label=Query>
      <button style="display:none">Gone</button> <input type=date aria-label=When>
      <select aria-label=Size><option>S</option></select>
    """)
    model = await page.interaction_model()
    truth = await ax_ground_truth(page)
    by_id = {c.id: (c.role, c.name) for c in model.controls}
    assert [(t.chromium_role, t.role, t.name) for t in truth] == [
        ("link", "link", "Home"),
        ("button", "button", "Save"),
        ("textbox", "textbox", "Query"),
        ("Date", "date", "When"),
        ("combobox", "combobox", "Size"),
    ]
    for t in truth:  # each one captured (so stamped with its id), with Chromium's role and name
        assert t.llm_id is not None, t
        assert by_id[t.llm_id] == (t.role, t.name), t
