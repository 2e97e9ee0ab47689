#!/usr/bin/env bash
# The main job on the bundled example: the compact summary an agent gets after navigating.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/pagelens snapshot examples/shop.html --mode "${1:-compact}" --indent 2
