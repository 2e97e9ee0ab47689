"""Writes the reference pages of docs/ that are generated from the code, so they cannot
go stale: `python -m pagelens.cli.docgen` (a test fails when a committed page differs)."""

from __future__ import annotations

import sys
from pathlib import Path

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
"""


PAGES = {"errors.md": errors_page, "actions.md": actions_page}


def main(docs: Path) -> None:
    for name, render in PAGES.items():
        (docs / name).write_text(render(), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
