"""bench.miniwob's episode runner on real MiniWoB++ pages, with a scripted model that reads
the instruction and the semantic view the way a model would: the page's own reward says
whether the episode succeeded."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

import pagelens
from bench.miniwob import Episode, miniwob_html, run_episode
from pagelens.actions import Session
from pagelens.agent import Limits, Skills
from tests.agent_script import call, find_control, last_result
from tests.agent_support import scripted_model
from tests.llm_servers import OpenAIChatServer, Reply

pytest_plugins = ["tests.agent_support"]


@pytest.fixture(scope="module")
def miniwob() -> Iterator[str]:
    with pagelens.serve_directory(miniwob_html()) as url:
        yield url


def instruction(body: dict[str, Any]) -> str:
    return body["messages"][1]["content"]


def click_the_named_button(body: dict[str, Any]) -> Reply:
    wanted = re.search(r'Click on the "([^"]+)" button', instruction(body))
    assert wanted is not None, instruction(body)
    return call("interact", action="click", element_id=find_control(last_result(body), wanted.group(1), "btn"))


def type_the_text(body: dict[str, Any]) -> Reply:
    wanted = re.search(r'Enter "([^"]+)" into the text field', instruction(body))
    assert wanted is not None, instruction(body)
    return call("interact", action="type", element_id=find_control(last_result(body), "", "inp"), text=wanted.group(1))


async def episode(miniwob: str, task: str, script: list[Any], session: Session, skills: Skills) -> tuple[Episode, int]:
    async with OpenAIChatServer(script) as server:
        model = scripted_model(server.base_url)
        try:
            result = await run_episode(miniwob, task, 0, model, session, skills, Limits(max_steps=8, time_limit_s=60))
        finally:
            await model.aclose()
    return result, len(server.requests)


async def test_a_solved_episode_scores_its_reward(miniwob: str, session: Session, skills: Skills) -> None:
    result, requests = await episode(
        miniwob, "click-button", [call("analyze", what="semantic"), click_the_named_button], session, skills
    )
    assert result.success and result.reward == 1.0
    # The page ended its episode on the click: the run stopped there, without a finish.
    assert result.status == "STOPPED" and result.steps == 2 and requests == 2
    assert result.instruction.startswith("Click on the")


async def test_a_form_task_and_a_wrong_answer(miniwob: str, session: Session, skills: Skills) -> None:
    submit = call("interact", action="click", selector='role=button[name="Submit"]')
    solved, _ = await episode(
        miniwob, "enter-text", [call("analyze", what="semantic"), type_the_text, submit], session, skills
    )
    assert solved.success
    wrong = [call("analyze", what="semantic"), call("interact", action="type", selector="input", text="nope"), submit]
    failed, _ = await episode(miniwob, "enter-text", wrong, session, skills)
    assert not failed.success and failed.reward <= 0
