"""The `pagelens` command, run as a real subprocess."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import pagelens
from pagelens.browser.page import LOAD_WAIT_S
from pagelens.engine.models import VIEWS
from tests.actions_support import serve_actions
from tests.cli_support import run_cli

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "shop.html"


def test_snapshot_of_a_local_file_prints_the_compact_summary() -> None:
    result = run_cli("snapshot", str(EXAMPLE))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["title"] == "Northwind Outfitters — Trail Running Shoes"
    assert summary["headings"] == ["h1: Trail running shoes"]
    labels = [a["label"] for a in summary["primary_actions"]]
    assert "Add to cart" in labels
    assert "help@northwind.example" not in summary["content_preview"]
    assert "hunter2" not in result.stdout


def test_a_page_that_never_finishes_loading_is_read_as_it_is() -> None:
    """An image whose server never answers holds `load` back for good."""
    with serve_actions() as site:
        result = run_cli("snapshot", f"{site}hanging-image.html")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["title"] == "Still loading"
    # One line, however long the address: scripts grep it.
    assert (
        f"{site}hanging-image.html had not finished loading after {LOAD_WAIT_S:g} s; read as it was\n" in result.stderr
    )


def test_extract_writes_the_content_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "shop.md"
    result = run_cli("extract", str(EXAMPLE), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "Ridgeline 4" in out.read_text(encoding="utf-8")
    main_content = rf"the main content of {re.escape(str(EXAMPLE))} \(\d+ characters\)"
    assert re.fullmatch(rf"wrote {main_content} to {re.escape(str(out))}\n", result.stderr)


@pytest.mark.parametrize("mode", [mode for mode in VIEWS if mode != "compact"])
def test_every_mode_writes_json_to_a_file(mode: str, tmp_path: Path) -> None:
    out = tmp_path / f"{mode}.json"
    result = run_cli("snapshot", str(EXAMPLE), "--mode", mode, "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    view = json.loads(out.read_text(encoding="utf-8"))
    assert view["url"].startswith("http://127.0.0.1:")
    assert "hunter2" not in out.read_text(encoding="utf-8")


def test_interaction_mode_options_reach_the_engine(tmp_path: Path) -> None:
    result = run_cli(
        "snapshot", str(EXAMPLE), "--mode", "interaction", "--max-controls", "3", "--max-headings", "1",
        "--base-url", "https://northwind.example/shoes/trail.html",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    model = json.loads(result.stdout)
    assert len(model["controls"]) == 3 and len(model["headings"]) == 1
    assert model["truncated"] is True
    assert model["url"] == "https://northwind.example/shoes/trail.html"


def test_a_saved_page_is_read_as_if_from_its_site() -> None:
    result = run_cli("snapshot", str(EXAMPLE), "--mode", "full", "--base-url", "https://northwind.example/shoes/")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert {"text": "Men", "href": "https://northwind.example/men"} in summary["nav_links"]
    assert summary["forms"][0]["action"] == "https://northwind.example/search"
    refused = run_cli("snapshot", str(EXAMPLE), "--base-url", "northwind.example")
    assert refused.returncode == 1 and refused.stderr.startswith("error: [invalid_request] ")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["snapshot", "no-such-file.html"], "file_not_found"),
        (["snapshot", str(EXAMPLE), "--viewport", "huge"], "invalid_request"),
        (["snapshot", "http://127.0.0.1:9/"], "err_unsafe_port"),
    ],
)
def test_failures_exit_nonzero_with_one_typed_line(args: list[str], code: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 1
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"error: [{code}] ")


def test_help_documents_the_views() -> None:
    result = run_cli("snapshot", "--help")
    assert result.returncode == 0
    for word in (*VIEWS, "--out", "--cdp-url", "--allowed-hosts"):
        assert word in result.stdout


def test_the_version_answers_both_ways() -> None:
    for args in (["--version"], ["version"]):
        result = run_cli(*args)
        assert result.returncode == 0 and result.stdout == f"pagelens {pagelens.__version__}\n", result
