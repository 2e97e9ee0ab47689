"""The chosen content as Markdown, plain text or HTML, cut to a number of characters.

Markdown comes from markdownify over the content's HTML: ATX headings, "-" bullets,
fenced code blocks, pipe tables, inline links (their URLs are absolute already: the live
DOM resolved them). Plain text is the blocks' text, a blank line between blocks.
"""

from __future__ import annotations

import re

import lxml.html
from markdownify import MarkdownConverter

from pagelens.extraction.consensus import BLOCK_TAGS, parse_fragment
from pagelens.extraction.models import ExtractFormat

_BLANK_LINES = re.compile(r"\n{3,}")
_SPACES = re.compile(r"\s+")
_TRAILING_SPACE = re.compile(r"[ \t]+\n")


class _Converter(MarkdownConverter):
    """markdownify, with line breaks inside code blocks kept as plain newlines (a
    highlighted listing is often one line of <br>-separated spans) and images left out
    (an agent reads the text; the page's images stay on the page)."""

    def convert_img(self, el, text, parent_tags):  # noqa: ANN001, ANN201 - markdownify's hook signature
        return el.attrs.get("alt", "") if "_inline" in parent_tags else ""

    def convert_br(self, el, text, parent_tags):  # noqa: ANN001, ANN201
        if "pre" in parent_tags:
            return "\n"
        return super().convert_br(el, text, parent_tags)  # type: ignore[misc]  # the stub omits the convert_* hooks


_MARKDOWN = _Converter(heading_style="ATX", bullets="-", code_language="", strip=["script", "style"])


# Plain text: a blank line around blocks, a line of its own for a list item or table
# row, a tab between cells.
_LINE_TAGS = frozenset({"li", "tr", "dt", "dd", "caption"})
_CELL_TAGS = frozenset({"td", "th"})


def render(html: str, fmt: ExtractFormat) -> str:
    root = parse_fragment(html)
    if root is None:
        return ""
    _collapse_whitespace(root)
    match fmt:
        case "markdown":
            return _tidy(_MARKDOWN.convert(_serialize(root)))
        case "text":
            return to_text(root)
        case "html":
            return _serialize(root)


def to_text(root: lxml.html.HtmlElement) -> str:
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element.tag == "br":
            element.tail = "\n" + (element.tail or "")
        elif element.tag in _CELL_TAGS:
            element.tail = "\t" + (element.tail or "")
        elif element.tag in _LINE_TAGS:
            element.text = "\n" + (element.text or "")
        elif element.tag in BLOCK_TAGS:
            element.text, element.tail = "\n\n" + (element.text or ""), "\n\n" + (element.tail or "")
    lines = (line.strip(" \t") for line in root.text_content().split("\n"))
    return _tidy("\n".join(lines))


def _collapse_whitespace(root: lxml.html.HtmlElement) -> None:
    """Source line breaks and indentation are not the text's: runs of white space become
    one space, except inside <pre>."""
    preformatted = {e for pre in root.iter("pre") for e in pre.iter()}
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        if element not in preformatted and element.text:
            element.text = _SPACES.sub(" ", element.text)
        parent = element.getparent()
        if element.tail and (parent is None or parent not in preformatted):
            element.tail = _SPACES.sub(" ", element.tail)


def _serialize(root: lxml.html.HtmlElement) -> str:
    """The fragment's content, without the wrapper element parsing added."""
    inner = (root.text or "") + "".join(lxml.html.tostring(child, encoding="unicode") for child in root)
    return inner.strip()


def truncate(content: str, max_characters: int, fmt: ExtractFormat) -> tuple[str, bool]:
    """`content` cut to at most `max_characters`, at the last paragraph (else line, else
    word) break that keeps at least half of it; HTML after the last block that ends there
    when that keeps half, else right after a tag, without the elements begun there and left
    empty (an HTML parser closes what is left open)."""
    if len(content) <= max_characters:
        return content, False
    head = content[:max_characters]
    if fmt == "html":
        ends = [end.end() for end in _BLOCK_END.finditer(head)]
        if ends and ends[-1] >= max_characters // 2:
            return head[: ends[-1]], True
        cut = head.rfind(">")
        return (_BEGUN.sub("", head[: cut + 1]) if cut >= 0 else head), True
    for separator in ("\n\n", "\n", " "):
        cut = head.rfind(separator)
        if cut >= max_characters // 2:
            return head[:cut].rstrip(), True
    return head, True


# The end tag of a block (a paragraph, a heading, a list item, a table row...): where a cut
# leaves no element begun and left empty.
_BLOCK_END = re.compile(r"</(?:p|h[1-6]|li|dd|dt|pre|blockquote|tr|table|ul|ol|dl|figure|section|div)>", re.I)
_BEGUN = re.compile(r"(?:\s*<[a-zA-Z][^>]*>)+\s*$")  # start tags with nothing after them


def _tidy(text: str) -> str:
    return _BLANK_LINES.sub("\n\n", _TRAILING_SPACE.sub("\n", text)).strip()
