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
A heading goes with the section it titles, and one readability left out comes back over
the section when trafilatura has it (`_headings_follow_their_sections`, `_restore_headings`).

When one library found next to nothing (a share of the other's words or less) there is
nobody to agree with, and the other's output stands; when trafilatura holds more text
the trimmed article lacks than the article keeps (times a ratio), readability picked
the wrong container and trafilatura's content is used. Otherwise the trimmed article
gets back the containers readability left out beside one it kept, of its kind (product
cards), with their blocks trafilatura holds.

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
from copy import deepcopy as copy_element
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
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
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

    @property
    def is_heading(self) -> bool:
        return self.element.tag in HEADING_TAGS

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
    assert root is not None  # the article has words by now
    groups = _sibling_groups(readings.document, {_kind(e)[1] for e in root.iterdescendants()} - {""})
    counterparts = _counterparts(root, groups, rules.supported)
    _restore_headings(blocks, keep, readings.document, lines)
    for block, k in zip(blocks, keep, strict=True):
        if not k:
            _drop_own_content(block.element)
    _add_siblings(root, groups, counterparts, missing, rules.supported)
    return Choice("consensus", lxml.html.tostring(root, encoding="unicode"))


# ---- siblings of a kept block's kind
#
# readability-lxml weighs each sibling of its chosen block on its own and leaves out one
# that scores low: the second of two product cards, a story's segment cut by an ad slot.
# Containers of one kind (same tag and class under one parent, and the same kinds of
# blocks inside) are what a template repeats; one of them that trafilatura's text holds,
# beside one that was kept, is content too.

_Kind = tuple[str, str]  # tag, class


def _kind(element: HtmlElement) -> _Kind:
    return element.tag, " ".join((element.get("class") or "").split())


def _holds_blocks(element: HtmlElement) -> bool:
    # A paragraph-like sibling readability-lxml judges by its text; a container only by
    # a score that a short one never gets.
    return any(child.tag in BLOCK_TAGS for child in element.iterdescendants())


def _sibling_groups(page: HtmlElement | None, classes: set[str]) -> dict[str, list[list[HtmlElement]]]:
    """The page's runs of two or more containers of one kind under one parent, whose
    class is one of `classes` (the article's), by class."""
    body = page.find("body") if page is not None else None
    if body is None or not classes:
        return {}
    runs: dict[tuple[HtmlElement | None, str, str], list[HtmlElement]] = {}
    for element in body.iter(*BLOCK_TAGS):
        raw = element.get("class")
        if raw and (named := " ".join(raw.split())) in classes:
            runs.setdefault((element.getparent(), element.tag, named), []).append(element)
    groups: dict[str, list[list[HtmlElement]]] = {}
    for (_, _, named), members in runs.items():
        containers = [m for m in members if _holds_blocks(m)]
        if len(containers) > 1:
            groups.setdefault(named, []).append(containers)
    return groups


def _counterparts(
    article: HtmlElement, groups: dict[str, list[list[HtmlElement]]], share: float
) -> dict[HtmlElement, HtmlElement]:
    """For each page container of a group that the article holds, its element in the
    article: the one of its class holding most of the words (readability-lxml may turn a
    <div> into a <p> and cleans a little inside)."""
    found: dict[HtmlElement, HtmlElement] = {}
    said: dict[HtmlElement, Counter[str]] = {}  # each member's words, counted once
    for element in article.iterdescendants():
        tag, classes = _kind(element)
        if classes not in groups:
            continue
        own = Counter(words(element.text_content()))
        best, best_common = None, 0
        for member in (m for run in groups[classes] for m in run):
            if member in found or not (member.tag == tag or (member.tag, tag) == ("div", "p")):
                continue
            if member not in said:
                said[member] = Counter(words(member.text_content()))
            common = (said[member] & own).total()
            if common > best_common:
                best, best_common = member, common
        if best is not None and best_common >= share * own.total():
            found[best] = element
    return found


def _add_siblings(
    article: HtmlElement,
    groups: dict[str, list[list[HtmlElement]]],
    counterparts: dict[HtmlElement, HtmlElement],
    pool: Counter[str],
    share: float,
) -> None:
    """Copy into the article, in the page's order, each container of a kept one's kind
    that is alike (`_is_alike`), with its blocks that the words of trafilatura's text not
    yet used (`pool`) hold."""
    for run in (r for runs in groups.values() for r in runs):
        kept = {m: counterparts[m] for m in run if m in counterparts and _still_in(counterparts[m], article)}
        if not kept:
            continue
        inner = set().union(*(_inner_kinds(m) for m in kept))
        first = next(iter(kept.values()))
        after: HtmlElement | None = None  # where the next copy goes, else before `first`
        for member in run:
            if member in kept:
                after = kept[member]
            elif member in counterparts or not _is_alike(member, inner):
                continue
            elif (copy := _agreed_copy(member, pool, share)) is not None:
                if after is None:
                    first.addprevious(copy)
                else:
                    after.addnext(copy)
                    after = copy


def _still_in(element: HtmlElement, article: HtmlElement) -> bool:
    """Whether trimming left `element` in the article with words of its own."""
    return any(e is article for e in element.iterancestors()) and bool(words(element.text_content()))


def _inner_kinds(container: HtmlElement) -> set[_Kind]:
    return {_kind(e) for e in container.iter() if e.tag in BLOCK_TAGS}


def _is_alike(member: HtmlElement, inner: set[_Kind]) -> bool:
    """Whether `member` is made like the kept containers: most of its words in blocks
    of kinds they have (a notice in a story's segment wrapper has blocks of its own
    kind), and not mostly link text (teasers, a list of other stories)."""
    total = len(words(member.text_content()))
    alike = sum(len(b.words) for b in blocks_of(member) if _kind(b.element) in inner)
    linked = sum(len(words(a.text_content())) for a in member.iter("a"))
    return alike * 2 > total and linked * 2 <= total


def _agreed_copy(member: HtmlElement, pool: Counter[str], share: float) -> HtmlElement | None:
    """A copy of `member` with only its blocks that `pool` holds, their words used up, or
    None when it holds none of them (trafilatura does not read it as content)."""
    copy = copy_element(member)
    copy.tail = None  # the text after it in the page is not the article's
    for script in copy.findall(".//script"):  # JSON-LD, kept in the page for the metadata
        script.drop_tree()
    left = pool.copy()
    blocks = blocks_of(copy)
    held = []
    for block in blocks:
        needed = Counter(block.words)
        held.append((needed & left).total() >= share * needed.total())
        if held[-1]:
            left -= needed
    if not any(held):
        return None
    for block, ok in zip(blocks, held, strict=True):
        if not ok:
            _drop_own_content(block.element)
    pool.clear()
    pool.update(left)
    return copy


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
    return _headings_follow_their_sections(blocks, keep)


def _headings_follow_their_sections(blocks: list[Block], keep: list[bool]) -> list[bool]:
    """A heading stays when a block of the section it titles stays (up to the next
    heading after some text: headings in a row title one section): that section is
    content, though trafilatura left many headings out. One whose section went
    ("Related articles" over teasers, "Comments") keeps its own verdict."""
    kept = list(keep)
    section_kept = False  # whether a block after the current heading run, up to the next heading, stays
    after_text = False  # whether a block that is not a heading follows before the next heading
    for i in reversed(range(len(blocks))):
        if not blocks[i].is_heading:
            if not after_text:
                section_kept, after_text = False, True
            section_kept = section_kept or keep[i]
        else:
            kept[i] = keep[i] or section_kept
            after_text = False
    return kept


# ---- headings readability-lxml left out
#
# readability-lxml drops a heading whose class or id reads like furniture ("header":
# WordPress recipe cards' "wprm-recipe-header"; "meta", "media") and the title above
# the container it picks. Such a heading comes back over the first block it titles.


def _restore_headings(blocks: list[Block], keep: list[bool], page: HtmlElement | None, said_lines: list[str]) -> None:
    """Put back, before each kept block after the first, the page's headings just above
    it that the article lacks and trafilatura's text has as lines of their own; between
    them, only blocks that neither library took (a byline, a share bar)."""
    body = page.find("body") if page is not None else None
    if body is None:
        return
    # A heading the article has already (Medium repeats its title in a drawer) is not one to put back.
    said = {tuple(words(line)) for line in said_lines} - {tuple(b.words) for b in blocks if b.is_heading}
    page_blocks = blocks_of(body)
    # By words: readability-lxml turns some <div>s into <p>s and drops a heading's "¶" link.
    where: dict[tuple[str, ...], list[int]] = {}
    for index, page_block in enumerate(page_blocks):
        where.setdefault(tuple(page_block.words), []).append(index)
    previous = -1  # the page index of the last article block found on the page
    story_begun = False  # headings above the first kept block are the page's (its title), not a section's
    for block, k in zip(blocks, keep, strict=True):
        found = next((i for i in where.get(tuple(block.words), []) if i > previous), None)
        if found is not None:
            titles = _titles_above(page_blocks[previous + 1 : found], said)
            if k and story_begun and titles:
                start = _outermost_start(block.element)
                for title in titles:
                    start.addprevious(_bare_copy(title.element))
            previous = found
        story_begun = story_begun or k


def _titles_above(between: list[Block], said: set[tuple[str, ...]]) -> list[Block]:
    """The section titles among the page's blocks `between` two of the article's, that
    trafilatura's text has and that nothing it has (content the article lacks) follows."""
    titles: list[Block] = []
    for block in reversed(between):
        if tuple(block.words) not in said:
            continue  # neither library took it
        if not block.is_heading:
            break  # the headings above it title that
        if _is_section_title(block):
            titles.insert(0, block)
    return titles


def _is_section_title(heading: Block) -> bool:
    """Not the page's title (an <h1>: the result's `title`, and no gold has it) nor a
    link ("Related post: ...")."""
    linked = sum(len(words(a.text_content())) for a in heading.element.iter("a"))
    return heading.element.tag != "h1" and linked * 2 <= len(heading.words)


def _outermost_start(element: HtmlElement) -> HtmlElement:
    """The outermost element that `element` begins (the list of a first item), where a
    heading put before it stays outside it."""
    while (parent := element.getparent()) is not None and parent.getparent() is not None:
        if element.getprevious() is not None or (parent.text or "").strip():
            break
        element = parent
    return element


def _bare_copy(heading: HtmlElement) -> HtmlElement:
    copy = copy_element(heading)
    copy.tail = None  # the text after it in the page is not the article's
    return copy


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
