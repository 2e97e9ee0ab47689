"""The chosen content as Markdown, plain text or HTML, cut to a number of characters.

Markdown comes from markdownify over the content's HTML: ATX headings, "-" bullets,
fenced code blocks (with the language the page's classes name), pipe tables (one cell per
column in every row), inline links (their URLs are absolute already: the live DOM
resolved them), <sup> and <sub> kept as such. Plain text is the blocks' text, a blank line
between blocks.
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
    highlighted listing is often one line of <br>-separated spans), a fence longer than
    any run of backticks in the code, a "|" in a table cell escaped (else it splits the
    cell), and images left out (an agent reads the text; the page's images stay on the
    page)."""

    def convert_img(self, el, text, parent_tags):  # noqa: ANN001, ANN201 - markdownify's hook signature
        return el.attrs.get("alt", "") if "_inline" in parent_tags else ""

    def convert_br(self, el, text, parent_tags):  # noqa: ANN001, ANN201
        if "pre" in parent_tags:
            return "\n"
        return super().convert_br(el, text, parent_tags)  # type: ignore[misc]  # the stub omits the convert_* hooks

    def convert_pre(self, el, text, parent_tags):  # noqa: ANN001, ANN201
        fenced: str = super().convert_pre(el, text, parent_tags)  # type: ignore[misc]
        longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
        if longest < 3:
            return fenced
        fence = "`" * (longest + 1)
        before, _, rest = fenced.partition("```")
        code, _, after = rest.rpartition("```")
        return before + fence + code + fence + after

    def convert_td(self, el, text, parent_tags):  # noqa: ANN001, ANN201
        return super().convert_td(el, _escape_pipes(text), parent_tags)  # type: ignore[misc]

    def convert_th(self, el, text, parent_tags):  # noqa: ANN001, ANN201
        return super().convert_th(el, _escape_pipes(text), parent_tags)  # type: ignore[misc]


_BACKTICKS = re.compile(r"`{3,}")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)\|")


def _escape_pipes(text: str) -> str:
    return _UNESCAPED_PIPE.sub(r"\\|", text)


# The language of a code listing, as highlighters name it in a class of the <pre>, its
# <code> or a wrapper: language-js and lang-js (Prism, highlight.js, Markdown renderers),
# highlight-source-shell (GitHub), highlight-python (Sphinx), "brush: js" (SyntaxHighlighter).
_LANGUAGE = re.compile(r"(?:^|\s)(?:(?:language|lang|highlight-source|highlight)-|brush:\s*)([\w+#-]+)")
_NO_LANGUAGE = frozenset({"none", "default", "text", "plaintext", "plain", "nohighlight"})


def _code_language(pre) -> str:  # noqa: ANN001 - a BeautifulSoup element
    code = pre.find("code", recursive=False)
    for element in (code, pre, pre.parent, pre.parent.parent if pre.parent else None):
        if element is None:
            continue
        found = _LANGUAGE.search(" ".join(element.get("class") or ()))
        if found:
            return "" if found[1].lower() in _NO_LANGUAGE else found[1].lower()
    return ""


_MARKDOWN = _Converter(
    heading_style="ATX",
    bullets="-",
    code_language="",
    code_language_callback=_code_language,
    sup_symbol="<sup>",
    sub_symbol="<sub>",
    strip=["script", "style"],
)


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
            _spread_row_spans(root)
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


def _spread_row_spans(root: lxml.html.HtmlElement) -> None:
    """A cell spanning rows leaves an empty cell in its column of each row below it
    that it spans: a pipe table has one cell per column in every row (markdownify widens
    a cell by its colspan, not its rowspan)."""
    for table in root.iter("table"):
        spanned: dict[int, int] = {}  # column: rows below still covered by a cell above
        for row in table.xpath("./tr | ./thead/tr | ./tbody/tr | ./tfoot/tr"):
            cells = [cell for cell in row if cell.tag in ("td", "th")]
            column = 0
            while cells or any(rows and at >= column for at, rows in spanned.items()):
                if spanned.get(column, 0) > 0:
                    spanned[column] -= 1
                    filler = lxml.html.Element(cells[0].tag if cells else "td")
                    if cells:
                        cells[0].addprevious(filler)
                    else:
                        row.append(filler)
                    column += 1
                elif cells:
                    cell = cells.pop(0)
                    width, height = _span(cell, "colspan"), _span(cell, "rowspan")
                    for covered in range(column, column + width):
                        spanned[covered] = height - 1
                    column += width
                else:
                    column += 1


def _span(cell: lxml.html.HtmlElement, attribute: str) -> int:
    """A cell's colspan or rowspan, as browsers read it: a whole number, 1 when missing
    or not one (capped, as they cap it)."""
    raw = (cell.get(attribute) or "").strip()
    return min(int(raw), 1000) if raw.isdigit() and int(raw) > 0 else 1


def _serialize(root: lxml.html.HtmlElement) -> str:
    """The fragment's content, without the wrapper element parsing added."""
    inner = (root.text or "") + "".join(lxml.html.tostring(child, encoding="unicode") for child in root)
    return inner.strip()


def truncate(content: str, max_characters: int, fmt: ExtractFormat) -> tuple[str, bool]:
    """`content` cut to at most `max_characters`, at the last paragraph (else line, else
    word) break that keeps at least half of it; Markdown before a code block the cut
    falls in when that keeps half, else with the block closed where it is cut; HTML after
    the last block that ends there when that keeps half, else right after a tag, without
    the elements begun there and left empty (an HTML parser closes what is left open)."""
    if len(content) <= max_characters:
        return content, False
    if fmt == "html":
        head = content[:max_characters]
        ends = [end.end() for end in _BLOCK_END.finditer(head)]
        if ends and ends[-1] >= max_characters // 2:
            return head[: ends[-1]], True
        cut = head.rfind(">")
        return (_BEGUN.sub("", head[: cut + 1]) if cut >= 0 else head), True
    head = _at_break(content, max_characters)
    if fmt == "markdown" and (fence := _open_fence(head)) is not None:
        before = head[: fence.start()].rstrip()
        if len(before) >= max_characters // 2:
            return before, True
        closing = "\n" + fence[1]
        head = _at_break(content, max(0, max_characters - len(closing)))
        if _open_fence(head) is not None:
            head += closing
    return head, True


def _at_break(content: str, limit: int) -> str:
    head = content[:limit]
    for separator in ("\n\n", "\n", " "):
        cut = head.rfind(separator)
        if cut >= limit // 2:
            return head[:cut].rstrip()
    return head


# A code fence of markdownify's: its indentation (inside a list item) and backticks.
_FENCE = re.compile(r"^([ \t]*`{3,})(.*)$", re.MULTILINE)


def _open_fence(markdown: str) -> re.Match[str] | None:
    """The opening fence of a code block `markdown` leaves open, if any."""
    opened = None
    for fence in _FENCE.finditer(markdown):
        if opened is None:
            opened = fence
        elif fence[1].lstrip().startswith(opened[1].lstrip()) and not fence[2].strip():
            opened = None
    return opened


# The end tag of a block (a paragraph, a heading, a list item, a table row...): where a cut
# leaves no element begun and left empty.
_BLOCK_END = re.compile(r"</(?:p|h[1-6]|li|dd|dt|pre|blockquote|tr|table|ul|ol|dl|figure|section|div)>", re.I)
_BEGUN = re.compile(r"(?:\s*<[a-zA-Z][^>]*>)+\s*$")  # start tags with nothing after them


def _tidy(text: str) -> str:
    return _BLANK_LINES.sub("\n\n", _TRAILING_SPACE.sub("\n", text)).strip()
