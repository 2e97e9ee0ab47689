"""An oracle over MiniWoB++: a scripted, perfect-reasoning agent that solves each task
using only what pagelens gives an agent (the instruction, `analyze` views, `interact`
actions by element id or selector), scored by the page's own reward. Where it fails,
pagelens' perception or actions failed (or the oracle did): the table says at which
step and why.

    .venv/bin/python -m bench.miniwob_oracle                       # every task below, 3 seeds
    .venv/bin/python -m bench.miniwob_oracle --tasks click-link,email-inbox --episodes 5

The oracle never evaluates script in the page nor reads MiniWoB's state: it reads the
instruction (the page's `#query`, as bench.miniwob gives the agent), then views, then acts.
It reads what an agent would: the semantic view first (with `include_offscreen` and
`include_values` where an agent would ask for them), the Markdown of the page for text.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

import pagelens
from bench.miniwob import episode_done, episode_reward, miniwob_html, start_episode
from pagelens.actions import Session
from pagelens.browser.network import LOOPBACK_HOSTS

TIME_LIMIT_S = 120.0


class Stuck(Exception):
    """The oracle cannot go on: what it needed is not in a view, or an action failed."""


@dataclass
class Outcome:
    task: str
    seed: int
    instruction: str
    reward: float = 0.0
    steps: list[str] = field(default_factory=list)
    failure: str | None = None

    @property
    def success(self) -> bool:
        return self.reward > 0


class Oracle:
    """What one episode's policy may use: the instruction, views and actions."""

    def __init__(self, session: Session, outcome: Outcome) -> None:
        self.session = session
        self.outcome = outcome
        self.instruction = outcome.instruction

    def want(self, pattern: str) -> tuple[str, ...]:
        """The groups of `pattern` in the instruction."""
        found = re.search(pattern, self.instruction)
        if found is None:
            raise Stuck(f"instruction does not read as {pattern!r}")
        return found.groups()

    async def nodes(self, *, values: bool = False, offscreen: bool = True) -> list[dict[str, Any]]:
        request = {"what": "semantic", "include_offscreen": offscreen, "include_values": values}
        data = (await self.session.analyze(request)).data
        if "interactive_tree" not in data:
            raise Stuck(f"semantic view failed: {data}")
        nodes: list[dict[str, Any]] = data["interactive_tree"]
        return nodes

    async def text(self) -> str:
        data = (await self.session.analyze({"what": "markdown"})).data
        return str(data.get("markdown", ""))

    async def find(
        self, name: str | None = None, roles: Sequence[str] = (), *, context: str | None = None, opens: bool = False
    ) -> dict[str, Any]:
        """The one node of `roles` named `name` (exactly, case-insensitive; `opens`: its
        name's first word), told apart by `context` where several bear the name."""

        def named(node: dict[str, Any]) -> bool:
            have, want = node.get("n", "").strip().lower(), (name or "").strip().lower()
            return name is None or have == want or (opens and have.startswith(want + " "))

        nodes = await self.nodes()
        found = [
            n
            for n in nodes
            if (not roles or n["r"] in roles)
            and named(n)
            and (context is None or context.lower() in n.get("c", "").lower())
        ]
        if len(found) > 1 and name is not None:  # the name as written, case included, tells some apart
            found = [n for n in found if n.get("n", "").strip() == name.strip()] or found
        if len(found) > 1 and all(n["r"] == found[0]["r"] and n.get("n") == found[0].get("n") for n in found):
            found = found[:1]  # twins: the same control twice (the instruction cannot tell them apart either)
        if len(found) != 1:
            brief = [(n["r"], n.get("n", ""), n.get("c")) for n in nodes][:30]
            raise Stuck(f"{len(found)} nodes {'/'.join(roles)} {name!r} ctx={context!r} in {brief}")
        return found[0]

    async def act(self, action: str, **params: Any) -> dict[str, Any]:
        described = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.outcome.steps.append(f"{action}({described})")
        result = await self.session.interact({"action": action, **params})
        if not result.get("success"):
            raise Stuck(f"{action} failed: {result.get('error')}: {result.get('message')}")
        return result

    async def click(self, name: str | None = None, roles: Sequence[str] = (), **how: Any) -> dict[str, Any]:
        node = await self.find(name, roles, **how)
        return await self.act("click", element_id=node["i"])

    async def unnamed(self, word: str) -> str:
        """The id of the one visible control the page names nowhere but in its markup (an
        icon: `<span class="trash">`, `#send-reply`), as the dom view shows it."""
        shown = {n["i"] for n in await self.nodes()}
        html = (await self.session.analyze({"what": "dom"})).data.get("html", "")
        tags = re.findall(r"<[a-z][^>]*>", html)
        ids = {m.group(1) for tag in tags if word in tag and (m := re.search(r'data-llm-id="([\d.]+)"', tag))}
        found = sorted(ids & shown)
        if len(found) != 1:
            raise Stuck(f"{len(found)} visible controls with {word!r} in their markup")
        return found[0]

    async def submit(self, name: str = "Submit") -> None:
        await self.click(name, ("btn",))


Policy = Callable[[Oracle], Awaitable[None]]
POLICIES: dict[str, Policy] = {}


def policy(*tasks: str) -> Callable[[Policy], Policy]:
    def register(fn: Policy) -> Policy:
        for task in tasks:
            POLICIES[task] = fn
        return fn

    return register


# --- buttons, links, tabs, dialogs --------------------------------------------------------


@policy("click-button", "unicode-test")
async def click_button(o: Oracle) -> None:
    (label,) = o.want(r'Click on the "(.+)" button')
    await o.click(label, ("btn",))


@policy("click-link")
async def click_link(o: Oracle) -> None:
    (label,) = o.want(r'Click on the link "(.+)"')
    await o.click(label, ("link", "click"))


@policy("click-button-sequence")
async def click_button_sequence(o: Oracle) -> None:
    for label in o.want(r"Click button (\w+), then click button (\w+)"):
        await o.click(label, ("btn",))


@policy("click-test-2")
async def click_test_2(o: Oracle) -> None:
    (label,) = o.want(r"Click button (\w+)")
    await o.click(label, ("btn",))


@policy("click-test")
async def click_test(o: Oracle) -> None:
    o.want(r"Click the button")
    await o.act("click", element_id=next(n for n in await o.nodes() if n["r"] == "btn")["i"])


@policy("click-tab")
async def click_tab(o: Oracle) -> None:
    (label,) = o.want(r"Click on (Tab #\d+)")
    await o.click(label, ("tab",))


@policy("click-tab-2", "click-tab-2-hard", "click-tab-2-medium", "click-tab-2-easy")
async def click_tab_2(o: Oracle) -> None:
    (label,) = o.want(r'click on the link "(.+?)"')
    for tab in [n["n"] for n in await o.nodes() if n["r"] == "tab"]:
        await o.click(tab, ("tab",))
        links = [n for n in await o.nodes(offscreen=False) if n["r"] in ("link", "click") and n.get("n") == label]
        if links:
            await o.act("click", element_id=links[0]["i"])
            return
    raise Stuck(f"no link {label!r} under any tab")


@policy("click-collapsible", "click-collapsible-nodelay")
async def click_collapsible(o: Oracle) -> None:
    header = next(n for n in await o.nodes() if n["r"] == "tab")
    await o.act("click", element_id=header["i"])
    await o.submit()


@policy("click-collapsible-2", "click-collapsible-2-nodelay")
async def click_collapsible_2(o: Oracle) -> None:
    (label,) = o.want(r'click on the link "(.+?)"')
    for header in [n["n"] for n in await o.nodes() if n["r"] == "tab"]:
        await o.click(header, ("tab",))
        links = [n for n in await o.nodes(offscreen=False) if n["r"] in ("link", "click") and n.get("n") == label]
        if links:
            await o.act("click", element_id=links[0]["i"])
            return
    raise Stuck(f"no link {label!r} in any section")


@policy("click-dialog")
async def click_dialog(o: Oracle) -> None:
    await o.click("Close", ("btn",))


@policy("click-dialog-2")
async def click_dialog_2(o: Oracle) -> None:
    (label,) = o.want(r'labeled "(.+)"')
    if label.lower() == "x":
        label = "Close"
    await o.click(label, ("btn",))


# --- text entry ---------------------------------------------------------------------------


async def fields(o: Oracle) -> list[dict[str, Any]]:
    return [n for n in await o.nodes() if n["r"] in ("inp", "srch", "spin")]


@policy("enter-text", "enter-text-dynamic")
async def enter_text(o: Oracle) -> None:
    (text,) = o.want(r'Enter "(.+)" into the text field')
    await o.act("type", element_id=(await fields(o))[0]["i"], text=text)
    await o.submit()


@policy("enter-text-2")
async def enter_text_2(o: Oracle) -> None:
    text, case = o.want(r'Type "(.+)" in all (upper|lower) case')
    text = text.upper() if case == "upper" else text.lower()
    await o.act("type", element_id=(await fields(o))[0]["i"], text=text)
    await o.submit()


@policy("enter-password")
async def enter_password(o: Oracle) -> None:
    (password,) = o.want(r'Enter the password "(.+)" into both')
    for node in await fields(o):
        await o.act("type", element_id=node["i"], text=password)
    await o.submit()


@policy("focus-text", "focus-text-2")
async def focus_text(o: Oracle) -> None:
    wanted = re.search(r"Focus into the (\d+)(?:st|nd|rd|th)", o.instruction)
    index = int(wanted.group(1)) - 1 if wanted else 0
    await o.act("focus", element_id=(await fields(o))[index]["i"])


@policy("login-user")
async def login_user(o: Oracle) -> None:
    user, password = o.want(r'username "(.+)" and the password "(.+)" into')
    user_field, password_field = await fields(o)
    await o.act("type", element_id=user_field["i"], text=user)
    await o.act("type", element_id=password_field["i"], text=password)
    await o.click("Login", ("btn",))


@policy("login-user-popup")
async def login_user_popup(o: Oracle) -> None:
    user, password = o.want(r'username "(.+)" and the password "(.+)" into')
    user_field, password_field = await fields(o)
    for node, text in ((user_field, user), (password_field, password)):
        try:
            await o.act("set_value", element_id=node["i"], value=text)
        except Stuck:  # a popup came as the field took focus, and disabled it
            if not await dismiss_popup(o):
                raise
            await o.act("set_value", element_id=node["i"], value=text)
    await o.click("OK", ("btn",))


async def dismiss_popup(o: Oracle) -> bool:
    """A popup that came over the form is answered by its Cancel button (its OK leaves)."""
    for node in await o.nodes():
        if node["r"] == "btn" and node.get("n", "").lower() == "cancel":
            await o.act("click", element_id=node["i"])
            return True
    return False


@policy("enter-date")
async def enter_date(o: Oracle) -> None:
    month, day, year = o.want(r"Enter (\d\d)/(\d\d)/(\d{4})")
    date_input = next(n for n in await o.nodes() if n["r"] == "date")
    await o.act("set_value", element_id=date_input["i"], value=f"{year}-{month}-{day}")
    await o.submit()


@policy("enter-time")
async def enter_time(o: Oracle) -> None:
    hour, minute, half = o.want(r"Enter (\d+):(\d\d) (AM|PM)")
    hours = int(hour) % 12 + (12 if half == "PM" else 0)
    time_input = next(n for n in await o.nodes() if n["r"] == "date")
    await o.act("set_value", element_id=time_input["i"], value=f"{hours:02d}:{minute}")
    await o.submit()


@policy("use-spinner")
async def use_spinner(o: Oracle) -> None:
    (value,) = o.want(r"Select (-?\d+) with the spinner")
    spinner = next(n for n in await o.nodes() if n["r"] == "spin")
    await o.act("set_value", element_id=spinner["i"], value=value)
    await o.submit()


@policy("use-autocomplete", "use-autocomplete-nodelay")
async def use_autocomplete(o: Oracle) -> None:
    start, end = o.want(r'starts with "(.+?)"(?: and ends with "(.+?)")?')
    box = (await fields(o))[0]
    await o.act("type", element_id=box["i"], text=start)
    options = [n for n in await o.nodes() if n["r"] in ("opt", "menu", "click", "link") and n.get("n")]
    matching = [n for n in options if n["n"].startswith(start) and (not end or n["n"].endswith(end))]
    if not matching:
        raise Stuck(f"no suggestion fits among {[n['n'] for n in options]}")
    await o.act("click", element_id=matching[0]["i"])
    await o.submit()


# --- choices --------------------------------------------------------------------------------


@policy("click-checkboxes", "click-checkboxes-large", "click-checkboxes-transfer")
async def click_checkboxes(o: Oracle) -> None:
    (wanted,) = o.want(r"Select (.+?) and click Submit")
    names = [] if wanted == "nothing" else [w.strip() for w in re.split(r",\s*|\s+and\s+", wanted) if w.strip()]
    for name in names:
        await o.act("check", element_id=(await o.find(name, ("chk",)))["i"])
    await o.submit()


@policy("click-option")
async def click_option(o: Oracle) -> None:
    (name,) = o.want(r"Select (.+?) and click Submit")
    await o.act("check", element_id=(await o.find(name, ("rad",)))["i"])
    await o.submit()


@policy("choose-list")
async def choose_list(o: Oracle) -> None:
    (name,) = o.want(r"Select (.+?) from the list")
    select = next(n for n in await o.nodes() if n["r"] == "sel")
    await o.act("select", element_id=select["i"], value=name)
    await o.submit()


@policy("click-scroll-list")
async def click_scroll_list(o: Oracle) -> None:
    (wanted,) = o.want(r"Select (.+?) from the scroll list")
    listbox = next(n for n in await o.nodes() if n["r"] == "lst")
    await o.act("select", element_id=listbox["i"], value=[w.strip() for w in wanted.split(",")])
    await o.submit()


@policy("odd-or-even")
async def odd_or_even(o: Oracle) -> None:
    for node in await o.nodes():
        odd = node.get("n") == "Odd"
        if node["r"] == "btn" and node.get("n") in ("Odd", "Even") and "c" in node and (int(node["c"]) % 2 == 1) == odd:
            await o.act("click", element_id=node["i"])
    await o.submit()


# --- reading ------------------------------------------------------------------------------


@policy("read-table")
async def read_table(o: Oracle) -> None:
    (label,) = o.want(r"Enter the value of (.+?) into the text field")
    value = table_value(await o.text(), label)
    await o.act("type", element_id=(await fields(o))[0]["i"], text=value)
    await o.submit()


def table_value(markdown: str, label: str) -> str:
    """The cell beside `label` in a Markdown table."""
    for row in markdown.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) >= 2 and cells[0].lower() == label.lower():
            return cells[1]
    raise Stuck(f"no row {label!r} in the Markdown: {markdown[:300]!r}")


@policy("find-word")
async def find_word(o: Oracle) -> None:
    (nth,) = o.want(r"Find the (\d+)(?:st|nd|rd|th) word in the paragraph")
    text = await o.text()
    paragraph = [p for p in text.split("\n\n") if p.strip() and o.instruction not in p.replace('\\"', '"')]
    if not paragraph:
        raise Stuck(f"no paragraph in the Markdown: {text!r}")
    words = re.findall(r"[\w']+", paragraph[0])
    await o.act("type", element_id=(await fields(o))[0]["i"], text=words[int(nth) - 1])
    await o.submit()


@policy("copy-paste")
async def copy_paste(o: Oracle) -> None:
    source, target = [n for n in await o.nodes(values=True) if n["r"] == "inp"]
    await o.act("type", element_id=target["i"], text=source.get("v", ""))
    await o.submit()


@policy("simple-arithmetic")
async def simple_arithmetic(o: Oracle) -> None:
    text = await o.text()
    problem = re.search(r"(-?\d+)\s*([-+x*])\s*(-?\d+)\s*=", text)
    if problem is None:
        raise Stuck(f"no problem in the Markdown: {text!r}")
    a, op, b = int(problem.group(1)), problem.group(2), int(problem.group(3))
    answer = a + b if op == "+" else a - b if op == "-" else a * b
    await o.act("type", element_id=(await fields(o))[0]["i"], text=str(answer))
    await o.submit()


@policy("guess-number")
async def guess_number(o: Oracle) -> None:
    low, high = (int(x) for x in o.want(r"between (\d+)-(\d+)"))
    for _ in range(high - low + 1):
        guess = (low + high) // 2
        box = (await fields(o))[0]
        await o.act("set_value", element_id=box["i"], value=str(guess))
        await o.submit()
        if await episode_done(o.session):
            return
        feedback = await o.text()
        if "higher" in feedback.lower():
            low = guess + 1
        elif "lower" in feedback.lower():
            high = guess - 1
        else:
            raise Stuck(f"no feedback after guessing {guess}: {feedback!r}")


# --- apps -----------------------------------------------------------------------------------


@policy("navigate-tree")
async def navigate_tree(o: Oracle) -> None:
    (name,) = o.want(r'named "(.+)"')
    for _ in range(10):
        nodes = await o.nodes()
        target = [n for n in nodes if n.get("n") == name]
        if target:
            await o.act("click", element_id=target[0]["i"])
            return
        folders = [n for n in nodes if "collapsed" in n.get("s", "")]
        if not folders:
            raise Stuck(f"{name!r} not in the tree and no folder to open: {[n.get('n') for n in nodes]}")
        await o.act("click", element_id=folders[0]["i"])
    raise Stuck("tree too deep")


@policy("search-engine")
async def search_engine(o: Oracle) -> None:
    term, nth = o.want(r'enter "(.+?)" and press "Search", then find and click the (\d+)')
    await o.act("type", element_id=(await fields(o))[0]["i"], text=term)
    await o.click("Search", ("btn",))
    index = int(nth) - 1
    while True:
        results = [n for n in await o.nodes() if n["r"] == "link" and not n.get("n", "").isdigit()]
        results = [n for n in results if n.get("n") not in (">", "<", "Next", "Prev")]
        if index < len(results):
            await o.act("click", element_id=results[index]["i"])
            return
        index -= len(results)
        await o.click(">", ("link",))


@policy("email-inbox-delete")
async def email_delete(o: Oracle) -> None:
    (sender,) = o.want(r"Find the email by (.+?) and click the trash icon")
    await open_email(o, sender)
    await o.act("click", element_id=await o.unnamed("trash"))


async def open_email(o: Oracle, sender: str) -> None:
    """The row whose text opens with the sender's name."""
    await o.click(sender, ("click", "link", "btn"), opens=True)


@policy("email-inbox-forward")
async def email_forward(o: Oracle) -> None:
    sender, to = o.want(r"Find the email by (.+?) and forward that email to (.+?)\.$")
    await open_email(o, sender)
    await o.act("click", selector="text=Forward")  # one block draws Reply and Forward: by their text
    await o.act("type", element_id=(await fields(o))[0]["i"], text=to)
    await o.act("click", element_id=await o.unnamed("send-forward"))


@policy("email-inbox-reply")
async def email_reply(o: Oracle) -> None:
    sender, text = o.want(r'Find the email by (.+?) and reply to them with the text "(.+)"')
    await open_email(o, sender)
    await o.act("click", selector="text=Reply")
    body = [n for n in await fields(o)][-1]
    await o.act("type", element_id=body["i"], text=text)
    await o.act("click", element_id=await o.unnamed("send-reply"))


# --- the run ------------------------------------------------------------------------------


async def run_oracle(session: Session, base_url: str, task: str, seed: int) -> Outcome:
    instruction = await start_episode(session, base_url, task, seed, TIME_LIMIT_S)
    outcome = Outcome(task, seed, instruction)
    try:
        await POLICIES[task](Oracle(session, outcome))
    except Stuck as stuck:
        outcome.failure = f"step {len(outcome.steps) + 1}: {stuck}"
    except (StopIteration, IndexError, ValueError) as missing:  # next(), [0] or unpacking found too few
        outcome.failure = f"step {len(outcome.steps) + 1}: an expected control is not in the view ({missing!r})"
    await asyncio.sleep(0.2)  # the page scores the last action in its own handler
    outcome.reward = await episode_reward(session)
    if not outcome.success and outcome.failure is None:
        done = await episode_done(session)
        last = outcome.steps[-1] if outcome.steps else "no step"
        outcome.failure = f"reward {outcome.reward:g} after {last}" if done else f"episode not over after {last}"
    return outcome


async def run(tasks: Sequence[str], episodes: int, *, headed: bool = False) -> list[Outcome]:
    outcomes = []
    with pagelens.serve_directory(miniwob_html()) as base:
        async with await Session.start(allowed_hosts=list(LOOPBACK_HOSTS), headless=not headed) as session:
            for task in tasks:
                for seed in range(episodes):
                    outcomes.append(await run_oracle(session, base, task, seed))
    return outcomes


def print_table(outcomes: Sequence[Outcome]) -> None:
    table = Table(title="MiniWoB++ oracle through pagelens", show_lines=True)
    table.add_column("task")
    table.add_column("solved", justify="right")
    table.add_column("failures (seed: first failing step, why)")
    by_task: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        by_task.setdefault(outcome.task, []).append(outcome)
    for task, runs in by_task.items():
        failures = "\n".join(f"{o.seed}: {o.failure}"[:300] for o in runs if not o.success)
        table.add_row(task, f"{sum(o.success for o in runs)}/{len(runs)}", failures)
    solved = sum(o.success for o in outcomes)
    table.add_section()
    table.add_row("all", f"{solved}/{len(outcomes)} ({solved / max(len(outcomes), 1):.0%})", "")
    Console(width=200).print(table)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks", default=",".join(POLICIES), help="comma-separated MiniWoB task names")
    parser.add_argument("--episodes", type=int, default=3, help="episodes per task (seeds 0, 1, ...)")
    parser.add_argument("--headed", action="store_true", help="show the browser")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    tasks = [t.strip() for t in args.tasks.split(",") if t.strip()]
    unknown = [t for t in tasks if t not in POLICIES]
    if unknown:
        raise SystemExit(f"no oracle policy for: {', '.join(unknown)}")
    outcomes = asyncio.run(run(tasks, args.episodes, headed=args.headed))
    print_table(outcomes)
    return 0 if all(o.success for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
