#!/usr/bin/env bash
# Installs what pagelens needs on a fresh Debian machine: Debian's Chromium (never a
# downloaded browser build), a virtualenv in .venv and pagelens itself with its dev tools,
# and node with the engine's build tools (esbuild, tsc, eslint) for the checks.
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

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing Debian's nodejs and npm (apt-get)…" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nodejs npm >/dev/null
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

# The engine's build and check tools, again only when the lock file changed.
node_stamp=node_modules/.pagelens-installed
node_want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$node_stamp" ] || [ "$(cat "$node_stamp")" != "$node_want" ]; then
  echo "setup: installing the engine's build tools into node_modules (npm ci)…" >&2
  log=$(mktemp)
  if ! npm ci --no-audit --no-fund >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: npm ci failed (log above)" >&2
    exit 1
  fi
  rm -f "$log"
  echo "$node_want" > "$node_stamp"
fi
