"""`pagelens serve` as a user starts it: the token made once and kept 0600, the bind rule,
the bearer check, the OpenAPI schema."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import httpx2 as httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def environment(tmp_path: Path) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")},
        "PAGELENS_CONFIG_DIR": str(tmp_path / "config"),
        "PAGELENS_DATABASE_URL": f"sqlite:///{tmp_path / 'daemon.db'}",
        "NO_COLOR": "1",
    }


def serve(tmp_path: Path, *args: str) -> contextlib.AbstractAsyncContextManager[tuple[asyncio.subprocess.Process, str]]:
    return serve_process(environment(tmp_path), *args)


@contextlib.asynccontextmanager
async def serve_process(env: dict[str, str], *args: str) -> AsyncIterator[tuple[asyncio.subprocess.Process, str]]:
    """`pagelens serve` on a free port, once /healthz answers: the process and its base URL."""
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pagelens.cli.main", "serve", "--port", str(port), *args,
        env=env, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient() as client:
            for _ in range(300):
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get(f"{base}/healthz")).status_code == 200:
                        break
                assert process.returncode is None, "the daemon stopped"
                await asyncio.sleep(0.1)
        yield process, base
    finally:
        if process.returncode is None:
            process.terminate()
            await asyncio.wait_for(process.wait(), 15)


async def read_stderr(process: asyncio.subprocess.Process) -> str:
    assert process.stderr is not None
    return (await asyncio.wait_for(process.stderr.read(), 15)).decode()


async def test_the_first_start_makes_a_token_shows_it_once_and_keeps_it_private(tmp_path: Path) -> None:
    async with serve(tmp_path) as (process, base), httpx.AsyncClient(base_url=base) as client:
        token_file = tmp_path / "config" / "daemon-token"
        token = token_file.read_text().strip()
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert (await client.get("/healthz")).json()["status"] == "ok"
        refused = await client.get("/api/runs/nothing")
        assert refused.status_code == 401 and refused.json()["error"] == "unauthorized"
        wrong = await client.get("/api/runs/nothing", headers={"Authorization": "Bearer " + token[:-1] + "x"})
        assert wrong.status_code == 401
        found = await client.get("/api/runs/nothing", headers={"Authorization": f"Bearer {token}"})
        assert found.status_code == 404 and found.json()["error"] == "record_not_found"
        schema = (await client.get("/openapi.json", headers={"Authorization": f"Bearer {token}"})).json()
        assert schema["components"]["securitySchemes"]["bearer"]["scheme"] == "bearer"
        process.terminate()
        first = await read_stderr(process)
    assert token in first and "shown once" in first
    async with serve(tmp_path) as (process, _base):
        process.terminate()
        second = await read_stderr(process)
    assert token not in second and "token: in" in second  # kept, and never shown again


async def test_a_daemon_others_can_reach_needs_a_token_given_on_purpose(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pagelens.cli.main", "serve", "--host", "0.0.0.0", "--port", str(free_port()),
        env=environment(tmp_path), stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    err = await read_stderr(process)
    assert await asyncio.wait_for(process.wait(), 15) == 1
    assert "[invalid_request]" in err and "--token" in err
    assert not (tmp_path / "config" / "daemon-token").exists()


async def test_the_token_can_come_from_the_environment_out_of_the_process_list(tmp_path: Path) -> None:
    # --token shows the secret to every user of the machine in `ps`; PAGELENS_TOKEN does not.
    env = {**environment(tmp_path), "PAGELENS_TOKEN": "s3cret"}
    async with serve_process(env) as (process, base), httpx.AsyncClient(base_url=base) as client:
        assert (await client.get("/openapi.json", headers={"Authorization": "Bearer s3cret"})).status_code == 200
        assert (await client.get("/openapi.json")).status_code == 401
        command_line = await asyncio.to_thread(Path(f"/proc/{process.pid}/cmdline").read_bytes)
    assert b"s3cret" not in command_line
    assert not (tmp_path / "config" / "daemon-token").exists()


async def test_a_given_token_is_the_one_required(tmp_path: Path) -> None:
    async with serve(tmp_path, "--token", "s3cret") as (_process, base), httpx.AsyncClient(base_url=base) as client:
        assert (await client.get("/openapi.json", headers={"Authorization": "Bearer s3cret"})).status_code == 200
        assert (await client.get("/openapi.json")).status_code == 401
    assert not (tmp_path / "config" / "daemon-token").exists()


def workers_of(pid: int) -> list[int]:
    """The worker processes `pagelens serve --workers` spawned (not multiprocessing's helper)."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            parent = int(stat_file.read_text().rsplit(")", 1)[1].split()[1])
            if parent == pid and b"spawn_main" in (stat_file.parent / "cmdline").read_bytes():
                found.append(int(stat_file.parent.name))
    return found


def running(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


async def test_several_workers_serve_one_port_and_stop_with_the_daemon(tmp_path: Path) -> None:
    args = ("--token", "s3cret", "--workers", "2", "--redis-url", "redis://127.0.0.1:6379/0")
    headers = {"Authorization": "Bearer s3cret"}
    async with serve(tmp_path, *args) as (process, base), httpx.AsyncClient(base_url=base, headers=headers) as client:
        workers = workers_of(process.pid)
        assert len(workers) == 2
        # Each request on a connection of its own, so both workers get some.
        for n in range(6):
            async with httpx.AsyncClient(base_url=base, headers=headers) as one:
                response = await one.patch("/api/session/nothing", json={"title": f"t{n}"})
                assert response.status_code == 404 and response.json()["error"] == "record_not_found"
        assert (await client.get("/api/sessions")).json()["total"] == 0
        process.terminate()
        assert await asyncio.wait_for(process.wait(), 15) == 0
    assert not any(map(running, workers))


async def test_several_workers_need_redis(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "pagelens.cli.main", "serve", "--port", str(free_port()), "--token", "s3cret",
        "--workers", "2", env=environment(tmp_path), stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    err = await read_stderr(process)
    assert await asyncio.wait_for(process.wait(), 15) == 1
    assert "[invalid_request]" in err and "--redis-url" in err


async def test_what_cannot_be_reached_at_startup_is_one_line_without_its_password(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    for option, url, shown in (
        (
            "--redis-url",
            f"redis://:R3disPW@127.0.0.1:{port}/0",
            f"cannot reach Redis at redis://:***@127.0.0.1:{port}/0",
        ),
        (
            "--database-url",
            f"postgresql://u:R3disPW@127.0.0.1:{port}/x",
            f"postgresql+asyncpg://u:***@127.0.0.1:{port}/x",
        ),
    ):
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "pagelens.cli.main", "serve", "--port", str(free_port()), "--token", "s3cret",
            option, url, env=environment(tmp_path), stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        err = await read_stderr(process)
        assert await asyncio.wait_for(process.wait(), 30) == 1, err
        assert err.startswith("error: [store_unavailable] ") and shown in err, err
        assert len(err.splitlines()) == 1 and "R3disPW" not in err, err
