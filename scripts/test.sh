#!/usr/bin/env bash
# The whole test suite (and the linters and checkers), after setting up what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/services.sh
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench >/dev/null || .venv/bin/ruff format --diff src tests bench
# The layer contract (pyproject.toml); its report is shown only when it fails.
.venv/bin/lint-imports --no-cache >/dev/null || .venv/bin/lint-imports --no-cache
.venv/bin/mypy
npm run --silent check
# Two workers, each taking whole test files (their module fixtures, a browser, stay shared),
# in the order tests/conftest.py gives them: the longest first.
exec .venv/bin/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder "$@"
