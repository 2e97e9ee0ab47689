#!/usr/bin/env bash
# The whole test suite (and the linter), after setting up what it needs.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check src tests bench
exec .venv/bin/python -m pytest -q "$@"
