"""Where a benchmark keeps what it measured: one JSON file per run, under bench/results/
by default (bench/README.md)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().parent / "results"


def write_results(name: str, results: dict[str, Any], path: Path | None = None) -> Path:
    """`results` as JSON at `path` (a `--json` option), else at
    bench/results/<name>-<date>-<time>.json; the path written."""
    path = path or RESULTS_DIR / f"{name}-{time.strftime('%Y%m%d-%H%M%S')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(results, indent=1, default=str), encoding="utf-8")
    return path
