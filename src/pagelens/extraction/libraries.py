"""The extraction libraries pagelens builds on, each behind one small function: plain
calls, CPU-bound and blocking (the caller runs them in a thread).

- readability-lxml finds the article's container and keeps its markup (headings, lists,
  links, tables, code), which is what the Markdown is made from;
- trafilatura, in its precision mode, is the second opinion on which blocks are article
  text, and supplies the metadata (title, author, site, date).
"""

from __future__ import annotations

import ipaddress
import logging
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import urlsplit

import htmldate
import lxml.html
import trafilatura
from lxml.etree import ParserError
from lxml.html import HtmlElement
from readability import Document
from readability.readability import Unparseable

from pagelens.extraction.words import words

# Both libraries log a warning for every page they find little in; that is a result here.
for _name in ("trafilatura", "readability", "readability.readability", "htmldate", "courlan"):
    logging.getLogger(_name).setLevel(logging.ERROR)


@dataclass
class Metadata:
    title: str | None = None
    byline: str | None = None
    site_name: str | None = None
    published: str | None = None
    language: str | None = None


class _Article(Document):
    """readability-lxml's Document, with two kinds of blocks its last cleaning would drop
    from the article whatever they say kept when they are content:

    - a list scored below zero: readability-lxml starts a list's score at -3 and adds
      its items' paragraphs, so a list of short paragraphs (a loose Markdown list,
      Sphinx's nested lists) always went. A list is judged as an unscored one is (by
      its length, its links, its class);
    - the wrapper of a code listing (GitHub's, Sphinx's `div.highlight`): a one-line
      command such as `pip install x` is shorter than the text a block needs."""

    def get_preserved_elements(self, node: HtmlElement) -> dict[HtmlElement, bool]:
        preserved: dict[HtmlElement, bool] = super().get_preserved_elements(node)
        for wrapper in self.tags(node, "div", "section"):
            listings = sum(len(pre.text_content().strip()) for pre in wrapper.iter("pre"))
            if listings * 2 > len(wrapper.text_content().strip()):
                preserved[wrapper] = True
        return preserved

    def sanitize(self, node: HtmlElement, candidates: dict[HtmlElement, Any], keep_all_images: bool = False) -> str:
        unscored_lists = {e: c for e, c in candidates.items() if e.tag not in ("ul", "ol")}
        return str(super().sanitize(node, unscored_lists, keep_all_images))


def readability_article(html: str, url: str) -> str:
    """readability-lxml's article as an HTML fragment ("" when it finds none)."""
    try:
        return str(_Article(html, url=url).summary(html_partial=True))
    except (Unparseable, ParserError, ValueError):
        return ""


# What both of trafilatura's readings of a page share: precision first, tables, no comments.
_TRAFILATURA_OPTIONS: dict[str, Any] = {"favor_precision": True, "include_comments": False, "include_tables": True}


def trafilatura_text(html: str, url: str) -> str:
    """trafilatura's main text, one paragraph a line, favouring precision."""
    return trafilatura.extract(html, url=url, output_format="txt", deduplicate=False, **_TRAFILATURA_OPTIONS) or ""


def trafilatura_article(html: str, url: str) -> str:
    """trafilatura's main content as HTML (links and formatting kept)."""
    return (
        trafilatura.extract(
            html, url=url, output_format="html", include_links=True, include_formatting=True, **_TRAFILATURA_OPTIONS
        )
        or ""
    )


@dataclass
class Readings:
    """What the libraries read in one page (`html` at `url`): readability-lxml's article,
    trafilatura's text, and trafilatura's article as HTML when it is asked for; and the
    page itself, for when they found next to none of it."""

    html: str
    url: str

    @cached_property
    def article(self) -> str:
        return readability_article(self.html, self.url)

    @cached_property
    def second_opinion(self) -> str:
        return trafilatura_text(self.html, self.url)

    @cached_property
    def trafilatura_article(self) -> str:
        return trafilatura_article(self.html, self.url)

    @cached_property
    def document(self) -> HtmlElement | None:
        """The page as parsed, read-only: where the blocks readability-lxml took came
        from, and what stood beside them."""
        try:
            return lxml.html.document_fromstring(self.html)
        except (ParserError, ValueError):
            return None

    @cached_property
    def page(self) -> tuple[str, int]:
        """The page itself as its reader sees it (the pruned document's body, without
        the JSON-LD the pre-pass keeps for the metadata) as HTML, and its word count."""
        try:
            body = lxml.html.document_fromstring(self.html).find("body")
        except (ParserError, ValueError):
            body = None
        if body is None:
            return "", 0
        for script in body.findall(".//script"):
            script.drop_tree()
        return lxml.html.tostring(body, encoding="unicode"), len(words(body.text_content()))


# The mark of a heading's permalink ("¶" in Sphinx and MkDocs, a link symbol, a
# zero-width space), which trafilatura keeps in a title it reads from the <h1>.
_PERMALINK_MARK = re.compile(r"[\s\u200b]*[¶🔗][\s\u200b]*$")


def metadata(html: str, url: str) -> Metadata:
    # The date the page declares (its metadata, a <time>, the address) first: htmldate's
    # search of the text finds a date on most pages, a copyright year above all.
    found = trafilatura.extract_metadata(html, default_url=url, extensive=False)
    if found is None:
        return Metadata()
    return Metadata(
        title=_PERMALINK_MARK.sub("", found.title or "") or None,
        byline=found.author or None,
        site_name=_site_name(found.sitename or None, url),
        published=found.date or _date_in_text(html, url),
        language=getattr(found, "language", None) or None,
    )


def _date_in_text(html: str, url: str) -> str | None:
    """A date the page's text states, when it declares none; a year alone (which htmldate
    gives as its first of January: a copyright line, a template's year) is no date. On the
    corpus' non-articles, 54 of the 84 dates the search found were such years."""
    try:
        found = htmldate.find_date(html, extensive_search=True, original_date=True, url=url)
    except ValueError:  # unparseable markup
        return None
    return found if found and not found.endswith("-01-01") else None


def _site_name(found: str | None, url: str) -> str | None:
    """trafilatura's site name, unless it is the address's host standing in for one the
    page does not give and that host names no site: an IP address (a saved page served on
    127.0.0.1 for the read), localhost, the placeholder host of an HTML string."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if found is None or found not in (parts.netloc, host):
        return found
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return None if host == "localhost" or host.endswith(".invalid") else found
    return None
