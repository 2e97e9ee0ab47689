"""The shared primitives on their own, on small fixture pages with expected values written
out: control states, the landmark region of a control, and stable-id behaviour."""

from __future__ import annotations

from typing import Any

import pagelens

STATES = "primitives/states.html"
REGIONS = "primitives/regions.html"


async def _states(page: pagelens.Page) -> dict[str, dict[str, Any]]:
    model = await page.interaction_model()
    return {c.name: c.states.model_dump(exclude_none=True) for c in model.controls}


EXPECTED_STATES: dict[str, dict[str, Any]] = {
    # checked / mixed
    "cb-checked": {"checked": True},
    "cb-unchecked": {},
    "cb-mixed": {"checked": "mixed"},
    "radio-on": {"checked": True},
    "radio-off": {},  # indeterminate is meaningless on a radio
    "aria-mixed": {"checked": "mixed"},
    "aria-switch-on": {"checked": True},
    "native-switch": {"checked": True},  # the native state wins over aria-checked
    # disabled
    "btn-disabled": {"disabled": True},
    "btn-aria-disabled": {"disabled": True},
    "in-first-legend": {},
    "in-disabled-fieldset": {"disabled": True},
    "select-in-disabled-fieldset": {"disabled": True},
    "inner-legend-of-disabled": {"disabled": True},
    "link-under-aria-disabled": {"disabled": True},  # inherited, as in Chromium
    "re-enabled": {},  # the nearest aria-disabled wins
    "btn-enabled": {},
    # expanded
    "summary-closed": {"expanded": False},
    "summary-open": {"expanded": True},
    "menu-open": {"expanded": True},
    "menu-closed": {"expanded": False},
    "popover-invoker": {"expanded": False},
    # selected / pressed
    "tab-selected": {"selected": True},
    "tab-other": {},
    "toggle-on": {"pressed": True},
    "toggle-off": {"pressed": False},
    "toggle-mixed": {"pressed": "mixed"},
    # required / invalid / readonly
    "required-field": {"required": True},  # empty but untouched: required, not invalid
    "aria-required-field": {"required": True},
    "aria-invalid-field": {"invalid": True},
    "spelling-field": {"invalid": True},
    "bad-email": {"invalid": True},
    "pattern-field": {"invalid": True},
    "touched-required": {"required": True},
    "valid-email": {},
    "readonly-field": {"readonly": True},
    "readonly-textarea": {"readonly": True},
    "readonly-checkbox": {},  # readonly does not apply to checkboxes
    "aria-readonly-box": {"readonly": True},
    "focus-me": {},
}


async def test_control_states(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}{STATES}")
    states = await _states(page)
    assert states == EXPECTED_STATES


async def test_states_follow_the_page(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}{STATES}")
    pw = page.playwright_page
    await pw.fill("#touched", "x")
    await pw.fill("#touched", "")
    await pw.focus("#focus-me")
    await pw.evaluate(
        """() => {
          document.getElementById('pop').showPopover();
          document.querySelector('details').open = true;
          document.querySelector('[aria-label=cb-checked]').checked = false;
          document.getElementById('mixed').indeterminate = false;
        }"""
    )
    states = await _states(page)
    assert states["touched-required"] == {"required": True, "invalid": True}
    assert states["focus-me"] == {"focused": True}
    assert states["popover-invoker"] == {"expanded": True}
    assert states["summary-closed"] == {"expanded": True}
    assert states["cb-checked"] == {}
    assert states["cb-mixed"] == {}


async def test_semantic_state_strings(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}{STATES}")
    tree = await page.semantic_tree(include_offscreen=True)
    flags = {n.n: n.s for n in tree.interactive_tree}
    assert flags["cb-mixed"] == "mixed"
    assert flags["summary-closed"] == "collapsed"
    assert flags["in-disabled-fieldset"] == "disabled"
    assert flags["toggle-on"] == "pressed"
    assert flags["bad-email"] == "invalid"
    assert flags["btn-enabled"] is None


EXPECTED_REGIONS: dict[str, str | None] = {
    "in-banner": "banner",
    "in-primary-nav": "navigation: Primary",
    "in-unnamed-nav": "navigation",
    "in-role-search": "search",
    "in-search-element": "search",
    "in-article-header": "main",  # a header inside an article is not the banner
    "in-article-footer": "main",  # nor is its footer the contentinfo
    "in-named-section": "region: Latest news",
    "in-labelledby-section": "region: Reviews",
    "in-unnamed-section": "main",
    "in-unnamed-region": "main",  # an unnamed region is no landmark
    "in-unnamed-form": "form",
    "in-named-form": "form: Newsletter",
    "in-dialog": "dialog: Share",
    "in-main": "main",
    "in-aside": "complementary",
    "in-footer": "contentinfo",
    "outside-landmarks": None,
    "in-shadow": "navigation: Shadow nav",
}


async def test_regions(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}{REGIONS}")
    model = await page.interaction_model()
    assert {c.name: c.region for c in model.controls} == EXPECTED_REGIONS
    assert model.regions == [
        "banner", "navigation: Primary", "navigation", "search", "main", "region: Latest news",
        "region: Reviews", "form", "form: Newsletter", "dialog: Share", "complementary",
        "contentinfo", "navigation: Shadow nav",
    ]  # fmt: skip


async def test_regions_are_computed_afresh_each_capture(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}{REGIONS}")
    await page.interaction_model()
    await page.playwright_page.evaluate(
        """() => {
          document.querySelector('nav[aria-label=Primary]').setAttribute('aria-label', 'Top');
          document.querySelector('aside').appendChild(document.querySelector('a[href="/m"]'));
        }"""
    )
    regions = {c.name: c.region for c in (await page.interaction_model()).controls}
    assert regions["in-primary-nav"] == "navigation: Top"
    assert regions["in-main"] == "complementary"


# ---- stable ids

BUTTONS = """<!doctype html><title>ids</title>
<div id="box"><button id="save">Save</button><button>Cancel</button></div>
<a href="/next">Next</a>"""


async def _ids(page: pagelens.Page) -> dict[str, str]:
    return {c.name: c.id for c in (await page.interaction_model()).controls}


async def test_the_control_cap_keeps_visible_controls_first(page: pagelens.Page) -> None:
    """Over maxControls: visible controls first, then those in the viewport, then the rest,
    each in document order; what is kept is listed in document order."""
    await page.set_content(
        "<!doctype html><body style='margin:0'>"
        "<button style='opacity:0'>hidden-top</button><button>top-1</button>"
        "<div style='height:3000px'></div>"
        "<button>below-1</button><button style='opacity:0'>hidden-below</button><button>below-2</button>"
        "<button>below-3</button></body>"
    )
    three = await page.interaction_model({"maxControls": 3})
    assert [c.name for c in three.controls] == ["top-1", "below-1", "below-2"]
    five = await page.interaction_model({"maxControls": 5})
    assert [c.name for c in five.controls] == ["hidden-top", "top-1", "below-1", "below-2", "below-3"]
    assert five.truncated and five.total_controls == 6


async def test_ids_are_stamped_once_and_shared_by_every_view(page: pagelens.Page) -> None:
    await page.set_content(BUTTONS)
    ids = await _ids(page)
    assert sorted(ids.values(), key=int) == ["1", "2", "3"]
    stamped = await page.playwright_page.evaluate(
        "Array.from(document.querySelectorAll('[data-llm-id]'), (e) => [e.textContent, e.dataset.llmId])"
    )
    assert dict(stamped) == ids
    semantic = await page.semantic_tree()
    assert {n.n: n.i for n in semantic.interactive_tree} == ids
    skeleton = await page.skeleton()
    for id_ in ids.values():
        assert f'data-llm-id="{id_}"' in skeleton.html
    assert await _ids(page) == ids


async def test_a_copy_takes_over_only_the_id_of_a_gone_identical_element(
    page: pagelens.Page,
) -> None:
    await page.set_content(BUTTONS)
    ids = await _ids(page)
    pw = page.playwright_page
    # Same markup again (the attribute is serialised along): the same controls.
    await pw.evaluate("const box = document.getElementById('box'); box.innerHTML = box.innerHTML")
    assert await _ids(page) == ids
    # A copy whose content changed is another control: it gets an id of its own.
    await pw.evaluate(
        "const box = document.getElementById('box');box.innerHTML = box.innerHTML.replace('>Cancel<', '>Delete<')"
    )
    after = await _ids(page)
    assert after["Delete"] not in ids.values()
    assert after["Next"] == ids["Next"]


async def test_a_new_world_adopts_the_stamped_ids(page: pagelens.Page) -> None:
    await page.set_content(BUTTONS)
    ids = await _ids(page)
    # A second Page over the same tab has its own CDP session, hence a new isolated world.
    other = pagelens.Page(page.playwright_page)
    assert await _ids(other) == ids
    await page.playwright_page.evaluate("document.body.insertAdjacentHTML('beforeend', '<button>Later</button>')")
    later = await _ids(other)
    assert later["Later"] not in ids.values()
    assert {k: v for k, v in later.items() if k != "Later"} == ids


async def test_an_id_never_resolves_to_a_stale_copy(page: pagelens.Page) -> None:
    """Once its element is gone an id resolves to nothing, even when another element
    carries a copy of the attribute (here: a different button)."""
    await page.set_content(BUTTONS)
    ids = await _ids(page)
    world = await page.main_world()
    assert await world.element_object(ids["Save"])
    await page.playwright_page.evaluate(
        f"""() => {{
          const save = document.getElementById('save');
          const other = document.createElement('button');
          other.textContent = 'Pay now';
          other.setAttribute('data-llm-id', '{ids["Save"]}');
          save.replaceWith(other);
        }}"""
    )
    assert await world.element_object(ids["Save"]) is None
