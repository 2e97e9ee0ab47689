"""Modern widget patterns (tests/fixtures/widgets): what the views say of ARIA tabs,
listboxes, comboboxes, menus, trees, switches, sliders, dialogs, popovers, web components
and a virtual list, and what an action's observations say it changed. Real Chromium,
real input, element ids taken from the semantic view as an agent would."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

import pagelens
from pagelens.actions import Session
from pagelens.browser.network import LOOPBACK_HOSTS
from tests.actions_helpers import act, go, nodes

PAGES = Path(__file__).parent / "fixtures" / "widgets"


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with pagelens.serve_directory(PAGES) as url:
        yield url


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with await Session.start(allowed_hosts=list(LOOPBACK_HOSTS)) as session:
        yield session


async def test_tabs_roles_states_and_a_click_reported_as_a_selection(session: Session, site: str) -> None:
    await go(session, f"{site}tabs.html")
    tab = await nodes(session)
    assert [(tab[n]["r"], tab[n].get("s")) for n in ("Profile", "Billing", "Alerts")] == [
        ("tab", "selected"),
        ("tab", None),
        ("tab", "disabled"),
    ]
    clicked = await act(session, action="click", element_id=tab["Billing"]["i"])
    seen = clicked["observations"]
    # The tab `#t-alerts` is a control, not a toast, though its id says "alerts".
    assert seen["recent_events"] == []
    # Each panel shown or hidden is told once, by its first control.
    assert seen["changes"] == [
        "Changed: tab 'Profile' not selected",
        "Removed: textbox 'Display name'",
        "Changed: tab 'Billing' selected",
        "Added: button 'Change plan'",
    ]
    after = await nodes(session)
    assert after["Billing"]["s"] == "selected,focused" and "Change plan" in after
    refused = await session.interact({"action": "click", "element_id": tab["Alerts"]["i"]})
    assert refused["error"] == "disabled"


async def test_listboxes_select_and_the_option_chosen_as_its_list_closes(session: Session, site: str) -> None:
    await go(session, f"{site}listbox.html")
    control = await nodes(session)
    assert control["Shirt size"]["r"] == "lst" and control["Medium"]["s"] == "selected"
    assert control["Extra large"]["s"] == "disabled"
    large = await act(session, action="select", element_id=control["Shirt size"]["i"], value="Large")
    assert large["observations"]["recent_events"] == ["Size: Large, colour: -"]
    assert "Changed: option 'Large' selected" in large["observations"]["changes"]
    blue = await act(session, action="select", element_id=control["Colour Choose…"]["i"], value="Blue")
    # The option is hidden by the time the change is read: still named by its text.
    assert "Changed: option 'Blue' selected" in blue["observations"]["changes"]
    assert (await nodes(session))["Colour Blue"]["s"] == "collapsed"


async def test_combobox_suggestions_by_keyboard_and_by_select(session: Session, site: str) -> None:
    await go(session, f"{site}combobox.html")
    box = (await nodes(session))["Destination"]
    assert (box["r"], box["s"]) == ("sel", "collapsed")
    typed = await act(session, action="type", element_id=box["i"], text="Be")
    assert "Changed: combobox 'Destination' expanded" in typed["observations"]["changes"]
    shown = await nodes(session)
    assert [shown[n]["r"] for n in ("Cities", "Berlin", "Bern")] == ["lst", "opt", "opt"]
    await act(session, action="press", key="ArrowDown")
    assert (await nodes(session))["Berlin"]["s"] == "selected,focused"  # the active descendant
    entered = await act(session, action="press", key="Enter")
    assert entered["observations"]["recent_events"] == ["Flying to Berlin"]
    await act(session, action="type", element_id=box["i"], text="x")  # no city: the list stays shut
    await act(session, action="clear", element_id=box["i"])
    await act(session, action="type", element_id=box["i"], text="Li")
    chosen = await act(session, action="select", element_id=box["i"], value="Lisbon")
    assert chosen["observations"]["recent_events"] == ["Flying to Lisbon"]


async def test_menu_items_tree_and_grid(session: Session, site: str) -> None:
    await go(session, f"{site}menu_tree_grid.html")
    control = await nodes(session)
    opened = await act(session, action="click", element_id=control["View"]["i"])
    assert opened["observations"]["changes"] == ["Changed: button 'View' expanded"]
    menu = await nodes(session)
    assert [(menu[n]["r"], menu[n].get("s")) for n in ("Show hidden files", "List", "Grid", "Customize…")] == [
        ("mchk", "checked"),
        ("mrad", "checked"),
        ("mrad", None),
        ("menu", "disabled"),
    ]
    grid = await act(session, action="check", element_id=menu["Grid"]["i"])
    assert grid["observations"]["changes"] == [
        "Changed: menuitemradio 'List' unchecked",
        "Changed: menuitemradio 'Grid' checked",
    ]
    await act(session, action="click", element_id=control["View"]["i"])
    expanded = await act(session, action="click", element_id=control["Documents"]["i"])
    assert expanded["observations"]["changes"] == ["Changed: treeitem 'Documents' selected, expanded"]
    tree = await nodes(session)
    assert tree["Report.pdf"]["r"] == "tree" and tree["alpha.txt"]["r"] == "cell"


async def test_switches_sliders_and_a_disclosure(session: Session, site: str) -> None:
    await go(session, f"{site}controls.html")
    control = await nodes(session, include_values=True)
    assert [control[n]["r"] for n in ("Wi-Fi", "Dark mode", "Bluetooth")] == ["sw", "sw", "sw"]
    assert control["Bluetooth"]["s"] == "disabled,checked"
    # An ARIA slider's value is in its attributes, aria-valuetext first.
    assert (control["Volume"]["r"], control["Volume"]["v"]) == ("sld", "30 percent")
    assert control["Brightness"]["v"] == "4"
    wifi = await act(session, action="click", element_id=control["Wi-Fi"]["i"])
    assert wifi["observations"]["changes"] == ["Changed: 'Wi-Fi on'", "Changed: switch 'Wi-Fi' checked"]
    # A native checkbox changes no attribute: the target's own state says it.
    dark = await act(session, action="check", element_id=control["Dark mode"]["i"])
    assert dark["observations"]["changes"] == ["Changed: switch 'Dark mode' checked"]
    await act(session, action="press", element_id=control["Volume"]["i"], key="ArrowRight")
    model = await session.analyze({"what": "interaction", "include_values": True})
    volume = next(c for c in model.data["controls"] if c["name"] == "Volume")
    assert (volume["value"], volume["value_len"]) == ("40 percent", 10)
    await act(session, action="set_value", element_id=control["Brightness"]["i"], value="8")
    assert (await nodes(session, include_values=True))["Brightness"]["v"] == "8"
    shown = await act(session, action="click", element_id=control["Advanced options"]["i"])
    # The panel it discloses is told by its first control.
    assert shown["observations"]["changes"] == [
        "Changed: button 'Advanced options' expanded",
        "Added: textbox 'Proxy'",
    ]


async def test_icon_buttons_labels_and_editable_regions(session: Session, site: str) -> None:
    await go(session, f"{site}controls.html")
    control = await nodes(session)
    for name in ("Delete item", "Archive", "Share", "Print page"):
        assert control[name]["r"] == "btn"
    assert control["Help"]["r"] == "link"
    assert [control[n]["r"] for n in ("Departure date", "Avatar", "Billing postcode")] == ["date", "file", "inp"]
    await act(session, action="type", element_id=control["Message body"]["i"], text="Hello there")
    await act(session, action="set_value", element_id=control["Departure date"]["i"], value="2025-03-14")
    values = await nodes(session, include_values=True)
    assert values["Message body"]["v"] == "Hello there" and values["Departure date"]["v"] == "2025-03-14"


async def test_a_modal_dialog_and_a_popover_are_observed(session: Session, site: str) -> None:
    await go(session, f"{site}overlays.html")
    control = await nodes(session)
    opened = await act(session, action="click", element_id=control["Rename project"]["i"])
    assert opened["observations"]["changes"] == ["Added: dialog 'Rename project'"]
    behind = await session.interact({"action": "click", "element_id": control["Other action"]["i"]})
    assert behind["error"] == "occluded"
    dialog = await nodes(session)
    await act(session, action="type", element_id=dialog["New name"]["i"], text="Gemini")
    saved = await act(session, action="click", element_id=dialog["Save"]["i"])
    assert saved["observations"]["changes"][0] == "Changed: 'Name: Gemini'"
    assert saved["observations"]["changes"][1].startswith("Removed: dialog 'Rename project")
    # Showing a popover changes no attribute: its invoker's state says it opened.
    tips = await act(session, action="click", element_id=control["Tips"]["i"])
    assert tips["observations"]["changes"] == ["Changed: button 'Tips' expanded"]
    assert "Got it" in await nodes(session)


async def test_web_components_are_acted_on_and_observed(session: Session, site: str) -> None:
    await go(session, f"{site}components.html")
    control = await nodes(session)
    toggled = await act(session, action="click", element_id=control["Gift wrap"]["i"])
    # The switch lives in a shadow root, which an observer of the document alone misses.
    assert toggled["observations"]["dom_mutated"] is True
    assert toggled["observations"]["changes"] == ["Changed: switch 'Gift wrap' checked"]
    added = await act(session, action="click", selector="role=button[name='Add one']")
    assert added["observations"]["recent_events"] == ["Added one mug"]


async def test_rows_scrolled_out_of_their_list_are_off_screen(session: Session, site: str) -> None:
    await go(session, f"{site}components.html")
    rows = await nodes(session)
    # Ten rows fit the list's 200 px; the eleventh is rendered below its bottom edge.
    assert "Order #10" in rows and "Order #11" not in rows
    everything = await nodes(session, include_offscreen=True)
    assert "occ" not in everything["Order #11"]
    await act(session, action="scroll", selector="#vlist", value="bottom")
    last = await act(session, action="click", selector="role=button[name='Order #1000']")
    assert last["observations"]["recent_events"] == ["Opened order 1000"]


async def test_right_to_left_form(session: Session, site: str) -> None:
    await go(session, f"{site}rtl.html")
    control = await nodes(session)
    assert control["الاسم الكامل"]["s"] == "required" and control["עיר"]["r"] == "inp"
    ticked = await act(session, action="check", element_id=control["أوافق على الشروط"]["i"])
    assert ticked["observations"]["changes"] == ["Changed: checkbox 'أوافق على الشروط' checked"]
    await act(session, action="type", element_id=control["الاسم الكامل"]["i"], text="ليلى")
    sent = await act(session, action="click", element_id=control["إرسال"]["i"])
    assert sent["observations"]["recent_events"] == ["تم الحفظ"]


async def test_a_row_half_scrolled_out_of_its_list_is_in_view_not_covered(session: Session, site: str) -> None:
    await go(session, f"{site}scroll_list.html")
    inbox = await session.analyze({"what": "semantic", "include_boxes": True})
    rows = {node["n"]: node for node in inbox.data["interactive_tree"]}
    # The list shows the top 15 px of row 6, whose centre it clips: the list is no cover.
    assert "occ" not in rows["Message 6"] and "Message 7" not in rows
    top, height = rows["Message 6"]["box"][1], rows["Message 6"]["box"][3]
    assert top < rows["Message 6"]["xy"][1] < top + height / 2  # a click lands where it shows


async def test_rows_scrolled_out_of_their_list_in_part_or_whole_are_clicked(session: Session, site: str) -> None:
    await go(session, f"{site}scroll_list.html")
    rows = await nodes(session, include_offscreen=True)
    half = await act(session, action="click", element_id=rows["Message 6"]["i"])
    assert half["observations"]["recent_events"] == ["Opened message 6"]
    # Below the list's bottom edge, though its box lies in the viewport: scrolled to first.
    hidden = await act(session, action="click", element_id=rows["Message 12"]["i"])
    assert hidden["observations"]["recent_events"] == ["Opened message 12"]
    assert "Message 12" in await nodes(session)


async def test_the_interaction_model_and_the_semantic_view_agree_on_what_is_in_view(
    session: Session, site: str
) -> None:
    await go(session, f"{site}scroll_list.html")
    shown = await nodes(session)
    model = await session.analyze({"what": "interaction"})
    in_view = {c["name"]: c["inViewport"] for c in model.data["controls"]}
    assert {name for name, seen in in_view.items() if seen} == set(shown)
    assert (in_view["Message 6"], in_view["Message 7"], in_view["Message 12"]) == (True, False, False)


async def test_set_value_moves_aria_sliders_and_spin_buttons_by_keyboard(session: Session, site: str) -> None:
    await go(session, f"{site}controls.html")
    volume = (await nodes(session))["Volume"]["i"]
    await act(session, action="set_value", element_id=volume, value=70)
    assert (await nodes(session, include_values=True))["Volume"]["v"] == "70 percent"
    await act(session, action="set_value", element_id=volume, value="0")
    assert (await nodes(session, include_values=True))["Volume"]["v"] == "0 percent"
    await go(session, f"{site}ranges.html")
    control = await nodes(session)
    # Left and Right only, in steps of 5; a spin button by Up and Down.
    await act(session, action="set_value", element_id=control["Margin"]["i"], value="35")
    await act(session, action="set_value", element_id=control["Copies"]["i"], value="7")
    values = await nodes(session, include_values=True)
    assert (values["Margin"]["v"], values["Copies"]["v"]) == ("35", "7")
    between = await act(session, action="set_value", element_id=control["Margin"]["i"], value="22")
    assert between["message"].endswith("to 20: its steps pass over 22")
    for value in ("wide", "80"):
        refused = await session.interact({"action": "set_value", "element_id": control["Margin"]["i"], "value": value})
        assert refused["error"] == "invalid_value" and "from 0 to 50" in refused["message"], refused
    stuck = await session.interact({"action": "set_value", "element_id": control["Quality"]["i"], "value": "8"})
    assert stuck["error"] == "state_unchanged" and "did not move" in stuck["message"]


async def test_the_active_option_of_a_combobox_has_the_focus(session: Session, site: str) -> None:
    await go(session, f"{site}combobox.html")
    box = (await nodes(session))["Destination"]
    await act(session, action="type", element_id=box["i"], text="Be")
    await act(session, action="press", key="ArrowDown")
    await act(session, action="press", key="ArrowDown")
    shown = await nodes(session)
    # The input keeps the keyboard focus; aria-activedescendant passes it on to Bern.
    assert (shown["Destination"]["s"], shown["Berlin"].get("s"), shown["Bern"]["s"]) == (
        "expanded,focused",
        None,
        "selected,focused",
    )


async def test_a_sorted_column_is_said_by_its_sort_button(session: Session, site: str) -> None:
    await go(session, f"{site}menu_tree_grid.html")
    control = await nodes(session)
    assert control["Name"]["s"] == "ascending" and "s" not in control["Size"]
    sorted_ = await act(session, action="click", element_id=control["Size"]["i"])
    assert sorted_["observations"]["changes"][-1] == "Changed: button 'Size' sorted ascending"
    again = await act(session, action="click", element_id=control["Size"]["i"])
    assert again["observations"]["changes"][-1] == "Changed: button 'Size' sorted descending"
    model = await session.analyze({"what": "interaction"})
    states = {c["name"]: c["states"] for c in model.data["controls"]}
    assert states["Size"]["sort"] == "descending" and "sort" not in states["Name"]
