"""The error codes are one list (ErrorCode): every code the engine's JavaScript or the
Python layers can return belongs to it, and every member is returned somewhere."""

from __future__ import annotations

import re
from pathlib import Path

from pagelens.errors import CHROMIUM_NET_ERROR, ErrorCode

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src/pagelens"

# Where the engine's action half returns a typed reason.
JS_REASON = re.compile(r"\breason: '([a-z_]+)'")
# Where Python names a code by its value rather than by its member.
PY_LITERAL = re.compile(r"""(?:\bcode\s*=\s*|ActionError\(\s*|"error":\s*)"([a-z_]+)\"""")


def engine_sources() -> list[Path]:
    return sorted(p for p in (SRC / "engine/js").rglob("*.js"))


def test_every_reason_the_engine_returns_is_a_code() -> None:
    reasons = {m for path in engine_sources() for m in JS_REASON.findall(path.read_text(encoding="utf-8"))}
    assert {"not_found", "not_visible", "occluded", "disabled"} <= reasons  # the pattern still finds them
    assert reasons <= set(ErrorCode), sorted(reasons - set(ErrorCode))


def test_python_names_codes_by_their_members() -> None:
    literals = {
        (str(path.relative_to(ROOT)), code)
        for path in SRC.rglob("*.py")
        for code in PY_LITERAL.findall(path.read_text(encoding="utf-8"))
    }
    assert not literals, f"use ErrorCode members: {sorted(literals)}"


def test_every_code_is_returned_somewhere() -> None:
    python = "\n".join(p.read_text(encoding="utf-8") for p in SRC.rglob("*.py") if p != SRC / "errors.py")
    javascript = "\n".join(p.read_text(encoding="utf-8") for p in engine_sources())
    # In errors.py itself, the error classes below the list count as uses.
    errors_py = (SRC / "errors.py").read_text(encoding="utf-8").split("class PagelensError", 1)[1]
    unused = [
        code.value
        for code in ErrorCode
        if f"ErrorCode.{code.name}" not in python
        and f"ErrorCode.{code.name}" not in errors_py
        and f"'{code.value}'" not in javascript
    ]
    assert not unused, f"codes nothing returns: {unused}"


def test_chromium_net_errors_are_an_open_family() -> None:
    assert CHROMIUM_NET_ERROR.match("err_name_not_resolved")
    assert not any(CHROMIUM_NET_ERROR.match(code) for code in ErrorCode)
