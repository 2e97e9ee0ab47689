"""Main content extraction: a page's article as Markdown, text or HTML, with metadata.

The live page decides what is hidden, navigation or an overlay (prune.js); two
libraries, readability-lxml and trafilatura, decide what is the article, and pagelens
keeps what they agree on (consensus.py). bench/extract.py measures it against each
library alone.
"""

from pagelens.extraction.api import extract
from pagelens.extraction.models import ExtractFormat, Extraction, Pruned, SummarizeRequest, SummarizeResult
from pagelens.extraction.summarize import summarize

__all__ = ["ExtractFormat", "Extraction", "Pruned", "SummarizeRequest", "SummarizeResult", "extract", "summarize"]
