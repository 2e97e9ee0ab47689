"""A page with a chosen number of controls whose labels overlap, for finding one control
among thousands (bench/dom_rag.py, tests/test_huge_pages.py).

The page is a back office: sections, each with a heading, a toolbar of buttons, a table
whose rows carry their own Edit/Delete buttons and a link, a small filter form and a list
of related links. Every label is one to three words of `bench.generate.WORDS` (about 200
words), so each word is shared by many controls and a button is told apart only by its
combination of words, the way "Export report" and "Report export settings" differ on a
real site. The same (controls, seed) always gives the same page.

    python -m bench.huge_page --controls 10000 > page.html
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from html import escape

from bench.generate import WORDS


@dataclass(frozen=True)
class ToolbarButton:
    label: str
    section: str  # the title of the section it is in, as an agent might mention it


@dataclass
class HugePage:
    html: str
    controls: int
    buttons: list[ToolbarButton] = field(default_factory=list)

    def unique_buttons(self) -> list[ToolbarButton]:
        """Toolbar buttons of two words or more whose label no other button has: the ones
        an agent can ask for by name."""
        seen: dict[str, int] = {}
        for button in self.buttons:
            seen[button.label.casefold()] = seen.get(button.label.casefold(), 0) + 1
        return [b for b in self.buttons if seen[b.label.casefold()] == 1 and " " in b.label]


class _Page:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.parts: list[str] = []
        self.controls = 0
        self.buttons: list[ToolbarButton] = []
        self.serial = 0

    def phrase(self, low: int, high: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(self.rng.randint(low, high))).capitalize()

    def add(self, html: str, controls: int = 0) -> None:
        self.parts.append(html)
        self.controls += controls

    def section(self) -> None:
        self.serial += 1
        title = self.phrase(2, 3)
        self.add(f'<section id="s{self.serial}"><h2>{escape(title)}</h2><div role="toolbar">')
        for _ in range(self.rng.randint(3, 6)):
            label = self.phrase(1, 3)
            self.buttons.append(ToolbarButton(label, title))
            self.add(f'<button type="button">{escape(label)}</button>', 1)
        self.add("</div><table><tbody>")
        for row in range(self.rng.randint(4, 12)):
            name = self.phrase(2, 4)
            self.add(
                f"<tr><td>{escape(self.rng.choice(WORDS))}</td>"
                f'<td><a href="/r/{self.serial}/{row}">{escape(name)}</a></td>'
                f'<td><button type="button" aria-label="Edit {escape(name)}">Edit</button>'
                f'<button type="button">Delete</button></td></tr>',
                3,
            )
        self.add("</tbody></table>")
        if self.rng.random() < 0.5:
            self.form()
        self.add("<ul>")
        for _ in range(self.rng.randint(2, 6)):
            self.add(f'<li><a href="/p/{self.rng.randrange(10**6)}">{escape(self.phrase(2, 4))}</a></li>', 1)
        self.add("</ul></section>")

    def form(self) -> None:
        self.add(f'<form action="/f{self.serial}">')
        for field_number in range(self.rng.randint(1, 3)):
            field_id = f"f{self.serial}-{field_number}"
            label = self.phrase(1, 2)
            self.add(f'<label for="{field_id}">{escape(label)}</label><input id="{field_id}" name="{field_id}">', 1)
        options = "".join(f"<option>{escape(self.phrase(1, 1))}</option>" for _ in range(4))
        self.add(f'<select aria-label="{escape(self.phrase(1, 2))}">{options}</select>', 1)
        self.add(f'<label><input type="checkbox"> {escape(self.phrase(1, 3))}</label>', 1)
        self.add(f'<button type="submit">{self.rng.choice(("Apply filters", "Search", "Filter"))}</button></form>', 1)


def controls_page(controls: int = 10_000, seed: int = 0) -> HugePage:
    """A page of at least `controls` controls (a section's worth more at most)."""
    page = _Page(random.Random(seed))
    page.add(f"<!doctype html><html lang=en><head><meta charset=utf-8><title>Back office {controls}</title>")
    page.add("<style>body{font:14px sans-serif}table{border-collapse:collapse}td{padding:2px 6px}</style>")
    page.add('</head><body><header><nav aria-label="Main">')
    for word in WORDS[:8]:
        page.add(f'<a href="/{word}">{word.capitalize()}</a> ', 1)
    page.add("</nav></header><main><h1>Back office</h1>")
    while page.controls < controls:
        page.section()
    page.add("</main></body></html>")
    return HugePage(html="".join(page.parts), controls=page.controls, buttons=page.buttons)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--controls", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sys.stdout.write(controls_page(args.controls, args.seed).html)


if __name__ == "__main__":
    main()
