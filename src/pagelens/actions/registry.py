"""The actions `interact` takes, each declared once, on its handler: its name, the
parameters it reads and needs, whether it needs a target, whether it navigates, and its
line of documentation. Validation (`check`), dispatch (the session), the MCP tool's
description and docs/actions.md are all derived from these declarations.

Handlers come in three kinds: `session` actions need no tab (`list_tabs`, `new_tab`),
`tab` actions work on a tab (`navigate`, `screenshot`, ...), and `element` actions are
run by `perform` with an `Act` (resolve the target, check it is actionable, deliver real
input, verify). `result` fetches a background command and is answered by the session.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from pagelens.errors import InvalidParameterError

Kind = Literal["session", "tab", "element", "command"]
TargetRule = Literal["none", "optional", "required"]
Handler = Callable[[Any], Awaitable[Any]]
H = TypeVar("H", bound=Handler)


class Request(Protocol):
    """What validation reads of an interact request (InteractRequest)."""

    action: str
    element_id: str | None
    selector: str | None
    x: float | None
    y: float | None
    frame: str | None

    @property
    def has_target(self) -> bool: ...

    @property
    def given(self) -> set[str]: ...


@dataclass(frozen=True)
class Need:
    """A parameter an action cannot do without, unless `met` says the request has what
    the action needs another way."""

    parameter: str
    why: str
    met: Callable[[Any], bool]
    alone: bool = True  # the parameter itself is what is needed (not one of several)


@dataclass(frozen=True)
class ActionSpec:
    name: str
    doc: str
    kind: Kind
    handler: Handler
    reads: tuple[str, ...] = ()
    target: TargetRule = "none"
    points: bool = False  # x and y may stand for the target
    navigates: bool = False  # returns the compact summary of where it lands
    answers_dialog: bool = False  # runs with a dialog open instead of answering it first
    needs: tuple[Need, ...] = ()
    check: Callable[[Any], None] | None = None  # further rules on its parameters

    @property
    def parameters(self) -> tuple[str, ...]:
        """Every parameter it reads, the target's included."""
        target = ("element_id", "selector", "frame") if self.target != "none" else ()
        points = ("x", "y") if self.points else ()
        return (*target, *points, *self.reads)


SPECS: dict[str, ActionSpec] = {}


def action(
    name: str,
    doc: str,
    *,
    kind: Kind,
    reads: tuple[str, ...] = (),
    target: TargetRule = "none",
    points: bool = False,
    navigates: bool = False,
    answers_dialog: bool = False,
    needs: tuple[Need, ...] = (),
    check: Callable[[Any], None] | None = None,
) -> Callable[[H], H]:
    """Declare the decorated handler as action `name`."""

    def register(handler: H) -> H:
        if name in SPECS:
            raise ValueError(f"action {name!r} is declared twice")
        SPECS[name] = ActionSpec(
            name, doc, kind, handler, reads, target, points, navigates, answers_dialog, needs, check
        )
        return handler

    return register


def need(parameter: str, why: str, met: Callable[[Any], bool] | None = None, *, alone: bool = True) -> Need:
    """`parameter` is needed (`met`: what satisfies the need, by default the parameter)."""
    return Need(parameter, why, met or (lambda r: getattr(r, parameter) is not None), alone)


def check(request: Request) -> None:
    """The rules of the request's action; InvalidParameterError naming the parameter."""
    spec = SPECS.get(request.action)
    if spec is None:
        raise InvalidParameterError("action", f"unknown action {request.action!r}; one of {', '.join(SPECS)}")
    r = request
    targets = sum(v is not None for v in (r.element_id, r.selector)) + (r.x is not None or r.y is not None)
    if targets > 1:
        raise InvalidParameterError("element_id", "give one target: element_id, selector, or x and y")
    if (r.x is None) != (r.y is None):
        raise InvalidParameterError("y" if r.y is None else "x", "x and y go together")
    if r.x is not None and not spec.points:
        pointers = ", ".join(s.name for s in SPECS.values() if s.points)
        raise InvalidParameterError("x", f"coordinates only target {pointers}, not {spec.name}")
    if r.frame is not None and r.selector is None:
        raise InvalidParameterError("frame", "frame scopes a selector; element ids carry their frame already")
    for needed in spec.needs:
        if not needed.met(r):
            raise InvalidParameterError(needed.parameter, f"required by action {spec.name!r}: {needed.why}")
    if spec.target == "required" and not r.has_target:
        raise InvalidParameterError(
            "element_id", f"required by action {spec.name!r}: the element to act on (element_id, selector, or x and y)"
        )
    if spec.check is not None:
        spec.check(r)
    for name in sorted(r.given - {*spec.parameters, *EVERY_ACTION}):
        reads = ", ".join(spec.parameters) or "no parameter of its own"
        raise InvalidParameterError(name, f"action {spec.name!r} does not read it (it reads {reads})")


# What any action may be given: the tab it works on (by default the active one), whether it
# runs in the background, and summary, which only navigations return (false everywhere
# saves an agent thinking about which call returns one).
EVERY_ACTION = ("action", "tab_id", "background", "summary")


def describe() -> str:
    """One line per action, as the MCP tool's description lists them."""
    lines = []
    for spec in SPECS.values():
        reads = [*spec.reads]
        if spec.target != "none":
            point = " or x, y" if spec.points else ""
            reads.insert(0, f"target{point}" + ("" if spec.target == "required" else " (optional)"))
        needed = {n.parameter for n in spec.needs if n.alone}
        shown = ", ".join(f"{p} (required)" if p in needed else p for p in reads)
        lines.append(f"- {spec.name}" + (f" [{shown}]" if shown else "") + f": {spec.doc}")
    return "\n".join(lines)
