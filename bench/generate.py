"""Generated test pages of a chosen size, for timing the engine on large DOMs.

A page is a realistic mix of what sites are made of: a sticky header with a navigation
bar and a search form, a sidebar, article sections (headings, prose with inline links),
card grids with "Read more" links and buttons, lists, tables with row actions, forms
(labels, text fields, selects, checkboxes, radios, textareas), collapsed <details>,
hidden menus and deep wrapper <div>s, then a footer. Blocks are added until the page
holds the requested number of elements. The same (nodes, seed) always gives the same page.

    python -m bench.generate --nodes 5000 --seed 1 > page.html
"""

from __future__ import annotations

import argparse
import random
import sys
from html import escape
from html.parser import HTMLParser

_WORD_LIST = (
    "account about access add address advanced analysis answer archive article author back "
    "balance basket billing blog board book browse budget calendar cancel card cart category "
    "change channel chart check city close code comment community company compare contact "
    "content continue country create customer dashboard data date delete delivery details "
    "discount document download draft edit email event export feature feedback file filter "
    "finance folder follow forum gallery guide help history home image import inbox invoice "
    "issue item job language latest library license list login manage map market member "
    "message month music network news next note notice offer order overview page partner "
    "password payment people photo plan policy post premium preview price privacy product "
    "profile project publish question quick rating read recent record report request "
    "research resource result review save schedule search section security select send "
    "service settings share shipping shop sign size social source status store story "
    "subscribe summary support system tag task team terms theme ticket time title today "
    "tool topic track trend update upload user video view weather week welcome work year"
)
WORDS = _WORD_LIST.split()

STYLE = """
body{margin:0;font:15px/1.5 sans-serif}
header{position:sticky;top:0;background:#fff;border-bottom:1px solid #ddd;display:flex;gap:16px}
nav ul{display:flex;gap:12px;list-style:none;margin:0;padding:8px}
.layout{display:grid;grid-template-columns:220px 1fr;gap:24px}
.grid{display:grid;grid-template-columns:repeat(3,1fr);gap:12px}
.card{border:1px solid #eee;padding:8px}
.menu-hidden{display:none}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0,0,0,0)}
.scroll-box{max-height:160px;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #eee;padding:2px 6px}
"""


class Writer:
    """HTML text plus a running count of the elements written."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.parts: list[str] = []
        self.elements = 0
        self.serial = 0

    def open(self, tag: str, **attrs: str | None) -> None:
        self.elements += 1
        self.parts.append(f"<{tag}{_attrs(attrs)}>")

    def close(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")

    def leaf(self, tag: str, text: str = "", **attrs: str | None) -> None:
        self.open(tag, **attrs)
        self.parts.append(escape(text))
        self.close(tag)

    def void(self, tag: str, **attrs: str | None) -> None:
        self.elements += 1
        self.parts.append(f"<{tag}{_attrs(attrs)}>")

    def text(self, text: str) -> None:
        self.parts.append(escape(text))

    def words(self, n: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(n))

    def title(self, n: int) -> str:
        return self.words(n).capitalize()

    def next_id(self, prefix: str) -> str:
        self.serial += 1
        return f"{prefix}-{self.serial}"

    def html(self) -> str:
        return "".join(self.parts)


def _attrs(attrs: dict[str, str | None]) -> str:
    out = []
    for key, value in attrs.items():
        name = key.rstrip("_").replace("_", "-")
        if value is None:
            continue
        out.append(f" {name}" if value == "" else f' {name}="{escape(value)}"')
    return "".join(out)


# ---- blocks: each writes one self-contained piece of page


def nav_bar(w: Writer) -> None:
    w.open("header")
    w.leaf("a", "Home", href="/", class_="logo")
    w.open("nav", aria_label="Main")
    w.open("ul")
    for _ in range(w.rng.randint(6, 12)):
        w.open("li")
        word = w.rng.choice(WORDS)
        w.leaf("a", word.capitalize(), href=f"/{word}")
        w.close("li")
    w.close("ul")
    w.close("nav")
    w.open("form", role="search", action="/search")
    w.void("input", type="search", name="q", placeholder="Search", aria_label="Search")
    w.leaf("button", "Go", type="submit")
    w.close("form")
    w.open("div", class_="menu-hidden")  # a closed dropdown: in the DOM, not rendered
    for _ in range(5):
        w.leaf("a", w.title(2), href="/menu")
    w.close("div")
    w.close("header")


def sidebar(w: Writer) -> None:
    w.open("aside")
    w.leaf("h3", "Categories")
    w.open("ul", class_="scroll-box")
    for _ in range(w.rng.randint(8, 20)):
        w.open("li")
        w.leaf("a", w.title(2), href=f"/c/{w.rng.choice(WORDS)}")
        w.text(f" ({w.rng.randint(1, 999)})")
        w.close("li")
    w.close("ul")
    w.close("aside")


def article_section(w: Writer) -> None:
    w.open("section", id=w.next_id("section"))
    w.leaf(w.rng.choice(("h2", "h3")), w.title(w.rng.randint(3, 7)))
    for _ in range(w.rng.randint(1, 4)):
        w.open("p")
        for _ in range(w.rng.randint(2, 5)):
            w.text(w.words(w.rng.randint(6, 18)) + " ")
            roll = w.rng.random()
            if roll < 0.3:
                w.leaf("a", w.words(2), href=f"/wiki/{w.rng.choice(WORDS)}")
            elif roll < 0.45:
                w.leaf("strong", w.words(2))
            elif roll < 0.55:
                w.leaf("em", w.words(1))
            w.text(" ")
        w.close("p")
    w.close("section")


def card_grid(w: Writer) -> None:
    w.open("div", class_="grid")
    for _ in range(w.rng.randint(3, 9)):
        # Generated-looking class names, as CSS-in-JS sites have them.
        w.open("div", class_=f"card css-{w.rng.randrange(16**6):06x}")
        w.void("img", src="data:,", alt=w.title(2), width="120", height="80")
        w.leaf("h3", w.title(3))
        w.leaf("p", w.words(w.rng.randint(8, 20)))
        w.open("div", class_="actions")
        w.leaf("a", "Read more", href=f"/item/{w.rng.randrange(10**5)}", class_="btn")
        if w.rng.random() < 0.5:
            w.leaf("button", "Add to cart", type="button", data_testid=w.next_id("add"))
        else:
            w.open("span", role="button", tabindex="0", class_="icon-like")
            w.leaf("span", "Like", class_="sr-only")
            w.close("span")
        w.close("div")
        w.close("div")
    w.close("div")


def link_list(w: Writer) -> None:
    w.leaf("h3", w.title(2))
    tag = w.rng.choice(("ul", "ol"))
    w.open(tag)
    for _ in range(w.rng.randint(4, 15)):
        w.open("li")
        w.leaf("a", w.title(w.rng.randint(2, 6)), href=f"/post/{w.rng.randrange(10**6)}")
        if w.rng.random() < 0.4:
            w.leaf("span", f" {w.rng.randint(1, 300)} comments", class_="meta")
        w.close("li")
    w.close(tag)


def data_table(w: Writer) -> None:
    columns = w.rng.randint(3, 6)
    w.open("table")
    w.leaf("caption", w.title(3))
    w.open("thead")
    w.open("tr")
    for _ in range(columns):
        w.leaf("th", w.title(1))
    w.leaf("th", "Actions")
    w.close("tr")
    w.close("thead")
    w.open("tbody")
    for _ in range(w.rng.randint(3, 12)):
        w.open("tr")
        for _ in range(columns):
            w.leaf("td", w.words(w.rng.randint(1, 3)))
        w.open("td")
        w.leaf("button", "Edit", type="button")
        w.leaf("a", "Delete", href="#delete")
        w.close("td")
        w.close("tr")
    w.close("tbody")
    w.close("table")


def form_block(w: Writer) -> None:
    form_id = w.next_id("form")
    w.open("form", id=form_id, action=f"/{form_id}", method="post")
    w.open("fieldset")
    w.leaf("legend", w.title(2))
    for _ in range(w.rng.randint(2, 6)):
        field_id = w.next_id("f")
        kind = w.rng.choice(("text", "email", "select", "checkbox", "radio", "textarea", "number"))
        w.open("div", class_="row")
        if kind in ("checkbox", "radio"):
            for option in range(w.rng.randint(1, 3)):
                w.open("label")
                w.void("input", type=kind, name=field_id, value=str(option))
                w.text(" " + w.title(2))
                w.close("label")
        else:
            w.leaf("label", w.title(2), for_=field_id)
            if kind == "select":
                w.open("select", id=field_id, name=field_id)
                for _ in range(w.rng.randint(3, 8)):
                    w.leaf("option", w.title(1))
                w.close("select")
            elif kind == "textarea":
                w.leaf("textarea", "", id=field_id, name=field_id, rows="3")
            else:
                required = "" if w.rng.random() < 0.3 else None
                w.void("input", type=kind, id=field_id, name=field_id, required=required, placeholder=w.words(2))
        w.close("div")
        w.open("details")
        w.leaf("summary", "Help")
        w.leaf("p", w.words(12))
        w.close("details")
    w.close("fieldset")
    w.leaf("button", w.rng.choice(("Save", "Submit", "Send", "Continue")), type="submit")
    w.leaf("button", "Cancel", type="reset")
    w.close("form")


def deep_wrappers(w: Writer) -> None:
    """The nested <div>s frameworks leave behind, around a little content."""
    depth = w.rng.randint(4, 10)
    for level in range(depth):
        w.open("div", class_=f"wrap-{level}")
    w.leaf("span", w.words(w.rng.randint(2, 8)))
    if w.rng.random() < 0.5:
        w.leaf("a", w.title(2), href="/deep", onclick="return false")
    for _ in range(depth):
        w.close("div")


def hidden_panel(w: Writer) -> None:
    w.open("div", aria_hidden="true", class_="offcanvas")
    for _ in range(w.rng.randint(2, 6)):
        w.leaf("a", w.title(2), href="/hidden")
    w.close("div")
    w.open("div", hidden="")
    w.leaf("button", "Close dialog", type="button")
    w.close("div")


BLOCKS = (
    (article_section, 30),
    (card_grid, 12),
    (link_list, 14),
    (data_table, 6),
    (form_block, 6),
    (deep_wrappers, 24),
    (hidden_panel, 4),
    (sidebar, 4),
)


def footer(w: Writer) -> None:
    w.open("footer")
    w.open("ul")
    for label in ("About", "Careers", "Privacy", "Terms", "Contact"):
        w.open("li")
        w.leaf("a", label, href=f"/{label.lower()}")
        w.close("li")
    w.close("ul")
    w.leaf("p", "\u00a9 2024 Example Inc.")
    w.close("footer")


def generate_page(nodes: int, seed: int = 0) -> str:
    """An HTML page of about `nodes` elements (within one block's size above it)."""
    w = Writer(random.Random(seed))
    head = f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Generated {nodes}</title>"
    head += f"<style>{STYLE}</style></head>"
    w.elements = 5  # html, head, meta, title, style
    w.open("body")
    nav_bar(w)
    w.open("div", class_="layout")
    sidebar(w)
    w.open("main")
    w.leaf("h1", w.title(4))
    functions = [block for block, _ in BLOCKS]
    weights = [weight for _, weight in BLOCKS]
    footer_size = 14
    while w.elements + footer_size < nodes:
        w.rng.choices(functions, weights)[0](w)
    w.close("main")
    w.close("div")
    footer(w)
    w.close("body")
    return head + w.html() + "</html>"


class _ElementCounter(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.count += 1


def count_elements(html: str) -> int:
    """Elements in `html` as written (the browser adds none to these pages)."""
    counter = _ElementCounter()
    counter.feed(html)
    return counter.count


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=5000, help="elements in the page")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sys.stdout.write(generate_page(args.nodes, args.seed))


if __name__ == "__main__":
    main()
