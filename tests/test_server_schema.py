"""The daemon's OpenAPI schema, fuzzed by schemathesis against a running `pagelens serve`:
no generated request, valid or not, gets a 5xx."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from tests.llm_servers import OpenAIChatServer, Reply
from tests.test_server_cli import environment, free_port, serve_process

ST = Path(sys.executable).parent / "st"


async def test_no_generated_request_gets_a_server_error(tmp_path: Path) -> None:
    # Whatever the fuzzer asks of the model, it answers: a model failure would be a 502.
    async with OpenAIChatServer([Reply(text="ok")] * 2000) as model:
        env = {
            **environment(tmp_path),
            "OPENAI_API_KEY": model.api_key,
            "OPENAI_BASE_URL": model.base_url,
            "PAGELENS_MODEL": "openai/scripted",
        }
        # Runs it starts go to a browser that does not answer: they fail fast, in the background,
        # so none has a screenshot or a question (whose routes then answer 404: not a warning).
        args = ("--token", "t", "--cdp-url", f"http://127.0.0.1:{free_port()}")
        async with serve_process(env, *args) as (_process, base):
            fuzz = await asyncio.create_subprocess_exec(
                str(ST), "run", f"{base}/openapi.json", "--header", "Authorization: Bearer t",
                "--checks", "not_a_server_error", "--max-examples", "15",
                "--warnings", "missing_auth,validation_mismatch,base_url_mismatch,unsupported_regex",
                "--workers", "1", "--seed", "1",
                "--request-timeout", "30",
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, cwd=tmp_path,
            )  # fmt: skip
            out, _ = await asyncio.wait_for(fuzz.communicate(), 600)
    report = out.decode()
    assert fuzz.returncode == 0, report
    assert "No issues found" in report and "Selected: 16/16" in report, report
