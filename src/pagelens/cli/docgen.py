"""Writes the reference pages of docs/ that are generated from the code, so they cannot
go stale: `python -m pagelens.cli.docgen` (a test fails when a committed page differs)."""

from __future__ import annotations

import sys
from pathlib import Path

from pagelens.actions.models import ContentScriptStatus
from pagelens.actions.registry import SPECS
from pagelens.errors import ErrorCode


def errors_page() -> str:
    rows = "\n".join(f"| `{code.value}` | {code.meaning} |" for code in ErrorCode)
    return f"""# Error codes

Every failure pagelens reports carries one of these codes (`error` in a result, `code` on
a `pagelens.PagelensError`) and a message for people. Besides them, Chromium's network
errors come through as their own names in lower case: `net::ERR_NAME_NOT_RESOLVED` is
`err_name_not_resolved`.

Generated from `pagelens.errors.ErrorCode` by `python -m pagelens.cli.docgen`.

| code | meaning |
|---|---|
{rows}
"""


# The fields of an action's result: (names, when they come, what they mean).
RESULT_FIELDS = (
    ("`success`, `action`, `url`, `title`, `message`", "always", "what happened, in words in `message`"),
    ("`error`", "a failure", "a stable code ([errors.md](errors.md)), with `message`"),
    ("`tab_id`", "tab and element actions", "the tab acted in"),
    (
        "`summary`, `summary_error`",
        "a navigation, or an action that loaded a page",
        "the compact summary of where it landed ([views.md](views.md#compact))",
    ),
    (
        "`http_status`, `requested_url`",
        "a navigation",
        "the response's status; the address asked for when a redirect led elsewhere",
    ),
    (
        "`content_script_status`",
        "an action that loaded a document (a navigation, a click that left the page, a route change)",
        "whether pagelens' engine runs in it, see below",
    ),
    ("`element_id`", "an element action", "the [stable id](ids.md) of the element acted on"),
    (
        "`selector_path`",
        "an element action",
        "a CSS selector of that element, taken before the action: the interaction view's `selector` "
        'for it (an id, a test id, a unique attribute, else a short path; `[data-llm-id="…"]` when '
        "none is unique). It names the element without pagelens' ids, so it still reaches it after a "
        "re-render or in a fresh load of the page; inside a frame it is relative to the frame's "
        "document (`frame` scopes a selector there)",
    ),
    ("`healed`, `old_id`, `new_id`, `candidates`", "a stale id", "see [ids.md](ids.md)"),
    ("`observations`", "element actions, `handle_dialog`", "what the action visibly changed"),
)


def actions_page() -> str:
    rows = []
    for spec in SPECS.values():
        target = {"none": "", "optional": "optional", "required": "required"}[spec.target]
        if spec.points:
            target += ", or x and y"
        needed = {n.parameter for n in spec.needs if n.alone}
        reads = ", ".join(f"**{p}**" if p in needed else p for p in spec.reads)
        rows.append(
            f"| `{spec.name}` | {target} | {reads} | {'yes' if spec.navigates else ''} | {spec.doc} |"
        )
    table = "\n".join(rows)
    fields = "\n".join(f"| {names} | {when} | {meaning} |" for names, when, meaning in RESULT_FIELDS)
    statuses = "\n".join(f"| `{status.value}` | {status.meaning} |" for status in ContentScriptStatus)
    return f"""# Actions

What `interact` does, one action a call (`Session.interact` in Python, the `interact` tool
over MCP). A target is `element_id` (a stable id from any view, see [ids.md](ids.md)),
`selector`, or for some actions `x` and `y`; `frame` scopes a selector. A parameter in
bold is required. Actions that navigate return the compact summary of where they land
(`summary: false` leaves it out); element actions return `observations` of what they
changed. Any action may run in the `background` (then `result` fetches it).

Generated from the declarations on the handlers (`pagelens/actions/registry.py`) by
`python -m pagelens.cli.docgen`.

| action | target | reads | navigates | what it does |
|---|---|---|---|---|
{table}

## What an action returns

One JSON object (`ActionResult`, `pagelens/actions/models.py`); fields that do not apply
are left out, except `summary`, which is `null` when `summary_error` says why it is
missing.

| field | when | meaning |
|---|---|---|
{fields}

**`content_script_status`.** The engine is pagelens' content script: it is put into an
isolated world of every new document over CDP when first needed, so, unlike an extension's
content script, it never needs a reload to get in. After a load pagelens asks it for its
document's token (within 3 s):

| value | meaning |
|---|---|
{statuses}
"""


PAGES = {"errors.md": errors_page, "actions.md": actions_page}


def main(docs: Path) -> None:
    for name, render in PAGES.items():
        (docs / name).write_text(render(), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
