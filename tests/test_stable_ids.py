"""Stable ids across re-renders, measured on a task list that
re-renders the ways real pages do: keyed reconciliation (nodes kept and moved), a full
re-render from data (new nodes), an innerHTML round trip, text edits, scrolling, class
changes and cloning.

Ground truth is the fixture's `data-testkey` (the logical element, like a React key); the
engine never reads it. Two properties are measured after every step:
  retention  unchanged elements keep their data-llm-id (>= 99 %);
  safety     an id seen before and after denotes the same logical element, with the same
             role and name; an id is never on two elements at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pagelens

LIST = "ids/list.html"

# What the main world reports for every stamped element: its id, test key and how many
# elements carry that id (document and open shadow roots).
_STAMPED_JS = """() => {
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  const out = {};
  for (const root of roots) {
    for (const el of root.querySelectorAll('[data-llm-id]')) {
      const id = el.getAttribute('data-llm-id');
      const entry = out[id] || (out[id] = { count: 0, key: el.getAttribute('data-testkey') });
      entry.count++;
    }
  }
  return out;
}"""


@dataclass
class Capture:
    by_id: dict[str, tuple[str | None, str, str]]  # id -> (test key, role, name)
    by_key: dict[str, str] = field(default_factory=dict)  # test key -> id


async def capture(page: pagelens.Page) -> Capture:
    model = await page.interaction_model({"maxControls": 5000})
    stamped = await page.playwright_page.evaluate(_STAMPED_JS)
    doubled = {i: s["count"] for i, s in stamped.items() if s["count"] > 1}
    assert not doubled, f"ids on more than one element: {doubled}"
    result = Capture(by_id={})
    for control in model.controls:
        key = stamped[control.id]["key"]
        result.by_id[control.id] = (key, control.role, control.name)
        if key is not None:
            assert key not in result.by_key, f"{key} listed twice"
            result.by_key[key] = control.id
    assert len(result.by_key) == len(model.controls), "every fixture control has a test key"
    return result


def safety_violations(before: Capture, after: Capture, changed: set[str]) -> list[str]:
    """Ids that now denote another element, or the same one with another role or name
    (unless the step changed that element on purpose)."""
    problems = []
    for id_, (key, role, name) in before.by_id.items():
        if id_ not in after.by_id:
            continue
        key2, role2, name2 = after.by_id[id_]
        if key2 != key or (key not in changed and (role2, name2) != (role, name)):
            problems.append(f"id {id_}: {key} {role} {name!r} -> {key2} {role2} {name2!r}")
    return problems


def retention(before: Capture, after: Capture, changed: set[str]) -> tuple[int, int]:
    """(kept, total) over elements present in both captures and not changed."""
    unchanged = [k for k in before.by_key if k in after.by_key and k not in changed]
    kept = sum(1 for k in unchanged if before.by_key[k] == after.by_key[k])
    return kept, len(unchanged)


@dataclass
class Step:
    name: str
    script: str
    changed: set[str] = field(default_factory=set)


STEPS = [
    Step("keyed reorder", "taskList.renderKeyed(taskList.items.slice().reverse())"),
    Step(
        "keyed insert and remove",
        "const it = taskList.items.filter((i) => i.key !== 't3' && i.key !== 't7');"
        "it.splice(0, 0, {key: 'n1', title: 'Answer the email'});"
        "it.splice(5, 0, {key: 'n2', title: 'Walk the dog'});"
        "taskList.renderKeyed(it)",
    ),
    Step("fresh re-render from data", "taskList.renderFresh(taskList.items.slice())"),
    Step("innerHTML round trip", "taskList.reserialize()"),
    Step(
        "fresh re-render with a row removed and one added",
        "const it = taskList.items.filter((i) => i.key !== 't5');"
        "it.splice(2, 0, {key: 'n3', title: 'Sort the mail'});"
        "taskList.renderFresh(it)",
    ),
    Step(
        "text edits",
        "document.getElementById('intro').textContent = 'Everything due this month.';"
        "document.querySelector('[data-key=t1] .title').textContent = 'Write the long report';"
        "document.getElementById('add').textContent = 'Add a task';",
        changed={"add"},
    ),
    Step("scroll down", "window.scrollTo(0, document.body.scrollHeight)"),
    Step("scroll back", "window.scrollTo(0, 0)"),
    Step(
        "class and style changes",
        "for (const li of document.querySelectorAll('#list li')) li.classList.toggle('highlight');"
        "for (const b of document.querySelectorAll('button')) {"
        " b.classList.add('pressed'); b.style.margin = '2px'; }"
        "document.querySelector('[data-key=t2]').classList.add('done')",
    ),
    Step(
        "keyed shuffle after everything",
        "taskList.renderKeyed(taskList.items.slice(3).concat(taskList.items.slice(0, 3)))",
    ),
]


async def test_ids_survive_rerenders_and_never_move(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}{LIST}")
    before = await capture(page)
    totals = [0, 0]
    report = []
    for step in STEPS:
        await page.playwright_page.evaluate(f"() => {{ {step.script} }}")
        after = await capture(page)
        problems = safety_violations(before, after, step.changed)
        assert not problems, f"{step.name}: {problems}"
        kept, total = retention(before, after, step.changed)
        assert total >= 10, f"{step.name}: too few unchanged elements to measure ({total})"
        assert kept / total >= 0.99, f"{step.name}: kept {kept}/{total} ids"
        totals[0] += kept
        totals[1] += total
        report.append(f"{step.name}: {kept}/{total}")
        before = after
    print("id retention:", "; ".join(report), f"; overall {totals[0]}/{totals[1]}")
    assert totals[0] / totals[1] >= 0.99


async def test_a_removed_rows_delete_button_id_does_not_move(page: pagelens.Page, fixtures_url: str) -> None:
    """Only one "Delete" on the page each time, but it belongs to another row: the id
    must not follow the name."""
    await page.goto(f"{fixtures_url}{LIST}")
    pw = page.playwright_page
    await pw.evaluate("taskList.renderFresh([{key: 'a', title: 'Alpha'}])")
    first = await capture(page)
    await pw.evaluate("taskList.renderFresh([{key: 'b', title: 'Beta'}])")
    second = await capture(page)
    assert not safety_violations(first, second, set())
    for control in ("delete", "done", "open"):
        assert second.by_key[f"b-{control}"] not in first.by_id
    # The same row rendered again from data is the same row: its ids come back.
    await pw.evaluate("taskList.renderFresh([{key: 'b', title: 'Beta'}])")
    third = await capture(page)
    assert {k: third.by_key[k] for k in ("b-delete", "b-done", "b-open")} == {
        k: second.by_key[k] for k in ("b-delete", "b-done", "b-open")
    }


async def test_identical_rows_are_never_swapped(page: pagelens.Page, fixtures_url: str) -> None:
    """Two rows that look the same cannot be told apart after a re-render from data, so
    neither inherits an id (a guess could swap them)."""
    await page.goto(f"{fixtures_url}{LIST}")
    pw = page.playwright_page
    rows = "[{key: 'x', title: 'Same'}, {key: 'y', title: 'Same'}, {key: 'z', title: 'Other'}]"
    await pw.evaluate(f"taskList.renderFresh({rows})")
    first = await capture(page)
    await pw.evaluate(f"taskList.renderFresh({rows}.reverse())")
    second = await capture(page)
    assert not safety_violations(first, second, set())
    for key in ("x-delete", "x-done", "y-delete", "y-done"):
        assert second.by_key[key] not in first.by_id
    # The distinguishable row keeps its ids; links keep theirs by URL.
    for key in ("z-delete", "z-done", "z-open", "x-open", "y-open"):
        assert second.by_key[key] == first.by_key[key]


async def test_a_clone_gets_its_own_id(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}{LIST}")
    before = await capture(page)
    await page.playwright_page.evaluate(
        """() => {
          const row = document.querySelector('[data-key=t4]');
          const copy = row.cloneNode(true);
          for (const el of copy.querySelectorAll('[data-testkey]')) {
            el.dataset.testkey = 'copy-' + el.dataset.testkey;
          }
          row.after(copy);
        }"""
    )
    after = await capture(page)
    assert not safety_violations(before, after, set())
    for control in ("open", "done", "delete"):
        original = f"t4-{control}"
        assert after.by_key[original] == before.by_key[original]
        assert after.by_key[f"copy-{original}"] not in before.by_id


async def test_a_renamed_control_keeps_its_id_and_shows_its_new_name(page: pagelens.Page, fixtures_url: str) -> None:
    await page.goto(f"{fixtures_url}{LIST}")
    before = await capture(page)
    await page.playwright_page.evaluate("document.getElementById('add').textContent = 'Add a task'")
    after = await capture(page)
    assert after.by_key["add"] == before.by_key["add"]
    assert after.by_id[after.by_key["add"]][2] == "Add a task"


async def test_keys_are_those_of_the_document_as_it_is(page: pagelens.Page) -> None:
    """Identity keys are kept between captures of an unchanged document; a control the
    last capture did not show still gets the keys of its current content, so a copy
    rendered from that content takes its id over."""
    await page.set_content(
        "<div class=row>Alpha <button>Delete</button></div><div style='height:3000px'></div>"
        "<div id=bottom><div class=row><span>Beta</span> <button>Delete</button></div></div>"
    )
    pw = page.playwright_page
    bottom_id = "document.querySelector('#bottom button').getAttribute('data-llm-id')"
    await page.snapshot("skeleton")  # every visible control shown, its keys remembered
    first = await pw.evaluate(bottom_id)
    await pw.evaluate("document.querySelector('#bottom span').textContent = 'Gamma'")
    viewport = await page.semantic_tree()  # sees the change, shows only the top row
    assert first not in {node.i for node in viewport.interactive_tree}
    await page.snapshot("skeleton")  # nothing changed since: the bottom row is keyed afresh
    await pw.evaluate(
        "document.getElementById('bottom').innerHTML ="
        " '<div class=row><span>Gamma</span> <button>Delete</button></div>'"
    )
    await page.snapshot("skeleton")
    assert await pw.evaluate(bottom_id) == first
