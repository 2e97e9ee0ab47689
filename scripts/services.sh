#!/usr/bin/env bash
# PostgreSQL (127.0.0.1:5432, trust auth, database `test`) and Redis (127.0.0.1:6379), which
# the tests use for real. Machines that run them already are left alone; elsewhere Debian's
# packages are installed and started.
set -euo pipefail

answers() { timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if ! answers 5432; then
  echo "services: PostgreSQL does not answer on 127.0.0.1:5432: installing and starting Debian's…" >&2
  command -v pg_ctlcluster >/dev/null 2>&1 || {
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq postgresql >/dev/null
  }
  version=$(ls /etc/postgresql | sort -n | tail -1)
  hba=/etc/postgresql/$version/main/pg_hba.conf
  # The tests connect as postgres over TCP without a password, as on the project's machines.
  as_root sed -i -E 's/^(host\s+all\s+all\s+(127\.0\.0\.1\/32|::1\/128)\s+)\S+/\1trust/' "$hba"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null ||
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main reload
  for _ in $(seq 50); do answers 5432 && break; sleep 0.2; done
  as_root su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname = 'test'\" | grep -q 1 || createdb test"
fi

if ! answers 6379; then
  echo "services: Redis does not answer on 127.0.0.1:6379: installing and starting Debian's…" >&2
  command -v redis-server >/dev/null 2>&1 || {
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq redis-server >/dev/null
  }
  as_root redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir /tmp >/dev/null
  for _ in $(seq 50); do answers 6379 && break; sleep 0.2; done
fi
