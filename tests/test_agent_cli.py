"""`pagelens run` as a user runs it: a real process, a model reached by its environment
variables (a scripted server on the OpenAI wire), the bundled fixture shop as a local file."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

from tests.agent_script import SHOP_TASK, call, plan, shop_script
from tests.llm_servers import OpenAIChatServer

SHOP = Path(__file__).parent / "fixtures" / "agent" / "index.html"


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    """No key of the user's, no config of theirs, the store in a temporary folder."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("PAGELENS_")}
    env.update(
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        HOME=str(tmp_path),
        PAGELENS_DATABASE_URL=f"sqlite:///{tmp_path / 'pagelens.db'}",
        NO_COLOR="1",
        **extra,
    )
    return env


async def pagelens_run(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pagelens.cli.main", "run", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_a_completed_run_prints_progress_and_a_json_report(tmp_path: Path) -> None:
    async with OpenAIChatServer(shop_script()) as server:
        env = environment(tmp_path, OPENAI_API_KEY="test-key", OPENAI_BASE_URL=server.base_url)
        code, out, err = await pagelens_run(SHOP_TASK, "--url", str(SHOP), "--model", "openai/scripted", env=env)
    assert code == 0, err
    report = json.loads(out)
    assert report["status"] == "COMPLETED" and "Blue Kettle" in report["result"]
    assert {"steps", "plan", "usage", "duration_s"} <= report.keys()
    assert report["usage"] == {"input_tokens": 10 * len(server.requests), "output_tokens": 5 * len(server.requests)}
    assert [step["status"] for step in report["plan"]["steps"]] == ["completed"] * 4
    # The terminal saw the task, each call with its observation, the plan and the verdict.
    assert "Task " + SHOP_TASK in err
    assert "interact(action='click', selector='role=button[name=\"Send question\"]')" in err
    assert "✓ Ask the seller a question" in err and "COMPLETED" in err
    assert "Is it blue inside too?" not in err + out  # typed text stays out


async def test_a_failed_run_exits_1(tmp_path: Path) -> None:
    script = [plan(("Look", "in_progress")), call("fail", reason="nothing to do here")]
    async with OpenAIChatServer(script) as server:
        env = environment(tmp_path, OPENAI_API_KEY="test-key", OPENAI_BASE_URL=server.base_url)
        code, out, err = await pagelens_run("Do the impossible", "--url", str(SHOP), "--model", "openai/x", env=env)
    assert code == 1
    report = json.loads(out)
    assert (
        report["status"] == "FAILED" and report["error"] == "task_failed" and report["reason"] == "nothing to do here"
    )
    assert "FAILED task_failed: nothing to do here" in err


async def test_without_a_model_the_error_says_what_to_set(tmp_path: Path) -> None:
    code, out, err = await pagelens_run("Anything", env=environment(tmp_path))
    assert code == 1 and out == ""
    assert "[no_model_available]" in err and "OPENAI_API_KEY" in err and "ANTHROPIC_API_KEY" in err
