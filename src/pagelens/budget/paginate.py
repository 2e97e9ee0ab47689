"""Cutting an ordered list of chunks into pages that each fit a token budget.

Deterministic: the same chunks, order and budget always give the same pages, so page 2
asked after page 1 holds exactly what page 1 left out.
"""

from __future__ import annotations

from collections.abc import Sequence


def pack(costs: Sequence[int], room: int) -> list[range]:
    """Consecutive runs of `costs` (positions in the order given) whose sums stay within
    `room`, filled greedily. Each page holds at least one chunk, so a chunk larger than
    the room gets a page of its own (the only page that may exceed it)."""
    pages: list[range] = []
    start, used = 0, 0
    for position, cost in enumerate(costs):
        if position > start and used + cost > room:
            pages.append(range(start, position))
            start, used = position, 0
        used += cost
    if start < len(costs):
        pages.append(range(start, len(costs)))
    return pages
