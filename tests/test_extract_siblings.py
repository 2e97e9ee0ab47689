"""Containers of a kept one's kind: readability-lxml weighs each product card on its own
and leaves out those that score low beside the one it keeps; trafilatura's text holds
them, so they are put back, in the page's order (consensus.py, "siblings of a kept
block's kind")."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import pagelens
from tests.cli_support import run_cli

SHOP = Path(__file__).parents[1] / "examples" / "shop.html"
# Name, price line, specs. readability-lxml scores a card by its paragraph, and counts
# none shorter than 25 characters: the long one is the card it keeps.
STOVES = [
    ("Ember canister stove", "$49 · butane", ("Weight 83 g", "Piezo igniter")),
    ("Cinder liquid-fuel", "$139 · burns white gas", ("Weight 310 g", "Field-maintainable pump")),
    ("Kindle wood stove", "$65 · twigs only", ("Weight 240 g", "Folds flat")),
]
LONG_PRICE_LINE = "{} · boils a litre of snow water in under four minutes"
TEASERS = ("More from Alder and Pine", "Tents", "Packs", "Headlamps")


def catalog(long_card: int) -> str:
    """A shop's category page: an introduction, the stoves as cards (the one at
    `long_card` with a price line readability-lxml scores), then a card of links to
    other departments, made like them."""
    cards = []
    for i, (name, price, specs) in enumerate(STOVES):
        line = LONG_PRICE_LINE.format(price.split(" · ")[0]) if i == long_card else price
        items = "".join(f"<li>{spec}</li>" for spec in specs)
        cards.append(
            f'<article class="product-tile"><h2><a href="/p/{i}">{name}</a></h2><p>{line}</p>'
            f'<ul class="specs">{items}</ul></article>'
        )
    teasers = "".join(f'<a href="/d/{t}">{t}</a> ' for t in TEASERS[1:])
    cards.append(f'<article class="product-tile"><h2><a href="/more">{TEASERS[0]}</a></h2><p>{teasers}</p></article>')
    return (
        '<!doctype html><html lang="en"><head><title>Camp stoves | Alder and Pine</title></head><body>'
        '<header><nav><a href="/">Home</a> <a href="/camp">Camp</a> <a href="/sale">Sale</a></nav></header>'
        '<main><section class="catalog"><h1>Camp stoves</h1>'
        "<p>Canister, liquid-fuel and wood stoves for a night out or a month on the trail, tested by our staff "
        f"on every trip.</p>{''.join(cards)}</section></main><footer>© Alder and Pine</footer></body></html>"
    )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Callable[[str, str], str]]:
    """Serve pages written into tmp_path on 127.0.0.1: (name, html) -> its URL."""
    with pagelens.serve_directory(tmp_path) as base:

        def serve(name: str, html: str) -> str:
            (tmp_path / name).write_text(html, encoding="utf-8")
            return base + name

        yield serve


@pytest.mark.parametrize("long_card", [0, len(STOVES) - 1], ids=["kept-card-first", "kept-card-last"])
async def test_every_card_of_a_catalog_is_read_in_the_pages_order(
    page: pagelens.Page, served: Callable[[str, str], str], long_card: int
) -> None:
    await page.goto(served("stoves.html", catalog(long_card)))
    result = await pagelens.extract(page, format="text")
    assert result.strategy == "consensus"
    prices = [
        LONG_PRICE_LINE.format(price.split(" · ")[0]) if i == long_card else price
        for i, (_, price, _) in enumerate(STOVES)
    ]
    found = [result.content.find(price) for price in prices]
    assert -1 not in found, result.content
    assert found == sorted(found), result.content
    # The card of links beside them is made like them, but trafilatura reads none of it.
    for teaser in TEASERS:
        assert teaser not in result.content


def test_the_bundled_shop_example_gives_both_products() -> None:
    """The page a new user reads first: both product cards, without the sign-in form
    beside them or the page's navigation."""
    result = run_cli("extract", str(SHOP), "--format", "markdown")
    assert result.returncode == 0, result.stderr
    markdown = result.stdout
    first, second = markdown.find("## Ridgeline 4"), markdown.find("## Summit Pro")
    assert 0 <= first < second, markdown
    assert "$129 · 4.6 ★ (212 reviews)" in markdown and "$159 · 4.8 ★ (98 reviews)" in markdown
    for chrome in ("Sign in", "Password", "hunter2", "Privacy", "Women"):
        assert chrome not in markdown
