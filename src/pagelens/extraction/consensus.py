"""Choosing the main content: readability-lxml's article, trimmed to what trafilatura
agrees with.

The two libraries fail differently. readability-lxml finds the right container but keeps
what sits in it beside the story (bylines, photo captions, "related" teasers);
trafilatura is precise but drops whole stretches of a story now and then. So the
article's blocks (paragraphs, headings, list items, cells) are kept where trafilatura's
text has them too, and a stretch of blocks it lacks is kept only when it reads like the
story rather than page furniture:

- a single block between two agreed ones (a formula, a quote, a code line);
- a run of running prose (a share of its words in sentence-bearing blocks long enough);
and never a caption or a block repeated on the page (carousels and slideshows repeat).

When one library found next to nothing (a share of the other's words or less) there is
nobody to agree with, and the other's output stands; when trafilatura holds more text
the trimmed article lacks than the article keeps (times a ratio), readability picked
the wrong container and trafilatura's content is used.

When what they found is next to none of the page's readable text (a twentieth of its
words or less), the page is not an article they can read: a listing, a search page, a
sign-in screen, where each library takes one item or a caption for the story. Its
readable text, as the pre-pass left it (without navigation, hidden parts and overlays),
is the content then (a sentence-long block they took more than once counts once: a
sponsor's blurb under every result is not more of the page). On the corpus' articles the
libraries always found more than a twelfth of the page.

The numbers are `Rules`; the shipped ones, DEFAULT_RULES, are the choice that
`python -m bench.extract` makes on the whole corpus by the procedure it cross-validates
by site (docs/extraction.md, "How the rules are chosen").
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Literal

import lxml.html
from lxml import etree
from lxml.html import HtmlElement

from pagelens.extraction.libraries import Readings
from pagelens.extraction.models import Strategy
from pagelens.extraction.words import words

BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details", "div", "dl", "dt",
    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "html", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table", "tbody", "td", "tfoot", "th",
    "thead", "tr", "ul",
})  # fmt: skip
_SENTENCE_END = re.compile(r"[.!?。！？…]")


@dataclass(frozen=True)
class Rules:
    """How the content is chosen. `strategy` "consensus" trims readability-lxml's article
    as the module says; "readability" and "trafilatura" take that library's content
    alone (the other one still stands in when it found nothing)."""

    strategy: Literal["consensus", "readability", "trafilatura"] = "consensus"
    supported: float = 0.7  # share of a block's words the other text must hold
    prose_words: int = 20  # a sentence-bearing block this long is running prose
    run_prose_share: float = 0.5  # share of a run's words in prose for the run to stay
    run_min_words: int = 15  # a shorter run (not between two agreed blocks) goes
    alone: float = 0.25  # a library with at most this share of the other's words found next to nothing
    wrong_container: float = 0.5  # trafilatura's missing words over the kept ones above which it wins
    page_share: float = 0.05  # the chosen content's share of the page's words at or below which the page stands
    repeat_words: int = 8  # a block this long said again word for word counts once against page_share


# The fields' defaults are what bench.extract chooses on the whole corpus (see the module's docstring).
DEFAULT_RULES = Rules()


@dataclass
class Block:
    element: HtmlElement
    text: str

    @property
    def words(self) -> list[str]:
        return words(self.text)

    def is_prose(self, min_words: int) -> bool:
        return len(self.words) >= min_words and bool(_SENTENCE_END.search(self.text))

    @property
    def is_caption(self) -> bool:
        return self.element.tag == "figcaption"


@dataclass
class Choice:
    strategy: Strategy
    html: str  # the content as an HTML fragment


def choose(readings: Readings, rules: Rules = DEFAULT_RULES) -> Choice:
    """The content, from the libraries' readings of a page: what they agree on, else the
    page's own readable text where they found next to none of it."""
    choice = _libraries_choice(readings, rules)
    page, page_words = readings.page
    if page_words and _words_said_once(choice.html, rules.repeat_words) <= rules.page_share * page_words:
        return Choice("page", page)
    return choice


def _libraries_choice(readings: Readings, rules: Rules) -> Choice:
    root = parse_fragment(readings.article)
    blocks = blocks_of(root) if root is not None else []
    article_words = sum(len(b.words) for b in blocks)
    other_words = len(words(readings.second_opinion))
    if not article_words and not other_words:
        return Choice("empty", "")
    if other_words <= rules.alone * article_words or (rules.strategy == "readability" and article_words):
        return Choice("readability", readings.article)
    if article_words <= rules.alone * other_words or rules.strategy == "trafilatura":
        return Choice("trafilatura", readings.trafilatura_article)
    keep = _keep(blocks, _supported([b.text for b in blocks], readings.second_opinion, rules.supported), rules)
    kept = Counter(w for block, k in zip(blocks, keep, strict=True) if k for w in block.words)
    lines = [line for line in readings.second_opinion.splitlines() if words(line)]
    missing = Counter(w for line in lines for w in words(line)) - kept
    if missing.total() > rules.wrong_container * kept.total():
        return Choice("trafilatura", readings.trafilatura_article)
    for block, k in zip(blocks, keep, strict=True):
        if not k:
            _drop_own_content(block.element)
    return Choice("consensus", lxml.html.tostring(root, encoding="unicode"))


def _words_said_once(html: str, min_words: int) -> int:
    """The words of `html`, a block of `min_words` or more that says an earlier one again
    word for word counted once: a sponsor's blurb under every search result is not more
    of the page read (shorter blocks, such as table cells, repeat in real content)."""
    root = parse_fragment(html)
    if root is None:
        return 0
    seen: set[str] = set()
    total = 0
    for block in blocks_of(root):
        count = len(block.words)
        if count < min_words or block.text not in seen:
            total += count
        seen.add(block.text)
    return total


def blocks_of(root: HtmlElement) -> list[Block]:
    """Every block element with text of its own (outside its block children), in
    document order."""
    found: list[Block] = []

    def visit(element: HtmlElement) -> None:
        own = [element.text or ""]
        nested: list[HtmlElement] = []
        for child in element:
            if isinstance(child.tag, str) and child.tag in BLOCK_TAGS:
                nested.append(child)
            elif isinstance(child.tag, str):
                own.append(" " if child.tag == "br" else child.text_content())
            own.append(child.tail or "")
        text = " ".join("".join(own).split())
        if text:
            found.append(Block(element, text))
        for child in nested:
            visit(child)

    visit(root)
    return found


def _supported(texts: list[str], other: str, share: float) -> list[bool]:
    """Whether `other` holds each text. Words are used up as they match, so a block
    repeated more often than the other text has it is unsupported the extra times,
    except that a block equal to one already supported is supported again (trafilatura
    leaves out repeats that readability keeps)."""
    pool = Counter(words(other))
    agreed: set[str] = set()
    result = []
    for text in texts:
        if text in agreed:
            result.append(True)
            continue
        needed = Counter(words(text))
        ok = (needed & pool).total() >= share * needed.total()
        if ok:
            pool -= needed
            agreed.add(text)
        result.append(ok)
    return result


def _keep(blocks: list[Block], supported: list[bool], rules: Rules) -> list[bool]:
    repeats = Counter(b.text for b in blocks)
    keep = list(supported)
    start = 0
    while start < len(blocks):
        if supported[start]:
            start += 1
            continue
        end = start
        while end < len(blocks) and not supported[end]:
            end += 1
        between_agreed = start > 0 and end < len(blocks) and end - start == 1
        run = [i for i in range(start, end) if repeats[blocks[i].text] == 1 and not blocks[i].is_caption]
        run_words = sum(len(blocks[i].words) for i in run)
        prose_words = sum(len(blocks[i].words) for i in run if blocks[i].is_prose(rules.prose_words))
        if between_agreed or (run_words >= rules.run_min_words and prose_words >= rules.run_prose_share * run_words):
            for i in run:
                keep[i] = True
        start = end
    return keep


def _drop_own_content(element: HtmlElement) -> None:
    """Remove the element's own text and inline children, keeping its block children."""
    if not any(isinstance(c.tag, str) and c.tag in BLOCK_TAGS for c in element.iterdescendants()):
        parent = element.getparent()
        if parent is not None:
            element.drop_tree()  # its tail belongs to the parent
            return
    element.text = None
    for child in list(element):
        if isinstance(child.tag, str) and child.tag in BLOCK_TAGS:
            child.tail = None
        else:
            element.remove(child)


def parse_fragment(html: str) -> HtmlElement | None:
    """An HTML fragment under one <div>, or None when empty or unparseable."""
    if not html.strip():
        return None
    try:
        return lxml.html.fragment_fromstring(html, create_parent="div")
    except (etree.ParserError, ValueError):
        return None
