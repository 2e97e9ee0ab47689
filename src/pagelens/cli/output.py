"""Where a command's results go: stdout, the file of --out (checked before any browser
work, so a run is not wasted on a path it cannot write), and the one line a failure
prints on stderr."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from pagelens.errors import InvalidRequestError, PagelensError

__all__ = ["check_out", "failures", "print_error", "print_or_write", "stderr", "write_out"]

stderr = Console(stderr=True, soft_wrap=True)  # one line a message, whatever the width: scripts grep them


def print_error(code: str, message: str) -> None:
    line = escape(f"[{code}] {message}")
    stderr.print(f"[red]error:[/red] {line}", highlight=False)


@contextlib.contextmanager
def failures() -> Iterator[None]:
    """A PagelensError ends the command: its one line on stderr, exit status 1."""
    try:
        yield
    except PagelensError as exc:
        print_error(exc.code, exc.message)
        raise typer.Exit(1) from None


def check_out(out: Path) -> None:
    """Refuse an --out that could not be written: a folder, in a folder that is missing or
    read-only."""
    try:
        if out.is_dir():
            raise InvalidRequestError(f"--out {out} is a folder; give a file name")
        if not out.parent.is_dir():
            raise InvalidRequestError(f"--out {out}: there is no folder {out.parent}")
        if not os.access(out if out.exists() else out.parent, os.W_OK):
            raise InvalidRequestError(f"--out {out}: permission denied")
    except OSError as exc:  # a name too long, a loop of links
        raise InvalidRequestError(f"--out {out}: {exc.strerror}") from None


def write_out(out: Path, data: bytes) -> None:
    """Write `data` to `out`; a failure the check could not foresee (a full disk, the folder
    gone meanwhile) is a PagelensError."""
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise PagelensError(f"could not write {out}: {exc.strerror or exc}") from None


def print_or_write(text: str, out: Path | None, what: str) -> None:
    """`text` as lines to stdout, or to the file `out`, saying on stderr that it wrote `what`.
    Empty text is no line at all."""
    lines = text + "\n" if text else ""
    if out is None:
        sys.stdout.write(lines)
        return
    write_out(out, lines.encode())
    stderr.print(escape(f"wrote {what} to {out}"))
