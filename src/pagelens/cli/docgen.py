"""Writes the reference pages of docs/ that are generated from the code, so they cannot
go stale: `python -m pagelens.cli.docgen` (a test fails when a committed page differs)."""

from __future__ import annotations

import sys
from pathlib import Path

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


PAGES = {"errors.md": errors_page}


def main(docs: Path) -> None:
    for name, render in PAGES.items():
        (docs / name).write_text(render(), encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
