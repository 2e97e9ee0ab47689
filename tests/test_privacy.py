"""Privacy: form values stay in the page unless asked for, and the values (and
lengths) of passwords, one-time codes, card fields and hidden inputs never leave it, in
any view, whatever the options."""

from __future__ import annotations

import json
from typing import Any

import pytest

import pagelens
from pagelens.engine.models import VIEWS, PageModel, SemanticView

# What the user typed into ordinary fields: hidden unless include_values.
ORDINARY = {
    "#name": "TypedNameAlpha",
    "#email": "typed.bravo@example.org",
    "#notes": "TypedNotesCharlie " + "lorem ipsum " * 30,
}
# Sensitive fields: never shown.
SENSITIVE = {
    "#password": "TypedPasswordDelta",
    "#otp": "TypedOtpEcho",
    "#card": "4111222233334444",
    "#cvc": "987",
    "#pin": "TypedPinFoxtrot",
}
PREFILLED_PASSWORD = "PrefilledSecret42"  # in the HTML as the password's value attribute
HIDDEN_TOKEN = "HiddenTokenValue77"  # an <input type=hidden>
COMMENT = "TypedCommentGolf"  # typed into a contenteditable textbox

NEVER = [*SENSITIVE.values(), PREFILLED_PASSWORD, HIDDEN_TOKEN]
TYPED = [*(v.split()[0] for v in ORDINARY.values()), COMMENT]


@pytest.fixture
async def filled(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    pw = page.playwright_page
    await pw.goto(f"{fixtures_url}privacy/form.html")
    for selector, value in {**ORDINARY, **SENSITIVE}.items():
        await pw.fill(selector, value)
    await pw.click("#comment")
    await pw.keyboard.type(COMMENT)
    await pw.click("h1")  # focus elsewhere: nothing is special about the last field
    return page


async def all_views(page: pagelens.Page, **options: Any) -> dict[str, str]:
    """Every view (and the semantic tree with off-screen nodes) as JSON text."""
    out = {mode: (await page.snapshot(mode, **options)).model_dump_json() for mode in VIEWS}
    out["semantic+offscreen"] = (
        await page.snapshot("semantic", include_offscreen=True, include_boxes=True, **options)
    ).model_dump_json()
    return out


def leaks(views: dict[str, str], secrets: list[str]) -> list[tuple[str, str]]:
    return [(mode, s) for mode, text in views.items() for s in secrets if s in text]


def controls_by_label(model: PageModel) -> dict[str, Any]:
    return {c.name: c for c in model.controls}


async def test_typed_values_stay_in_the_page_by_default(filled: pagelens.Page) -> None:
    views = await all_views(filled)
    assert leaks(views, NEVER + TYPED) == []
    # The page really holds them: the check could fail.
    assert await filled.playwright_page.input_value("#name") == ORDINARY["#name"]
    assert COMMENT in await filled.playwright_page.inner_text("#comment")


async def test_interaction_model_lengths_but_no_values(filled: pagelens.Page) -> None:
    model = await filled.interaction_model()
    controls = controls_by_label(model)
    assert controls["Full name"].value_len == len(ORDINARY["#name"])
    assert controls["Email"].value_len == len(ORDINARY["#email"])
    assert controls["Notes"].value_len == len(ORDINARY["#notes"])
    for control in model.controls:
        assert control.value is None, control
    for label in ("Password", "Prefilled password", "PIN"):
        assert controls[label].value is None and controls[label].value_len is None, label
    names = " ".join(controls)
    assert "TypedPin" not in names and "TypedPassword" not in names


async def test_include_values_shows_ordinary_values_capped_never_secrets(filled: pagelens.Page) -> None:
    model = await filled.interaction_model({"includeValues": True})
    controls = controls_by_label(model)
    assert controls["Full name"].value == ORDINARY["#name"]
    notes = controls["Notes"].value
    assert notes is not None and len(notes) <= 200 < len(ORDINARY["#notes"])
    assert ORDINARY["#notes"].startswith(notes.rstrip("…").rstrip())
    for label in ("Password", "Prefilled password", "PIN", "One-time code", "Card number", "Security code"):
        assert controls[label].value is None, label
    for label in ("Password", "Prefilled password", "PIN"):
        assert controls[label].value_len is None, label
    views = await all_views(filled, include_values=True)
    assert leaks(views, NEVER) == []
    assert ORDINARY["#name"] in views["interaction"]  # the values asked for are there


async def test_semantic_values_only_when_asked_never_sensitive(filled: pagelens.Page) -> None:
    plain = await filled.semantic_tree(include_offscreen=True)
    assert all(node.v is None for node in plain.interactive_tree)
    tree = await filled.semantic_tree(include_values=True, include_offscreen=True)
    assert isinstance(tree, SemanticView)
    values = {node.n: node.v for node in tree.interactive_tree}
    assert values["Full name"] == ORDINARY["#name"]
    assert values["Comment"] is not None and COMMENT in values["Comment"]
    for label in ("Password", "Prefilled password", "PIN", "One-time code", "Card number", "Security code"):
        assert values[label] is None, label
    assert not any(HIDDEN_TOKEN in (v or "") for v in values.values())


async def test_summaries_and_skeleton_never_carry_typed_values(filled: pagelens.Page) -> None:
    for options in ({}, {"include_values": True}):
        for mode in ("compact", "full", "skeleton"):
            text = (await filled.snapshot(mode, **options)).model_dump_json()
            assert [s for s in NEVER + TYPED if s in text] == [], (mode, options)


async def test_a_password_used_as_a_label_is_not_read_out(filled: pagelens.Page) -> None:
    # The Pay button is labelled by a span and the password field; the checkbox's label
    # holds the PIN field. Accessible-name rules would embed their values.
    model = await filled.interaction_model({"includeValues": True})
    text = json.dumps([c.name for c in model.controls])
    assert SENSITIVE["#password"] not in text and SENSITIVE["#pin"] not in text
    pay = [c for c in model.controls if c.role == "button"]
    assert pay and pay[0].name.startswith("Pay now")
