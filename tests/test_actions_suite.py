"""The interaction suite: local fixture pages, each solved only through
Session.interact, with element ids taken from Session.analyze as an agent would. Real
Chromium, real HTTP, real mouse and keyboard input."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import pagelens
from pagelens.actions import Session
from tests.actions_helpers import go, ids

pytest_plugins = ["tests.actions_support"]  # the `site` and `session` fixtures


async def test_login_form(session: Session, site: str) -> None:
    await go(session, f"{site}login.html")
    field = await ids(session)
    typed = await session.interact({"action": "type", "element_id": field["Email"], "text": "ada@example.com"})
    assert typed["success"] is True and typed["element_id"] == field["Email"]
    await session.interact({"action": "set_value", "element_id": field["Password"], "value": "wrong"})
    refused = await session.interact({"action": "click", "element_id": field["Sign in"]})
    assert refused["success"] is True
    seen = refused["observations"]
    assert seen["recent_events"] == ["Invalid email or password"]
    assert seen["has_errors"] is True and seen["has_success"] is False
    assert seen["url_changed"] is False and seen["dom_mutated"] is True and seen["element_found"] is True
    await session.interact({"action": "set_value", "element_id": field["Password"], "value": "correct horse"})
    entered = await session.interact({"action": "press", "element_id": field["Password"], "key": "Enter"})
    assert entered["url"] == f"{site}welcome.html?user=ada%40example.com"
    assert entered["observations"]["url_changed"] is True
    assert entered["summary"]["title"] == "Welcome · Acme"  # a key press that navigates summarises
    assert entered["summary"]["headings"] == ["h1: Welcome back"]


async def test_search_then_results(session: Session, site: str) -> None:
    landing = await session.interact({"action": "navigate", "url": f"{site}search.html"})
    search_button = landing["summary"]["primary_actions"][0]["selector"]  # as the summary gave it
    await session.interact({"action": "type", "selector": "placeholder=Search books", "text": "whales"})
    result = await session.interact({"action": "click", "selector": search_button})
    assert result["success"] is True
    assert result["url"] == f"{site}results.html?q=whales"
    assert result["observations"]["network_requests"] >= 1
    assert result["summary"]["type"] == "search_results"
    assert result["summary"]["headings"] == ["h1: Results"]
    opened = await session.interact({"action": "click", "selector": "role=link[name='whales volume 3']"})
    assert opened["url"] == f"{site}book.html?n=3" and opened["summary"]["title"] == "Book"


async def test_native_select_and_a_scripted_dropdown(session: Session, site: str) -> None:
    await go(session, f"{site}dropdown.html")
    control = await ids(session)
    by_label = await session.interact({"action": "select", "element_id": control["Size"], "value": "Large"})
    assert by_label["success"] is True
    assert by_label["observations"]["recent_events"] == ["Size: Large, colour: -"]
    by_value = await session.interact({"action": "select", "selector": "label=Size", "value": "m"})
    assert by_value["observations"]["recent_events"] == ["Size: Medium, colour: -"]
    missing = await session.interact({"action": "select", "element_id": control["Size"], "value": "XXL"})
    assert missing["success"] is False and missing["error"] == "option_not_found"
    assert "'Small'" in missing["message"]
    scripted = await session.interact({"action": "select", "element_id": control["Pick a colour"], "value": "Green"})
    assert scripted["success"] is True
    assert scripted["observations"]["recent_events"] == ["Size: Medium, colour: Green"]


async def test_select_acts_on_dropdowns_only_and_closes_one_without_the_option(session: Session, site: str) -> None:
    await go(session, f"{site}dropdown.html")
    control = await ids(session)
    box = await session.interact({"action": "select", "element_id": control["Gift box"], "value": "x"})
    assert box["success"] is False and box["error"] == "not_selectable" and "checkbox" in box["message"]
    heading = await session.interact({"action": "select", "selector": "h1", "value": "Order"})
    assert heading["success"] is False and heading["error"] == "not_selectable"
    page = await session.page()
    assert await page.evaluate("[window.clicks, document.getElementById('gift').checked]") == [0, False]
    purple = await session.interact({"action": "select", "element_id": control["Pick a colour"], "value": "Purple"})
    assert purple["success"] is False and purple["error"] == "option_not_found" and "'Purple'" in purple["message"]
    assert await page.evaluate("document.getElementById('colours').hidden") is True  # closed again
    # A framework's dropdown, no ARIA but aria-expanded on its toggle: its links are the entries.
    rating = await session.interact({"action": "select", "element_id": control["Sort by"], "value": "Rating"})
    assert rating["success"] is True, rating
    assert await page.evaluate("document.getElementById('sort').textContent") == "Sorted by Rating"


async def test_checkbox_and_radio_groups(session: Session, site: str) -> None:
    await go(session, f"{site}choices.html")
    box = await ids(session)
    assert (await session.interact({"action": "check", "element_id": box["News"]}))["success"]
    again = await session.interact({"action": "check", "element_id": box["News"]})
    assert again["success"] is True and "already checked" in again["message"]
    assert (await session.interact({"action": "uncheck", "element_id": box["Sport"]}))["success"]
    # A custom-styled box whose input is invisible: its label takes the click.
    fancy = await session.interact({"action": "check", "selector": "label=Music"})
    assert fancy["success"] is True, fancy
    assert (await session.interact({"action": "check", "element_id": box["Weekly"]}))["success"]
    refused = await session.interact({"action": "uncheck", "element_id": box["Weekly"]})
    assert refused["success"] is False and refused["error"] == "not_checkable"
    saved = await session.interact({"action": "click", "element_id": box["Save preferences"]})
    assert saved["observations"]["recent_events"] == ["Preferences saved: news, music (weekly)"]
    assert saved["observations"]["has_success"] is True


async def test_a_modal_occludes_the_button_until_closed(session: Session, site: str) -> None:
    await go(session, f"{site}modal.html")
    button = await ids(session)
    blocked = await session.interact({"action": "click", "element_id": button["Buy now"]})
    assert blocked["success"] is False
    assert blocked["error"] == "occluded"
    assert "div#overlay" in blocked["covering"] and "No thanks" in blocked["covering"]
    await session.interact({"action": "click", "element_id": button["No thanks"]})
    bought = await session.interact({"action": "click", "element_id": button["Buy now"]})
    assert bought["success"] is True
    assert bought["observations"]["recent_events"] == ["Added to your basket"]


async def test_a_single_page_app_route_change_is_summarised(session: Session, site: str) -> None:
    await go(session, f"{site}spa.html")
    link = await ids(session)
    routed = await session.interact({"action": "click", "element_id": link["About us"]})
    assert routed["url"] == f"{site}spa/about"
    assert routed["observations"]["url_changed"] is True
    assert routed["observations"]["network_requests"] == 0  # pushState: no document loaded
    assert routed["summary"]["title"] == "Atlas · About"
    assert routed["summary"]["headings"] == ["h1: About Atlas"]  # rendered after the route changed
    home = await session.interact({"action": "back"})
    assert home["url"] == f"{site}spa.html" and home["summary"]["headings"] == ["h1: Welcome to Atlas"]


async def test_a_link_that_opens_a_new_tab(session: Session, site: str) -> None:
    start = await go(session, f"{site}newtab.html")
    link = await ids(session)
    clicked = await session.interact({"action": "click", "element_id": link["Open the book in a new tab"]})
    new_tab = clicked["observations"]["new_tab"]
    assert new_tab is not None and new_tab != start["tab_id"]
    assert clicked["url"] == f"{site}newtab.html"  # this tab stayed where it was
    switched = await session.interact({"action": "switch_tab", "tab_id": new_tab})
    assert switched["url"] == f"{site}book.html" and switched["title"] == "Book"
    assert (await session.interact({"action": "close_tab"}))["success"]
    back = await session.interact({"action": "list_tabs"})
    assert [t["tab_id"] for t in back["tabs"] if t["active"]] == [start["tab_id"]]


async def test_alert_confirm_and_prompt(session: Session, site: str) -> None:
    await go(session, f"{site}dialogs.html")
    button = await ids(session)
    alerted = await session.interact({"action": "click", "element_id": button["Say hello"]})
    assert alerted["success"] is True
    assert alerted["observations"]["dialog"] == {
        "type": "alert",
        "message": "Hello there",
        "handled": "pending",
    }
    ok = await session.interact({"action": "handle_dialog"})
    assert ok["observations"]["dialog"]["handled"] == "accepted"
    assert ok["observations"]["recent_events"] == ["Greeted"]
    await session.interact({"action": "click", "element_id": button["Delete item"]})
    kept = await session.interact({"action": "handle_dialog", "value": "dismiss"})
    assert kept["observations"]["recent_events"] == ["Item kept"]
    await session.interact({"action": "click", "element_id": button["Delete item"]})
    deleted = await session.interact({"action": "handle_dialog", "value": "accept"})
    assert deleted["observations"]["recent_events"] == ["Item deleted"]
    prompted = await session.interact({"action": "click", "element_id": button["Rename item"]})
    assert prompted["observations"]["dialog"]["default_value"] == "item"
    renamed = await session.interact({"action": "handle_dialog", "text": "kettle"})
    assert renamed["observations"]["recent_events"] == ["Renamed to kettle"]


async def test_an_unanswered_dialog_never_wedges_the_next_call(session: Session, site: str) -> None:
    await go(session, f"{site}dialogs.html")
    button = await ids(session)
    await session.interact({"action": "click", "element_id": button["Delete item"]})
    # The agent ignores the confirm and reads the page: the policy dismisses it first.
    view = await session.analyze({"what": "semantic"})
    assert view.data["dialog"] == {
        "type": "confirm",
        "message": "Delete this item?",
        "handled": "dismissed",
        "by": "policy",
    }
    assert "Item kept" in (await session.analyze({"what": "page_summary"})).data["main_content_preview"]
    none_open = await session.interact({"action": "handle_dialog"})
    assert none_open["success"] is False and none_open["error"] == "no_dialog"


async def test_an_element_re_rendered_between_observe_and_act_is_healed(session: Session, site: str) -> None:
    await go(session, f"{site}rerender.html")
    seen = await ids(session)
    await session.interact({"action": "click", "element_id": seen["Refresh prices"]})  # replaces the nodes
    healed = await session.interact({"action": "click", "element_id": seen["Add to basket"]})
    assert healed["success"] is True
    assert healed["healed"] is True and healed["old_id"] == seen["Add to basket"]
    assert healed["new_id"] == healed["element_id"]
    assert healed["observations"]["recent_events"] == ["Basket: 1 item(s)"]
    # "Remove 1" became "Remove 2": no control has the old name, so nothing is guessed.
    stale = await session.interact({"action": "click", "element_id": seen["Remove 1"]})
    assert stale["success"] is False and stale["error"] == "stale_element"
    assert "Remove 2" in [c["name"] for c in stale["candidates"]]
    assert stale["message"].startswith(f"element {seen['Remove 1']} (button 'Remove 1')"), stale["message"]


async def test_an_id_from_another_page_is_not_trusted(session: Session, site: str) -> None:
    await go(session, f"{site}dialogs.html")
    delete_id = (await ids(session))["Delete item"]
    # The summary of the new page stamps its controls, numbered from 1 again: the old
    # number now names something else ("Sport"), and must not be clicked.
    moved = await session.interact({"action": "navigate", "url": f"{site}choices.html"})
    assert moved["summary"]["title"] == "Preferences"
    result = await session.interact({"action": "click", "element_id": delete_id})
    assert result["success"] is False and result["error"] == "stale_element"


async def test_an_infinite_list(session: Session, site: str) -> None:
    await go(session, f"{site}infinite.html")
    seen: list[int] = []
    for _ in range(6):  # each scroll to the bottom loads twenty more stories
        scrolled = await session.interact({"action": "scroll", "value": "bottom"})
        view = await session.analyze({"what": "interactive", "max_tokens": 50_000})  # one page, all of it
        seen.append(len(view.data["controls"]))
        if not scrolled["observations"]["dom_mutated"]:
            break
    assert seen[0] > 20 and seen[-1] == 100
    assert (await session.interact({"action": "wait_for", "text": "The end", "value": 5000}))["success"]
    story = await session.interact({"action": "click", "selector": "text=Story 87"})
    assert story["url"] == f"{site}book.html?n=87"


async def test_typing_replacing_clearing_and_uploading(session: Session, site: str, tmp_path: Path) -> None:
    await go(session, f"{site}form.html")
    field = await ids(session)
    await session.interact({"action": "type", "element_id": field["Full name"], "text": "Ada"})
    appended = await session.interact({"action": "type", "element_id": field["Full name"], "text": " Lovelace"})
    assert appended["observations"]["recent_events"] == ["name=Ada Lovelace"]
    replaced = await session.interact({"action": "set_value", "element_id": field["Full name"], "value": "Grace"})
    assert replaced["observations"]["recent_events"] == ["name=Grace"]
    chord = await session.interact({"action": "press", "element_id": field["Full name"], "key": "ctrl+a"})
    assert chord["success"] is True
    typed_over = await session.interact({"action": "type", "text": "Hopper"})  # into the focused field
    assert typed_over["observations"]["recent_events"] == ["name=Hopper"]
    cleared = await session.interact({"action": "clear", "element_id": field["Full name"]})
    assert cleared["observations"]["recent_events"] == ["name="]
    dated = await session.interact({"action": "set_value", "element_id": field["Born on"], "value": "1815-12-10"})
    assert dated["observations"]["recent_events"] == ["born=1815-12-10"]
    bio = await session.interact({"action": "type", "selector": "#bio", "text": "Mathematician"})
    assert bio["observations"]["recent_events"] == ["bio=Mathematician"]
    photo = tmp_path / "portrait.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n")
    uploaded = await session.interact({"action": "upload_file", "element_id": field["Photo"], "value": str(photo)})
    assert uploaded["observations"]["recent_events"] == ["photo=portrait.png"]
    missing = await session.interact(
        {"action": "upload_file", "element_id": field["Photo"], "value": str(tmp_path / "nope")}
    )
    assert missing["success"] is False and missing["error"] == "file_not_found"


async def test_typing_needs_a_field_that_takes_the_value(session: Session, site: str) -> None:
    await go(session, f"{site}form.html")
    field = await ids(session)
    nowhere = await session.interact({"action": "type", "text": "typed nowhere"})
    assert nowhere["success"] is False and nowhere["error"] == "not_editable"
    assert "no field has the focus" in nowhere["message"]
    await session.interact({"action": "focus", "element_id": field["Double me"]})
    on_a_button = await session.interact({"action": "type", "text": "typed nowhere"})
    assert on_a_button["error"] == "not_editable" and '"Double me"' in on_a_button["message"]
    for name, value in (("Age", "abc"), ("Born on", "2020-02-30")):
        refused = await session.interact({"action": "set_value", "element_id": field[name], "value": value})
        assert refused["success"] is False and refused["error"] == "invalid_value", refused
    age = await session.interact({"action": "set_value", "element_id": field["Age"], "value": "42"})
    assert age["observations"]["recent_events"] == ["age=42"]


async def test_upload_reaches_a_file_input_or_what_opens_its_chooser(
    session: Session, site: str, tmp_path: Path
) -> None:
    await go(session, f"{site}form.html")
    field = await ids(session)
    for name, target in (
        ("a.png", {"element_id": field["Choose a photo"]}),
        ("b.png", {"selector": "label[for=photo]"}),
    ):
        photo = tmp_path / name
        photo.write_bytes(b"\x89PNG\r\n\x1a\n")
        chosen = await session.interact({"action": "upload_file", **target, "value": str(photo)})
        assert chosen.get("observations", {}).get("recent_events") == [f"photo={name}"], chosen
    started = time.monotonic()
    textbox = await session.interact({"action": "upload_file", "element_id": field["Full name"], "value": str(photo)})
    assert textbox["success"] is False and textbox["error"] == "upload_failed"
    assert "not a file input" in textbox["message"] and time.monotonic() - started < 2
    silent = await session.interact({"action": "upload_file", "element_id": field["Hover me"], "value": str(photo)})
    assert silent["success"] is False and silent["error"] == "upload_failed"
    assert "no file chooser opened" in silent["message"] and "Timeout" not in silent["message"]


async def test_pointer_actions_and_what_stops_them(session: Session, site: str) -> None:
    await go(session, f"{site}form.html")
    view = (await session.analyze({"what": "semantic"})).data["interactive_tree"]
    node = {n["n"]: n for n in view}
    doubled = await session.interact({"action": "double_click", "element_id": node["Double me"]["i"]})
    assert doubled["observations"]["recent_events"] == ["double-clicked"]
    x, y = node["Hover me"]["xy"]
    hovered = await session.interact({"action": "hover", "x": x, "y": y})
    assert hovered["observations"]["recent_events"] == ["hovered"]
    focused = await session.interact({"action": "focus", "element_id": node["About you"]["i"]})
    assert focused["success"] is True
    disabled = await session.interact({"action": "click", "element_id": node["Delete account"]["i"]})
    assert disabled["success"] is False and disabled["error"] == "disabled"
    hidden = await session.interact({"action": "click", "selector": "#hidden"})
    assert hidden["success"] is False and hidden["error"] == "not_visible"
    unknown = await session.interact({"action": "click", "element_id": "9999"})
    assert unknown["success"] is False and unknown["error"] == "not_found"
    nothing = await session.interact({"action": "click", "selector": "text=No such words anywhere"})
    assert nothing["success"] is False and nothing["error"] == "not_found"
    with pytest.raises(pagelens.InvalidRequestError):
        await session.interact({"action": "click", "selector": "button[[["})


async def test_a_control_inside_a_frame(session: Session, site: str) -> None:
    await go(session, f"{site}frame.html")
    counter = (await ids(session))["Count"]
    frame_id, _ = counter.split(".")  # the frame element's id, then the control's own
    clicked = await session.interact({"action": "click", "element_id": counter})
    assert clicked["success"] is True and clicked["element_id"] == counter
    assert clicked["observations"]["recent_events"] == ["The frame says: clicked 1"]
    by_selector = await session.interact({"action": "click", "selector": "#count", "frame": frame_id})
    assert by_selector["element_id"] == counter
    assert by_selector["observations"]["recent_events"] == ["The frame says: clicked 2"]
    for target in ({"selector": "#count", "frame": "77"}, {"element_id": "77.1"}):
        nowhere = await session.interact({"action": "click", **target})
        assert nowhere["success"] is False and nowhere["error"] == "not_found"
        assert nowhere["message"].startswith("no frame 77 on this page"), nowhere
