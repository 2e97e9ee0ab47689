#!/usr/bin/env bash
# Installs what pagelens needs on a fresh Debian machine: Debian's Chromium and its
# headless shell (never a downloaded browser build), a virtualenv in .venv and pagelens
# itself with its dev tools (installed by uv, else pip), and node with the engine's build
# tools (esbuild, tsc, eslint) for the checks.
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_install() {  # Debian packages, as root or through sudo
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

if [ -z "${PAGELENS_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ] && ! command -v chromium >/dev/null 2>&1; then
  echo "setup: installing Debian's chromium and its headless shell (apt-get)…" >&2
  apt_install chromium chromium-headless-shell fonts-liberation
elif [ -z "${PAGELENS_CHROMIUM:-}" ] && [ -x /usr/bin/chromium ] && [ ! -x /usr/lib/chromium/chromium-headless-shell ] \
  && command -v apt-get >/dev/null 2>&1; then
  # What pagelens launches when it shows no window (docs/browsers.md). Without it,
  # chromium itself, which loads pages slower: not worth failing the setup for.
  echo "setup: installing Debian's chromium-headless-shell (apt-get)…" >&2
  apt_install chromium-headless-shell || echo "setup: chromium-headless-shell could not be installed; pagelens will launch chromium" >&2
fi

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing Debian's nodejs and npm (apt-get)…" >&2
  apt_install nodejs npm
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
  # uv installs the hundred-odd packages in about 10 s where pip takes about two minutes;
  # pip alone does it where uv cannot be had.
  if ! { .venv/bin/python -m pip install --disable-pip-version-check -q uv \
         && .venv/bin/python -m uv pip install --python .venv/bin/python -e '.[dev]'; } >"$log" 2>&1 \
     && ! .venv/bin/python -m pip install --disable-pip-version-check -e '.[dev]' >>"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: installing with uv and with pip failed (log above)" >&2
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
