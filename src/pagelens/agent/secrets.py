"""What a run must never hand out: the values of the page's sensitive fields (a password,
a card number...: docs/privacy.md), whoever typed them, and the values of password-like
parameters in addresses. Every text leaving the loop (tool results for the model, events
for the terminal and the daemon, the report) passes `Secrets.redact`, which puts `MASK`
in their place; the mask is the same whatever the secret's length (docs/agent.md,
"Secrets")."""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any, TypeVar
from urllib.parse import quote, quote_plus, unquote_plus

from playwright.async_api import Error as PlaywrightError
from pydantic import BaseModel

from pagelens.actions.session import Session
from pagelens.engine.sensitive import says_password
from pagelens.errors import PagelensError

MASK = "•••"
# Shorter values are left alone: masking every "42" or "abc" in the pages would garble
# them, and a value that short tells little (one digit of a split one-time code).
MIN_SECRET_CHARS = 4
_READ_TIMEOUT_S = 2.0

# A query or fragment parameter: `?password=…`, `&user_pwd=…`, `#pass=…`.
_PARAMETER = re.compile(r"(?P<lead>[?&#])(?P<name>[^=&#?\s\"'<>]+)=(?P<value>[^&#\s\"'<>]*)")
# The text repl code types with its typing helper: `nativeType(selector, "text")`.
_JS_STRING = r"""(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)"""
_NATIVE_TYPE = re.compile(rf"(\bnativeType\s*\(\s*(?:{_JS_STRING}|[\w$.\[\]]+)\s*,\s*){_JS_STRING}")
# Arguments that carry typed text, by tool.
_TYPED_ARGUMENTS = {"interact": ("text", "value")}

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class Secrets:
    """The secrets one run knows of, and the masking of them."""

    def __init__(self) -> None:
        self._known: set[str] = set()
        self._pattern: re.Pattern[str] | None = None

    def learn(self, values: list[str]) -> None:
        for value in values:
            if len(value.strip()) >= MIN_SECRET_CHARS and MASK not in value and value not in self._known:
                self._known.add(value)
                self._pattern = None

    async def read_page(self, session: Session) -> None:
        """Learn what the active tab's sensitive fields hold now. A page that does not
        answer (gone, busy, a dialog open) teaches nothing this time."""
        with contextlib.suppress(PagelensError, PlaywrightError, TimeoutError):
            world = await (await session.tabs.current()).page.main_world()
            held = await world.call("heldSecrets", timeout=_READ_TIMEOUT_S)
            self.learn([value for value in held if isinstance(value, str)])

    def redact(self, value: T) -> T:
        """`value` (a string, or JSON-like data) with every secret masked. The values of
        password-like URL parameters in it are learnt first, so they are masked wherever
        else they appear."""
        self._learn_parameters(value)
        return self._masked(value)

    def redact_model(self, model: M) -> M:
        return model.model_validate(self.redact(model.model_dump()))

    def open_end(self, text: str) -> int:
        """How many of the last characters of `text` could begin a secret."""
        ends = (k for form in self._forms() for k in range(1, min(len(form), len(text) + 1)) if text.endswith(form[:k]))
        return max(ends, default=0)

    def _learn_parameters(self, value: Any) -> None:
        for text in _strings(value):
            for match in _PARAMETER.finditer(text):
                if says_password(unquote_plus(match["name"])):
                    self.learn([unquote_plus(match["value"])])

    def _masked(self, value: Any) -> Any:
        if isinstance(value, str):
            return self._masked_text(value)
        if isinstance(value, dict):
            return {key: self._masked(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self._masked(item) for item in value]
        return value

    def _masked_text(self, text: str) -> str:
        text = _PARAMETER.sub(_masked_parameter, text)
        pattern = self._secret_pattern()
        return text if pattern is None else pattern.sub(MASK, text)

    def _secret_pattern(self) -> re.Pattern[str] | None:
        if self._pattern is None and self._known:
            # The longest first, so that one secret inside another leaves no piece of it.
            forms = sorted(self._forms(), key=len, reverse=True)
            self._pattern = re.compile("|".join(re.escape(form) for form in forms))
        return self._pattern

    def _forms(self) -> set[str]:
        """Each secret as it is, and as a URL and a JSON string carry it."""
        return {form for secret in self._known for form in _forms(secret)}


class StreamedText:
    """Text that arrives piece by piece (the model's, as it streams): what `feed` gives
    back holds no piece of a secret, for the end that could begin one waits for the
    next piece. Masking is still the caller's (`Secrets.redact`)."""

    def __init__(self, secrets: Secrets) -> None:
        self.secrets = secrets
        self.tail = ""

    def feed(self, piece: str) -> str:
        text = self.tail + piece
        cut = len(text) - self.secrets.open_end(text)
        self.tail = text[cut:]
        return text[:cut]

    def rest(self) -> str:
        rest, self.tail = self.tail, ""
        return rest


def hide_typed(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments with the text it types masked (interact's `text` and `value`,
    the text of repl's `nativeType`): shown so unless the run shows values."""
    shown = {key: MASK if key in _TYPED_ARGUMENTS.get(tool, ()) else value for key, value in arguments.items()}
    if tool == "repl" and isinstance(shown.get("code"), str):
        shown["code"] = _NATIVE_TYPE.sub(lambda match: f'{match[1]}"{MASK}"', shown["code"])
    return shown


def _forms(secret: str) -> set[str]:
    return {
        secret,
        json.dumps(secret)[1:-1],
        json.dumps(secret, ensure_ascii=False)[1:-1],
        quote(secret, safe=""),
        quote_plus(secret),
    }


def _masked_parameter(match: re.Match[str]) -> str:
    if not match["value"] or not says_password(unquote_plus(match["name"])):
        return match[0]
    return f"{match['lead']}{match['name']}={MASK}"


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list | tuple):
        return [text for item in value for text in _strings(item)]
    return []
