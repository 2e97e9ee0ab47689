"""Privacy: form values stay in the page unless asked for, and the values (and
lengths) of passwords, one-time codes, card fields, bank accounts, national ids and
hidden inputs never leave it, in any view, whatever the options; password fields say
they are one; e-mail addresses and phone numbers are masked unless asked for."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import pagelens
from bench.corpus import pages_of_kind
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
    for include_values in (None, True):  # the default, then asked for
        for mode in ("compact", "full", "skeleton"):
            text = (await filled.snapshot(mode, include_values=include_values)).model_dump_json()
            assert [s for s in NEVER + TYPED if s in text] == [], (mode, include_values)


async def test_a_password_used_as_a_label_is_not_read_out(filled: pagelens.Page) -> None:
    # The Pay button is labelled by a span and the password field; the checkbox's label
    # holds the PIN field. Accessible-name rules would embed their values.
    model = await filled.interaction_model({"includeValues": True})
    text = json.dumps([c.name for c in model.controls])
    assert SENSITIVE["#password"] not in text and SENSITIVE["#pin"] not in text
    pay = [c for c in model.controls if c.role == "button"]
    assert pay and pay[0].name.startswith("Pay now")


# ---- secrets told by their words (docs/privacy.md#sensitive-fields)

# Fields with no autocomplete and ordinary types that say what they hold by a label,
# name, placeholder or aria-labelledby, in several languages.
WORDY_SECRETS = {
    "#de-card": "4000123412341234",
    "#cvv": "321",
    "#sec": "654",
    "#iban": "DE89370400440532013000",
    "#ssn": "078051120",
    "#fr-card": "5500111122223333",
    "#pn": "198112189876",
    "#es-card": "6011000990139424",
    "#secret-pass": "TypedPassLima",
}
# Look-alike words ("recovery" holds no "cvv", a "Cc" field is an address): ordinary.
LOOK_ALIKES = {
    "#recovery": "RecoveryQuebec",
    "#cc": "CcRomeo",
    "#discover": "DiscoverSierra",
    "#holder": "HolderTango",
}


@pytest.fixture
async def secrets(page: pagelens.Page, fixtures_url: str) -> pagelens.Page:
    pw = page.playwright_page
    await pw.goto(f"{fixtures_url}privacy/secrets.html")
    for selector, value in {**WORDY_SECRETS, **LOOK_ALIKES}.items():
        await pw.fill(selector, value)
    return page


async def test_secret_fields_are_found_by_their_words(secrets: pagelens.Page) -> None:
    views = await all_views(secrets, include_values=True)
    assert leaks(views, list(WORDY_SECRETS.values())) == []
    model = await secrets.interaction_model({"includeValues": True})
    by_id = {await _dom_id(secrets, c.id): c for c in model.controls}
    for selector in WORDY_SECRETS:
        control = by_id[selector[1:]]
        assert control.value is None and control.value_len is None, selector
    for selector, value in LOOK_ALIKES.items():
        assert by_id[selector[1:]].value == value, selector  # asked for, and not secret
    # The page really holds them: the check could fail.
    for selector, value in WORDY_SECRETS.items():
        assert await secrets.playwright_page.input_value(selector) == value


async def _dom_id(page: pagelens.Page, element_id: str) -> str:
    return await page.playwright_page.get_attribute(f'[data-llm-id="{element_id}"]', "id") or ""


# ---- passwords say so in every view


async def test_a_password_field_says_so_in_every_view(filled: pagelens.Page) -> None:
    model = await filled.interaction_model()
    controls = controls_by_label(model)
    for label in ("Password", "Prefilled password", "PIN"):
        assert controls[label].states.password is True, label
    for label in ("Full name", "Email", "One-time code", "Card number"):
        assert controls[label].states.password is None, label
    tree = await filled.semantic_tree(include_offscreen=True)
    states = {node.n: (node.s or "").split(",") for node in tree.interactive_tree}
    assert "password" in states["PIN"] and "password" in states["Password"]
    assert "password" not in states["Full name"]
    full = await filled.summary("full")
    fields = [field for form in full.forms for field in form.fields]
    assert "PIN (password)" in fields and "Password" in fields and "Full name" in fields
    pin = controls["PIN"].id
    skeleton = (await filled.skeleton()).html
    assert re.search(rf'<input data-llm-id="{pin}"[^>]* type="password"', skeleton), skeleton
    dom = (await filled.snapshot("dom")).model_dump()["html"]
    assert re.search(rf'<input id="pin" type="password"[^>]* data-llm-id="{pin}"', dom), dom


async def test_a_text_field_that_says_password_is_one(secrets: pagelens.Page) -> None:
    model = await secrets.interaction_model()
    by_id = {await _dom_id(secrets, c.id): c for c in model.controls}
    assert by_id["secret-pass"].states.password is True
    assert by_id["holder"].states.password is None and by_id["cvv"].states.password is None


# ---- contact details masked in every view (docs/privacy.md#contact-details)

CONTACTS = [
    "office.lima@example.org",
    "help.mike@example.org",
    "sales.november@example.org",
    "you.oscar@example.org",
    "+44 20 7946 0958",
    "(555) 123-4567",
    "415-555-0199",
    "+14155550199",
]
NOT_PHONES = ["2019", "1,500", "2.10.3", "1234567"]


async def test_contact_details_are_masked_in_every_view(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}privacy/contacts.html")
    views = await all_views(page)
    assert leaks(views, CONTACTS) == []
    model = await page.interaction_model()
    assert "h1: Write to [email]" in model.headings and "h2: Or call [phone]" in model.headings
    names = {c.name for c in model.controls}
    assert {"[email]", "Call [phone]", "Email [email]"} <= names, names
    mail = next(c for c in model.controls if c.name == "Email [email]")
    # A selector by its aria-label would repeat the address: a path names it instead.
    assert mail.selector and not leaks({"selector": mail.selector}, CONTACTS), mail.selector
    assert await page.playwright_page.locator(mail.selector).count() == 1
    full = await page.summary("full")
    assert {"text": "[email]", "href": "mailto:[email]"} in [link.model_dump() for link in full.nav_links]
    dom = views["dom"]
    assert all(number in dom for number in NOT_PHONES)  # years, prices, versions, counts stay
    # An agent acting on the name a view showed finds the element.
    world = await page.main_world()
    found = await world.call("find", {"kind": "text", "value": "Email [email]"})
    assert found["status"] == "ok" and found["id"] == mail.id


async def test_masking_can_be_turned_off(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}privacy/contacts.html")
    views = await all_views(page, mask_contact_details=False)
    for mode in ("interaction", "semantic+offscreen", "skeleton", "dom", "full"):
        assert "help.mike@example.org" in views[mode] or "office.lima@example.org" in views[mode], mode
    model = await page.interaction_model({"maskContactDetails": False})
    assert "h1: Write to help.mike@example.org" in model.headings
    assert "Email sales.november@example.org" in {c.name for c in model.controls}
    assert "(555) 123-4567" in (await page.summary("full", mask_contact_details=False)).main_content_preview


# ---- real login and registration forms


# Every text field gets a marker of its own; a password's, a hidden field's and a
# one-time code's or card's (by autocomplete) must never show, the others not in the
# views that never show typed text.
FILL_FIELDS_JS = """() => {
  const secret = [], typed = [];
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const textTypes = ['', 'text', 'email', 'tel', 'number', 'search', 'url', 'password'];
  document.querySelectorAll('input, textarea').forEach((el, i) => {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (el.localName === 'input' && !textTypes.includes(type)) return;
    const marker = `Mark${i}Zulu${type === 'number' ? '' : 'x'}`;
    if (el.localName === 'textarea') el.value = marker; else setter.call(el, marker);
    const autocomplete = (el.getAttribute('autocomplete') || '').toLowerCase();
    (type === 'password' || /cc-|one-time-code/.test(autocomplete) ? secret : typed).push(marker);
  });
  return { secret, typed };
}"""


@pytest.mark.corpus
async def test_no_secret_of_a_real_form_leaves_the_page(browser: pagelens.Browser, corpus_url: str) -> None:
    pages = pages_of_kind("login", "form")
    assert len(pages) >= 40
    checked = passwords = 0
    for corpus_page in pages:
        page = await browser.new_page()
        try:
            await page.goto(corpus_page.path(corpus_url))
            markers = await page.playwright_page.evaluate(FILL_FIELDS_JS)
            views = await all_views(page, include_values=True)
            assert leaks(views, markers["secret"]) == [], corpus_page.id
            plain = {
                mode: (await page.snapshot(mode)).model_dump_json() for mode in ("compact", "full", "skeleton", "dom")
            }
            assert leaks(plain, markers["secret"] + markers["typed"]) == [], corpus_page.id
            model = await page.interaction_model()
            for control in model.controls:
                if control.type == "password":
                    passwords += 1
                    assert control.states.password is True, (corpus_page.id, control.name)
            checked += bool(markers["secret"])
        finally:
            await page.close()
    assert checked >= 20 and passwords >= 20, (checked, passwords)  # the pages really had secrets
