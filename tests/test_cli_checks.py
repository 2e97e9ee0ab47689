"""What the command line refuses, and how: every failure one typed line and exit status 1,
bad arguments before any browser work; and what it reads: which targets, which hosts."""

from __future__ import annotations

import codecs
import json
import random
from pathlib import Path

import pytest

from pagelens.cli.output import write_out
from pagelens.cli.targets import resolve_target
from pagelens.errors import PagelensError
from tests.cli_support import run_cli

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "shop.html"
ARTICLE = Path(__file__).parent / "fixtures" / "extract" / "article.html"
# Nothing answers there: a command that reached the browser would fail browser_connect_failed.
NO_BROWSER = ("--cdp-url", "http://127.0.0.1:9")
PAGE = "<!doctype html><title>Spaced</title><h1>Hello</h1>"


def one_error_line(args: list[str]) -> str:
    """The message of the one `error: [code] message` line a failing command prints."""
    result = run_cli(*args)
    assert result.returncode == 1, result
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        # The output path, checked before the browser starts.
        (["snapshot", "{page}", "--out", "{tmp}/no/x.json"], "[invalid_request] --out {tmp}/no/x.json: there is no"),
        (["extract", "{page}", "-o", "{tmp}"], "[invalid_request] --out {tmp} is a folder"),
        (["screenshot", "{page}", "-o", "{tmp}/missing/x.jpg"], "[invalid_request] --out {tmp}/missing/x.jpg: "),
        (["screenshot", "{page}", "-o", "{tmp}/shot.png"], "[invalid_request] --out {tmp}/shot.png: a screenshot"),
        # Option values, checked by the API's own rules.
        (["extract", "{page}", "--max-characters", "0"], "[invalid_request] max_characters must be"),
        (["extract", "{page}", "--base-url", "file:///etc/"], "[invalid_request] base_url: "),
        (["snapshot", "{page}", "--mode", "interaction", "--max-controls", "0"], "[invalid_request] --max-controls: "),
        (["snapshot", "{page}", "--timeout", "0"], "[invalid_request] timeout must be above 0"),
        (["screenshot", "{page}", "-o", "{tmp}/x.jpg", "--quality", "100"], "[invalid_request] invalid screenshot"),
        (["snapshot", "{page}", "--allowed-hosts", ""], "[invalid_request] --allowed-hosts names no host"),
        # The target.
        (["snapshot", "http://[::1"], "[invalid_request] http://[::1 is not a valid URL"),
        (["snapshot", "chrome://version"], "[restricted_url] cannot navigate to chrome://version"),
        (["snapshot", "view-source:http://example.com/"], "[restricted_url] "),
        (["extract", "ftp://example.com/x"], "[restricted_url] "),
        (["snapshot", "{tmp}"], "[invalid_request] {tmp} is a folder, not a page"),
        (["snapshot", "{tmp}/noise.html"], "[invalid_request] {tmp}/noise.html is not an HTML file (binary)"),
        (["snapshot", "file://{tmp}/missing%20page.html"], "[file_not_found] no such file: {tmp}/missing page.html"),
    ],
)  # fmt: skip
def test_bad_arguments_are_refused_before_any_browser_work(args: list[str], expected: str, tmp_path: Path) -> None:
    (tmp_path / "noise.html").write_bytes(random.Random(7).randbytes(4000) + b"\0")
    filled = [arg.format(page=EXAMPLE, tmp=tmp_path) for arg in args]
    line = one_error_line([*filled, *NO_BROWSER])
    assert line.startswith("error: " + expected.format(tmp=tmp_path)), line


@pytest.mark.parametrize(
    "args",
    [
        ["snapshot", str(EXAMPLE), "--mode", "bogus"],
        ["snapshot", str(EXAMPLE), "--out"],
        ["snapshot", str(EXAMPLE), "--max-controls", "abc"],
        ["snapshot", str(EXAMPLE), "--indent", "-1"],
        ["snapshot"],
        ["screenshot", str(EXAMPLE)],
        ["bogus"],
    ],
)
def test_a_usage_error_is_one_typed_line_too(args: list[str]) -> None:
    line = one_error_line(args)
    assert line.startswith("error: [invalid_request] ")
    assert "Value error" not in line  # the validator's own prefix says nothing to a user


def test_a_bad_choice_names_the_choices() -> None:
    line = one_error_line(["snapshot", str(EXAMPLE), "--mode", "bogus"])
    assert line.startswith("error: [invalid_request] Invalid value for '--mode' / '-m': 'bogus' is not one of "), line


def test_the_help_shows_no_value_for_a_flag() -> None:
    bare = run_cli()
    assert bare.returncode == 0 and "Commands" in bare.stdout
    for args in (["--help"], ["snapshot", "--help"]):
        shown = run_cli(*args)
        assert shown.returncode == 0
        assert "<bool>" not in shown.stdout
        assert "--max-controls" in shown.stdout or "--version" in shown.stdout


def test_a_write_that_fails_after_the_check_is_a_typed_error(tmp_path: Path) -> None:
    with pytest.raises(PagelensError, match=r"could not write .*gone/x\.json: No such file or directory"):
        write_out(tmp_path / "gone" / "x.json", b"{}")


def test_a_wide_unicode_page_is_text(tmp_path: Path) -> None:
    page = tmp_path / "utf16.html"
    page.write_bytes(codecs.BOM_UTF16_LE + PAGE.encode("utf-16-le"))
    assert resolve_target(str(page)) == page


# ---- with the browser


def test_a_file_url_is_percent_decoded(tmp_path: Path) -> None:
    folder = tmp_path / "sp ace"
    folder.mkdir()
    (folder / "my page.html").write_text(PAGE, encoding="utf-8")
    result = run_cli("snapshot", f"file://{tmp_path}/sp%20ace/my%20page.html")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["title"] == "Spaced"


def test_allowed_hosts_add_to_the_loopback_a_local_file_is_served_on() -> None:
    result = run_cli("snapshot", str(EXAMPLE), "--allowed-hosts", "example.com")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["title"] == "Northwind Outfitters — Trail Running Shoes"


def test_a_page_without_main_content_says_so(tmp_path: Path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_text("", encoding="utf-8")
    result = run_cli("extract", str(empty))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"{empty} has no main content\n"


def test_extract_out_reports_what_it_wrote(tmp_path: Path) -> None:
    out = tmp_path / "article.md"
    result = run_cli("extract", str(ARTICLE), "--max-characters", "300", "-o", str(out))
    assert result.returncode == 0, result.stderr
    written = out.read_text(encoding="utf-8").removesuffix("\n")
    assert 0 < len(written) <= 300
    assert result.stderr == (
        f"wrote the main content of {ARTICLE} ({len(written)} characters, cut at --max-characters 300) to {out}\n"
    )
