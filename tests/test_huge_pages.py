"""Pages too big for a prompt: view hashes and if_changed_since, views cut to a
token budget by relevance to a query (DOM RAG) or into pages, and scroll_to_load for
virtual lists and infinite scroll. One session (one Chromium) serves the module; the
10,000-control page is generated and captured once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

import pagelens
from bench.dom_rag import QUERY_STYLES, Trial, pick_targets, try_target
from bench.huge_page import HugePage, controls_page
from pagelens.actions import Session
from pagelens.browser import page as page_module
from pagelens.budget import DEFAULT_MAX_TOKENS, FitRequest, PageOutOfRangeError, Unchanged, fit_view, get_ranker
from pagelens.budget.layouts import compact_json
from pagelens.engine import VIEWS
from pagelens.engine.models import MAX_SKELETON_BYTES
from pagelens.tokens import count_tokens
from tests.mcp_harness import McpServer, result_json

FIXTURES = Path(__file__).parent / "fixtures" / "huge"
HUGE_CONTROLS = 10_000
HUGE_SEED = 7
BIG_CONTROLS = 2_000  # some 45,000 tokens: enough to page through, quicker to capture
BIG_SEED = 3


@pytest.fixture(scope="module")
def huge() -> HugePage:
    return controls_page(HUGE_CONTROLS, HUGE_SEED)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, huge: HugePage) -> Iterator[str]:
    """The fixture pages, the 10k-control page as huge.html and a 2k one as big.html."""
    folder = tmp_path_factory.mktemp("huge")
    for page in FIXTURES.iterdir():
        (folder / page.name).write_bytes(page.read_bytes())
    (folder / "huge.html").write_text(huge.html, encoding="utf-8")
    (folder / "big.html").write_text(controls_page(BIG_CONTROLS, BIG_SEED).html, encoding="utf-8")
    (folder / "cards.html").write_text(cards_page(), encoding="utf-8")
    with pagelens.serve_directory(folder) as url:
        yield url


CARD_NAMES = [f"{colour} {thing}" for colour in ("Amber", "Birch", "Cobalt", "Dune", "Ember", "Fern", "Granite",
    "Harbor", "Indigo", "Juniper", "Kelp", "Lichen", "Marble", "Nickel", "Ochre") for thing in ("kettle", "teapot",
    "mug", "skillet", "ladle", "whisk", "colander", "grater", "trivet", "carafe")]  # fmt: skip


def cards_page() -> str:
    """A shop's listing: a card per product, each with its heading and an "Add to cart"."""
    cards = "".join(
        f'<article><h2>{name}</h2><p>A sturdy {name.split()[1]}, ${10 + i}.</p><button type="button">Add to cart'
        "</button></article>"
        for i, name in enumerate(CARD_NAMES)
    )
    return f"<!doctype html><title>Kitchen</title><main><h1>Kitchen</h1>{cards}</main>"


@pytest.fixture(scope="module")
async def session() -> AsyncIterator[Session]:
    async with await Session.start() as session:
        yield session


async def go(session: Session, url: str) -> pagelens.Page:
    result = await session.interact({"action": "navigate", "url": url, "summary": False})
    assert result["success"], result
    return (await session.tabs.current(None)).page


@pytest.fixture(scope="module")
async def huge_view(session: Session, site: str) -> dict[str, Any]:
    """The semantic view of the 10k page with every control, taken once."""
    page = await go(session, f"{site}huge.html")
    tree = await page.semantic_tree(include_offscreen=True)
    return tree.model_dump(mode="json", exclude_none=True)


# ---- hashes


async def test_every_view_hashes_the_same_until_the_page_changes(session: Session, site: str) -> None:
    page = await go(session, f"{site}small.html")
    hashes = {}
    for mode in VIEWS:
        first = await page.snapshot(mode)
        again = await page.snapshot(mode)
        assert first.hash == again.hash, mode  # nothing volatile: two captures, one hash
        assert len(first.hash) == 16
        assert await page.snapshot(mode, if_changed_since=first.hash) == Unchanged(hash=first.hash)
        hashes[mode] = first.hash
    await page.playwright_page.click("#more")  # adds an input
    for mode in ("interaction", "semantic", "skeleton", "compact"):
        changed = await page.snapshot(mode, if_changed_since=hashes[mode])
        assert not isinstance(changed, Unchanged), mode
        assert changed.hash != hashes[mode]
    with pytest.raises(pagelens.InvalidRequestError, match="if_changed_since"):
        await page.snapshot("semantic", if_changed_since="not-a-hash")


async def test_a_scroll_changes_the_views_that_give_coordinates(session: Session, site: str) -> None:
    page = await go(session, f"{site}small.html")
    before = {mode: (await page.snapshot(mode)).hash for mode in ("semantic", "interaction", "skeleton")}
    await page.playwright_page.evaluate("window.scrollTo(0, 200)")
    after = {mode: (await page.snapshot(mode)).hash for mode in ("semantic", "interaction", "skeleton")}
    assert after["semantic"] != before["semantic"]  # every xy moved
    assert after["interaction"] != before["interaction"]
    assert after["skeleton"] == before["skeleton"]  # no coordinates in it


async def test_analyze_answers_unchanged_for_the_hash_it_gave(session: Session, site: str) -> None:
    await go(session, f"{site}small.html")
    first = (await session.analyze({"what": "semantic"})).data
    again = (await session.analyze({"what": "semantic", "if_changed_since": first["hash"]})).data
    assert again == {"unchanged": True, "hash": first["hash"]}
    for what in ("page_summary", "interactive", "skeleton"):
        view = (await session.analyze({"what": what})).data
        unchanged = (await session.analyze({"what": what, "if_changed_since": view["hash"]})).data
        assert unchanged["unchanged"] is True, what
    # Another query is another answer: the hash covers the parameters that shape it.
    narrowed = (await session.analyze({"what": "semantic", "query": "save", "if_changed_since": first["hash"]})).data
    assert "unchanged" not in narrowed and narrowed["hash"] != first["hash"]
    assert [node["n"] for node in narrowed["interactive_tree"]] == ["Save profile"]
    for bad, parameter in (
        ({"what": "semantic", "if_changed_since": "abc"}, "if_changed_since"),
        ({"what": "tabs", "if_changed_since": first["hash"]}, "if_changed_since"),
        ({"what": "semantic", "page": 0}, "page"),
    ):
        with pytest.raises(pagelens.InvalidRequestError) as caught:
            await session.analyze(bad)
        assert caught.value.parameter == parameter  # type: ignore[attr-defined]


# ---- the token budget


async def test_a_view_too_big_comes_in_pages(session: Session, site: str) -> None:
    await go(session, f"{site}big.html")
    request = {"what": "semantic", "include_offscreen": True}
    first = (await session.analyze(request)).data
    assert first["dom_filtered"] is True and first["page"] == 1 and first["pages"] > 10
    assert first["original_node_count"] >= BIG_CONTROLS and first["token_reduction"] > 90
    assert count_tokens(compact_json(first)) <= DEFAULT_MAX_TOKENS
    second = (await session.analyze({**request, "page": 2})).data
    ids_first = [node["i"] for node in first["interactive_tree"]]
    ids_second = [node["i"] for node in second["interactive_tree"]]
    assert not set(ids_first) & set(ids_second)
    assert int(ids_second[0]) > int(ids_first[-1])  # without a query, pages follow the page
    beyond = (await session.analyze({**request, "page": first["pages"] + 1})).data
    assert beyond["success"] is False and beyond["error"] == "page_out_of_range"
    # The skeleton's chunks are its elements.
    wanted = controls_page(BIG_CONTROLS, BIG_SEED).unique_buttons()[0].label
    skeleton = (await session.analyze({"what": "skeleton", "query": f"press {wanted}", "max_tokens": 1000})).data
    assert f">{wanted}</button>" in skeleton["html"] and skeleton["dom_filtered"] is True
    assert count_tokens(compact_json(skeleton)) <= 1000


async def test_acceptance_one_labelled_button_is_kept_95_percent_of_the_time(huge: HugePage, huge_view: dict) -> None:
    """100 random targets on a 10k-control page, agent-phrased queries, each
    answer within the default budget (the same fit_view analyze runs; bench/dom_rag.py
    measures it, and the other rankers, at length)."""
    assert len(huge_view["interactive_tree"]) >= HUGE_CONTROLS
    targets = pick_targets(huge_view, huge.buttons, 100, seed=HUGE_SEED)
    assert len(targets) == 100 and {t.style for t in targets} == set(QUERY_STYLES)
    ranker = get_ranker("bm25")

    def run_all() -> list[Trial]:
        # On names alone: the unique labels are enough here (headings add to it: bench.dom_rag).
        return [try_target(huge_view, target, ranker, DEFAULT_MAX_TOKENS, {}) for target in targets]

    trials = await asyncio.to_thread(run_all)
    hits = sum(trial.hit for trial in trials)
    assert all(trial.within_budget for trial in trials)
    assert hits >= 95, [t.query for t, trial in zip(targets, trials, strict=True) if not trial.hit]


async def test_a_query_tells_apart_controls_of_one_label_by_their_heading(session: Session, site: str) -> None:
    """150 "Add to cart" buttons: the agent's words name the product, which only the
    heading above its button says. Its button comes first among those of the same label,
    on the first page of a small budget."""
    page = await go(session, f"{site}cards.html")
    buttons = [node.i for node in (await page.semantic_tree(include_offscreen=True)).interactive_tree]
    assert len(buttons) == len(CARD_NAMES)
    request = {"what": "semantic", "include_offscreen": True, "max_tokens": 600}
    for name in ("Marble whisk", "Ochre carafe", "Birch mug"):
        data = (await session.analyze({**request, "query": f"add the {name.lower()} to the cart"})).data
        assert data["pages"] > 1, data["filter_reason"]  # the budget holds a few of the 150
        assert buttons[CARD_NAMES.index(name)] in [node["i"] for node in data["interactive_tree"]], name
    # The heading only ranks: a query a control's own name contains still keeps just those.
    data = (await session.analyze({**request, "query": "Add to cart", "max_tokens": 20_000})).data
    assert len(data["interactive_tree"]) == len(CARD_NAMES)


async def test_a_query_finds_one_button_among_ten_thousand(
    session: Session, site: str, huge: HugePage, huge_view: dict
) -> None:
    """Through analyze, as an agent would ask (on the page huge_view loaded)."""
    if (await session.tabs.current(None)).playwright_page.url != f"{site}huge.html":
        await go(session, f"{site}huge.html")
    wanted = random.Random(1).choice(huge.unique_buttons())
    query = f"click the {wanted.label} button"
    data = (await session.analyze({"what": "semantic", "include_offscreen": True, "query": query})).data
    assert data["dom_filtered"] is True and data["query"] == query
    assert "bm25" in data["filter_reason"]
    assert wanted.label in [node["n"] for node in data["interactive_tree"]]
    assert data["original_node_count"] >= HUGE_CONTROLS and data["token_reduction"] > 95
    assert count_tokens(compact_json(data)) <= DEFAULT_MAX_TOKENS


def test_small_views_keep_the_substring_filter() -> None:
    controls = [
        {"id": str(i), "role": "link", "name": name} for i, name in enumerate(["Volume 1", "Volume 10", "Atlas"])
    ]
    aimap = {c["id"]: f"#c{c['id']}" for c in controls}
    view = {"url": "u", "title": "t", "controls": controls, "aimap": aimap}
    out = fit_view("interaction", view, FitRequest(query="volume 1"))
    assert [c["name"] for c in out["controls"]] == ["Volume 1", "Volume 10"]
    assert out["aimap"] == {"0": "#c0", "1": "#c1"} and out["original_node_count"] == 3
    assert fit_view("interaction", view, FitRequest()) == view  # fits, no query: as it was
    # No name contains it as written: the ranker's choice.
    ranked = fit_view("interaction", view, FitRequest(query="open the atlas map"))
    assert [c["name"] for c in ranked["controls"]] == ["Atlas"] and "bm25" in ranked["filter_reason"]
    with pytest.raises(PageOutOfRangeError):
        fit_view("interaction", view, FitRequest(page=2))


def test_long_markdown_is_cut_into_blocks() -> None:
    blocks = [f"## Chapter {i}\n\nThe {word} harvest of year {i}." for i, word in enumerate(["apple", "pear"] * 300)]
    view = {"url": "u", "markdown": "\n\n".join(blocks), "strategy": "consensus"}
    out = fit_view("markdown", view, FitRequest(query="what did the pear harvest of year 301 give", max_tokens=400))
    assert "year 301." in out["markdown"] and out["dom_filtered"] is True
    assert count_tokens(compact_json(out)) <= 400
    second = fit_view("markdown", view, FitRequest(max_tokens=400, page=2))
    assert second["page"] == 2 and second["markdown"] not in view["markdown"][:200]


# ---- virtual lists and infinite scroll


async def test_a_virtual_list_is_reported_and_loads_more(session: Session, site: str) -> None:
    page = await go(session, f"{site}lists.html")
    tree = await page.semantic_tree()
    container = next(c for c in tree.scrollableContainers if c.hasMore)
    loaded = await page.scroll_to_load(container.id, max_items=30)
    assert loaded.stopped == "max_items" and loaded.new_items >= 30 and not loaded.reached_end
    assert loaded.new_controls >= 30  # an Open button per message
    assert loaded.container.startswith("div#virtual")
    # The rows it rendered are the next messages, none twice.
    names = [n.n for n in (await page.semantic_tree()).interactive_tree if n.n.startswith("Open message")]
    assert len(names) == len(set(names)) and "Open message 1" not in names


async def test_infinite_scroll_loads_until_the_end(session: Session, site: str) -> None:
    await go(session, f"{site}feed.html")
    result = await session.interact({"action": "scroll_to_load", "value": 500})
    assert result["success"] is True, result
    loaded = result["loaded"]
    assert loaded["new_items"] == 40 and loaded["reached_end"] is True and loaded["stopped"] == "end"
    assert loaded["new_controls"] == 80  # a link and a Like button per post
    assert "the end is reached" in result["message"]
    tree = (await session.analyze({"what": "semantic", "query": "read post 60"})).data
    assert [node["n"] for node in tree["interactive_tree"]] == ["Read post 60"]


async def test_scroll_to_load_refuses_bad_input(session: Session, site: str) -> None:
    page = await go(session, f"{site}lists.html")
    with pytest.raises(pagelens.InvalidRequestError):
        await page.scroll_to_load("div#virtual")
    with pytest.raises(pagelens.InvalidRequestError):
        await page.scroll_to_load(None, max_items=0)
    missing = await session.interact({"action": "scroll_to_load", "element_id": "99999"})
    assert missing["success"] is False and missing["error"] == "not_found"
    with pytest.raises(pagelens.InvalidRequestError):
        await session.interact({"action": "scroll_to_load", "value": "lots"})


# ---- through MCP


async def test_mcp_pages_hashes_and_scroll_to_load(tmp_path: Path, site: str) -> None:
    server = await McpServer.start([], tmp_path / "server.log")
    try:
        navigated = await server.call_json("interact", action="navigate", url=f"{site}lists.html", summary=False)
        assert navigated["success"] is True
        view = await server.call_json("analyze", what="semantic", include_offscreen=True, max_tokens=300)
        assert view["pages"] > 1 and view["page"] == 1 and len(view["hash"]) == 16
        second = await server.call_json("analyze", what="semantic", include_offscreen=True, max_tokens=300, page=2)
        assert second["page"] == 2
        same = await server.call_json(
            "analyze", what="semantic", include_offscreen=True, max_tokens=300, if_changed_since=view["hash"]
        )
        assert same == {"unchanged": True, "hash": view["hash"]}
        bad = await server.call("analyze", what="semantic", if_changed_since="xyz")
        assert bad.is_error and result_json(bad)["error"] == "invalid_request"
        assert "if_changed_since" in result_json(bad)["message"]
        container = view["scrollableContainers"][0]["id"]
        loaded = await server.call_json("interact", action="scroll_to_load", element_id=container, value=20)
        assert loaded["success"] is True and loaded["loaded"]["new_items"] >= 20
    finally:
        await server.close()


async def test_the_skeleton_is_cut_at_an_element_at_100_kb(
    page: pagelens.Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Names of two- and three-byte characters: the limit counts bytes of UTF-8, not characters.
    links = "".join(f'<p><a href="/item/{i}">Überschrift {i} — 日本語の見出し</a></p>' for i in range(3000))
    await page.set_content(f"<title>Many links</title><body>{links}</body>")
    cut = await page.skeleton()
    assert cut.truncated
    size = len(cut.html.encode("utf-8"))
    assert MAX_SKELETON_BYTES - 200 < size <= MAX_SKELETON_BYTES and len(cut.html) < size - 10_000
    # A prefix of the whole skeleton, element by element, that the next element would overflow.
    monkeypatch.setattr(page_module, "MAX_SKELETON_BYTES", 10_000_000)
    whole = await page.skeleton()
    assert not whole.truncated
    lines, kept = whole.html.split("\n"), cut.html.split("\n")
    assert len(lines) == 3000 and lines[: len(kept)] == kept
    assert size + 1 + len(lines[len(kept)].encode("utf-8")) > MAX_SKELETON_BYTES
