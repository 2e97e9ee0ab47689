#!/usr/bin/env bash
# Installs what pagelens needs on a fresh Debian machine: Debian's Chromium (never a
# downloaded browser build), a virtualenv in .venv and pagelens itself with its dev tools.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${PAGELENS_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ] && ! command -v chromium >/dev/null 2>&1; then
  echo "setup: installing Debian's chromium (apt-get)…" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-liberation >/dev/null
fi

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "setup: pagelens needs Python 3.11 or newer ($PYTHON is $("$PYTHON" --version 2>&1))" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv…" >&2
  "$PYTHON" -m venv .venv
fi

# Reinstall only when the project's dependencies changed.
stamp=.venv/.pagelens-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing pagelens and its dependencies into .venv…" >&2
  log=$(mktemp)
  if ! .venv/bin/python -m pip install --disable-pip-version-check -e '.[dev]' >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: pip install failed (log above)" >&2
    exit 1
  fi
  rm -f "$log"
  echo "$want" > "$stamp"
fi
