"""Writes the reference pages of docs/ that are generated from the code, so they cannot
go stale: `python -m pagelens.cli.docgen` (a test fails when a committed page differs)."""

from __future__ import annotations

import sys
from pathlib import Path

from pagelens.actions.models import ContentScriptStatus
from pagelens.actions.navigation import NavigationOptions
from pagelens.actions.registry import SPECS
from pagelens.actions.settle import TYPING_QUIET_MS, SettlePolicy
from pagelens.browser.page import LOAD_WAIT_S
from pagelens.browser.requests import LONG_AFTER_S
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
        "`load_complete`",
        "a navigation",
        "`false` when the page was read before its `load` came (see Navigation below)",
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
        "for it (an id, a test id, a unique attribute, else the shortest unique path; absent when CSS "
        "cannot name the element alone). It names the element without pagelens' ids, so it still reaches it after a "
        "re-render or in a fresh load of the page; inside a frame it is relative to the frame's "
        "document (`frame` scopes a selector there)",
    ),
    ("`healed`, `old_id`, `new_id`, `candidates`", "a stale id", "see [ids.md](ids.md)"),
    (
        "`observations`",
        "element actions, `handle_dialog`",
        "what the action visibly changed: `url_changed`, `dom_mutated`, `network_requests`, `element_found`, "
        "`recent_events` (toasts, alerts, live-region text that appeared, and the fields the browser's own "
        "validation refused) with `has_errors` and `has_success`, "
        "`changes` (what changed, as lines of the [recent events](views.md#recent-events) log: a state "
        "flipped, a dialog shown, a wizard's step or a tab's panel shown or hidden, controls added; first, "
        "each field a submit's validation refused, with the browser's message), and when they happened "
        "the `new_tab` it opened, "
        "`tab_closed` (the page closed its own tab, `window.close()`: the message says which tab is "
        "active now), the `download` it started (the file name) and the "
        "`dialog` it raised. An action on an element inside a frame watches that frame's document "
        "as well as the top one: its mutations, messages and lines count too (each told once)",
    ),
)


def actions_page() -> str:
    rows = []
    for spec in SPECS.values():
        target = {"none": "", "optional": "optional", "required": "required"}[spec.target]
        if spec.points:
            target += ", or x and y"
        needed = {n.parameter for n in spec.needs if n.alone}
        reads = ", ".join(f"**{p}**" if p in needed else p for p in spec.reads)
        rows.append(f"| `{spec.name}` | {target} | {reads} | {'yes' if spec.navigates else ''} | {spec.doc} |")
    table = "\n".join(rows)
    fields = "\n".join(f"| {names} | {when} | {meaning} |" for names, when, meaning in RESULT_FIELDS)
    statuses = "\n".join(f"| `{status.value}` | {status.meaning} |" for status in ContentScriptStatus)
    return f"""# Actions

What `interact` does, one action a call (`Session.interact` in Python, the `interact` tool
over MCP). A target is `element_id` (a stable id from any view, see [ids.md](ids.md)),
`selector`, or for some actions `x` and `y`; `frame` scopes a selector. A parameter in
bold is required. Actions that navigate, and an action whose click loaded another page,
return the compact summary of where they land (`summary: false` leaves it out, and so
does `background`); element actions return `observations` of what they changed. Any
action may run in the `background` (then `result` fetches it).

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
isolated world of every new document over CDP (as the document starts, in the tabs
pagelens opens; when first needed elsewhere), so, unlike an extension's content script,
it never needs a reload to get in. After a load pagelens asks it, in one call, for its
document's token, address and title, and the summary (within 3 s, or the summary's own
limit where that is longer):

| value | meaning |
|---|---|
{statuses}

{_NAVIGATION}
{_SETTLING}"""


_SETTLE = SettlePolicy()
_NAVIGATION = f"""## Navigation

An action that navigates fails when the page cannot be loaded (a restricted address, or
Chromium's `err_*` code) or when its document is not parsed (DOMContentLoaded) within the
navigation timeout ({NavigationOptions.timeout:g} s): `navigation_timeout`. Then it waits for
`load` {LOAD_WAIT_S:g} s at most: long enough for the images and frames of an ordinary page, short
enough that a page that will never finish (a stream that keeps sending, a resource whose
server never answers, a machine too busy to finish in time) costs seconds rather than the
timeout. Such a page is settled and read as it is: the result says `load_complete: false`,
and its message how many requests were still open and the oldest of them. Otherwise
`load_complete` is `true`. The summary comes either way. An HTTP error page (404, 500)
has loaded: `http_status` and the summary's `error_page` type say what it is.

A navigation that settles by a fixed delay (`fixed_ms`, see Settling) asks the engine as
soon as the document is parsed, and the engine waits for `load` (the same {LOAD_WAIT_S:g} s at most)
and the delay itself, in its own world, as the page's own scripts carry on: the result
comes a round trip sooner than if pagelens were told of `load` and asked after it. It
takes the compact summary right after `load` and keeps it for the end of the delay while
it still holds: nothing in the DOM changed since (the ids pagelens stamps aside), the page
kept its address (a `pushState` counts), did not scroll and kept its viewport size;
otherwise the summary is taken afresh after the delay. A page that moves on meanwhile
(its script sends the tab elsewhere) is waited for and read where it arrived. (Where
settling watches the page, a summary taken at `load` would only hold the watching up:
the summary is taken once it has settled.) A summary that comes later than its own limit is
`summary_error: "summary_timeout"`, whichever way it was taken.
"""
_SETTLING = f"""## Settling

Before a page is read (after a navigation, after an element action), it settles: the DOM
quiet for {_SETTLE.quiet_ms} ms (a MutationObserver in the engine's world; the ids pagelens stamps
do not count) with no request in flight, for {_SETTLE.cap_ms / 1000:g} s at most, after which the
page is read anyway. Requests are the tab's and its frames' (documents, scripts, styles,
images, fonts, fetch and XHR). A request in flight is waited for, then the DOM must be
quiet again, as what its answer brings shows up after it; a request that ended during the
quiet window counts as activity. Long-lived requests never hold a page up: event streams,
WebSockets, media, beacons and prefetches are not counted, and a request in flight for
over {LONG_AFTER_S:g} s is taken for a long-lived one (a response that keeps streaming, a long
poll, a server that never answers), without which every such page would wait the whole
cap. A page that changes by itself, or polls its server, every few hundred milliseconds
waits the whole cap. After typing (`type`, `set_value`, `clear`) the DOM must be quiet
for {TYPING_QUIET_MS} ms: a search field asks its server for suggestions only once the keys
have paused for its debounce (commonly 300 to 500 ms), and typing changes no node meanwhile.

An element action that starts a navigation of the tab (a link, a form sent) waits for the
new page's `load` (the navigation timeout at most), then settles it and returns its summary. A
navigation that loads no document returns as soon as it ends: a `mailto:` or `tel:` link
(another application's), a download, an answer with no content (204, 205).
"""


PAGES = {"errors.md": errors_page, "actions.md": actions_page}


def main(docs: Path) -> None:
    for name, render in PAGES.items():
        (docs / name).write_text(render(), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
