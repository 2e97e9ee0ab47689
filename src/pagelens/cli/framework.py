"""typer's command classes with two departures, for `app = typer.Typer(cls=Group)` and
`@app.command(cls=Command)`:

- a usage error (an unknown option, a value missing or of the wrong kind, an unknown
  command) ends like every other failure: one line `error: [invalid_request] ...` and
  exit status 1, where typer draws a box and exits with 2;
- a flag's help shows no type (typer shows `--headed <bool>` as if it took a value).
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup, TyperOption

from pagelens.cli.output import print_error
from pagelens.errors import ErrorCode

__all__ = ["Command", "Group"]


class _UntypedFlags:
    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]  # the typer class mixed in
        for param in params:
            if isinstance(param, TyperOption) and param.is_flag:
                param.metavar = ""  # what the help shows in place of the type
        return params


class Command(_UntypedFlags, TyperCommand):
    pass


class Group(_UntypedFlags, TyperGroup):
    def main(self, *args: Any, **kwargs: Any) -> NoReturn:
        kwargs["standalone_mode"] = False  # the errors come to us instead of typer's box
        try:
            status = super().main(*args, **kwargs)
        except typer.TyperException as exc:  # click's usage errors derive from it
            # A choice typer checks with a validator says "Value error, ..." first: not the user's.
            message = " ".join(exc.format_message().split()).replace(": Value error, ", ": ")
            print_error(ErrorCode.INVALID_REQUEST, message)
            sys.exit(1)
        # Not standalone, typer returns what the command returned (None), or the status
        # of a typer.Exit.
        sys.exit(status if isinstance(status, int) else 0)
