"""Secrets a run must not hand out (docs/agent.md, "Secrets"): what a password or other
sensitive field holds, however code reaches it, and password parameters in addresses. A
real Chromium, a scripted model on the OpenAI wire; the terminal is the CLI's own
progress view, or `pagelens run` itself."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import pagelens
from pagelens.actions import Session
from pagelens.agent import Agent, AgentEvent, RunReport, Skills
from pagelens.agent.secrets import MASK, Secrets, StreamedText
from pagelens.cli.progress import RunProgress
from tests.agent_script import call, last_result, tool_results
from tests.agent_support import scripted_model
from tests.llm_servers import OpenAIChatServer, Turn
from tests.test_agent_cli import environment, pagelens_run

pytest_plugins = ["tests.agent_support"]

PASSWORD = "hunter2-Secret!"
IN_URL = "hunter2-Secret%21"  # as a GET form sends it
CARD = "4111 1111 1111 1111"
# A login form that sends its fields in the address, and a page that shows that address.
LOGIN = """<!doctype html><title>Sign in</title><h1>Sign in</h1>
<form action="welcome.html" method="get">
<label>User <input id="user" name="user"></label>
<label>Password <input id="pw" name="password" type="password"></label>
<label>Card number <input id="cc" name="card"></label>
<button>Sign in</button></form>"""
WELCOME = """<!doctype html><title>Welcome</title><h1>Welcome</h1><p id="sent"></p>
<script>document.getElementById('sent').textContent = 'You sent ' + location.search</script>"""
READ_PASSWORD = "document.querySelector('input[type=password]').value"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("login")
    (folder / "login.html").write_text(LOGIN)
    (folder / "welcome.html").write_text(WELCOME)
    with pagelens.serve_directory(folder) as url:
        yield url


class Watched:
    """A run as its watchers saw it: the terminal, the events (what the daemon stores),
    the report, and every request the model got."""

    def __init__(self, report: RunReport, terminal: str, events: list[AgentEvent], bodies: list[dict[str, Any]]):
        self.report, self.terminal, self.events, self.bodies = report, terminal, events, bodies

    def everything(self) -> str:
        events = json.dumps([event.model_dump(mode="json") for event in self.events], ensure_ascii=False)
        results = json.dumps([tool_results(body) for body in self.bodies], ensure_ascii=False)
        return "\n".join((self.report.model_dump_json(), self.terminal, events, results))

    def leaks(self, *secrets: str) -> list[str]:
        text = self.everything()
        return [secret for secret in secrets if secret in text]


async def watched_run(script: list[Turn], session: Session, skills: Skills, url: str, **kw: Any) -> Watched:
    terminal = io.StringIO()
    events: list[AgentEvent] = []

    def on_event(event: AgentEvent) -> None:
        events.append(event)
        progress.on_event(event)

    async with OpenAIChatServer(script) as server:
        agent = Agent(model=scripted_model(server.base_url), session=session, skills=skills, **kw)
        with RunProgress(Console(file=terminal, width=300, no_color=True)) as progress:
            report = await agent.run("Sign in as ada", url=url, on_event=on_event)
    return Watched(report, terminal.getvalue(), events, server.bodies)


# ---- the leaks


async def test_code_that_reads_a_password_field_gets_a_mask(site: str, session: Session, skills: Skills) -> None:
    script: list[Turn] = [
        call("interact", action="type", selector="#pw", text=PASSWORD),  # the task gave it
        call("debugger", action="eval", code=READ_PASSWORD),
        call("repl", title="read it", code=f"await browserjs(() => {READ_PASSWORD})"),
        # The model repeats the secret in its answer.
        lambda body: call("finish", result=json.dumps({"read": tool_results(body)[-2:], "said": PASSWORD})),
    ]
    run = await watched_run(script, session, skills, site + "login.html")
    assert run.report.status == "COMPLETED", run.report.reason
    result = json.loads(run.report.result or "")
    debugger, repl = result["read"]
    assert debugger["text"] == repl["output"].removeprefix("=> ") == f'"{MASK}"' and result["said"] == MASK
    assert run.leaks(PASSWORD) == []


@pytest.mark.parametrize("show_values", [False, True])
async def test_text_typed_by_repl_code_is_masked(
    site: str, session: Session, skills: Skills, show_values: bool
) -> None:
    code = f"await nativeType('#user', 'ada'); await nativeType('#pw', '{PASSWORD}')"
    script: list[Turn] = [call("repl", title="sign in", code=code), call("finish", result="typed")]
    run = await watched_run(script, session, skills, site + "login.html", show_values=show_values)
    assert run.report.status == "COMPLETED", run.report.reason
    shown = run.report.steps[1].arguments["code"]
    if show_values:  # ordinary typed text shows; the password field's does not
        assert shown == f"await nativeType('#user', 'ada'); await nativeType('#pw', '{MASK}')"
    else:
        assert shown == f"await nativeType('#user', \"{MASK}\"); await nativeType('#pw', \"{MASK}\")"
    assert run.leaks(PASSWORD) == []


async def test_a_get_login_form_keeps_the_password_out_of_urls(tmp_path: Path) -> None:
    (tmp_path / "login.html").write_text(LOGIN)
    (tmp_path / "welcome.html").write_text(WELCOME)
    script: list[Turn] = [
        call("interact", action="type", selector="#user", text="ada"),
        call("interact", action="type", selector="#pw", text=PASSWORD),
        call("interact", action="click", selector='role=button[name="Sign in"]'),
        lambda body: call("finish", result="signed in at " + last_result(body)["url"]),
    ]
    async with OpenAIChatServer(script) as server:
        env = environment(tmp_path, PAGELENS_MODEL_BASE_URL=server.base_url, PAGELENS_MODEL_API_KEY="test-key")
        login = str(tmp_path / "login.html")
        code, out, err = await pagelens_run("Sign in as ada", "--url", login, "--model", "local/m", env=env)
    assert code == 0, err
    report = json.loads(out)
    assert report["steps"][3]["url"].endswith(f"welcome.html?user=ada&password={MASK}&card=")
    # What the model is told of the new address, and of the page that shows it.
    clicked = tool_results(server.bodies[3])[-1]
    assert clicked["url"] == report["steps"][3]["url"]
    assert f"You sent ?user=ada&password={MASK}&card=" in clicked["summary"]["content_preview"]
    seen = out + err + json.dumps([tool_results(body) for body in server.bodies])
    assert PASSWORD not in seen and IN_URL not in seen


async def test_a_password_gone_from_the_page_at_once_is_learnt_from_its_address(
    site: str, session: Session, skills: Skills
) -> None:
    # The field is gone before the loop can read it: the address the form went to names it.
    code = f"await nativeType('#pw', '{PASSWORD}'); await nativeClick('button')"
    script: list[Turn] = [
        call("repl", title="sign in", code=code),
        call("debugger", action="eval", code="location.search"),
        call("finish", result="done"),
    ]
    run = await watched_run(script, session, skills, site + "login.html", show_values=True)
    assert run.report.status == "COMPLETED", run.report.reason
    assert run.report.steps[1].arguments["code"] == f"await nativeType('#pw', '{MASK}'); await nativeClick('button')"
    assert run.leaks(PASSWORD, IN_URL) == []


async def test_show_values_never_shows_what_a_sensitive_field_got(site: str, session: Session, skills: Skills) -> None:
    script: list[Turn] = [
        call("interact", action="type", selector="#user", text="ada-the-user"),
        call("interact", action="set_value", selector="#pw", value=PASSWORD),
        call("interact", action="type", selector="#cc", text=CARD),
        call("debugger", action="eval", code="document.querySelector('#cc').value"),
        call("finish", result=f"paid with {CARD}"),
    ]
    run = await watched_run(script, session, skills, site + "login.html", show_values=True)
    assert run.report.status == "COMPLETED", run.report.reason
    assert [step.arguments.get("text", step.arguments.get("value")) for step in run.report.steps[1:4]] == [
        "ada-the-user",
        MASK,
        MASK,
    ]
    assert "interact(action='type', selector='#user', text='ada-the-user')" in run.terminal
    assert run.report.result == f"paid with {MASK}"
    assert run.leaks(PASSWORD, CARD) == []


# ---- the masking itself


def test_password_parameters_are_masked_and_learnt() -> None:
    secrets = Secrets()
    shown = secrets.redact(
        {
            "url": f"https://h/in?user=ada&user_pass={IN_URL}&passport=P123456&compass=north",
            "said": f'the page says "{PASSWORD}"',
        }
    )
    assert shown == {
        "url": f"https://h/in?user=ada&user_pass={MASK}&passport=P123456&compass=north",
        "said": f'the page says "{MASK}"',
    }
    # Short values would mask words everywhere: they are left alone.
    assert secrets.redact("?pwd=abc and abc") == f"?pwd={MASK} and abc"


def test_streamed_text_never_splits_a_secret() -> None:
    secrets = Secrets()
    secrets.learn([PASSWORD])
    streamed = StreamedText(secrets)
    pieces = [streamed.feed(piece) for piece in ("I typed hun", "ter2-Sec", "ret! and hu", "nting")]
    pieces.append(streamed.rest())
    assert [secrets.redact(piece) for piece in pieces if piece] == ["I typed ", f"{MASK} and ", "hunting"]
