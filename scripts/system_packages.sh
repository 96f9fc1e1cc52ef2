#!/usr/bin/env bash
# The system programs some tests drive, from Debian's packages when missing:
# Chromium (the browser tests), Caddy (the proxy's routing test and the
# deployment's Caddyfiles), Node.js (the browser code's unit tests),
# Redis (a master, its replica and Sentinels for the failover drill,
# tests/ha), PgBouncer (tests/ha) and docker-compose (its `config` checks
# docker/compose.yml without a Docker engine: tests/deploy). Run by
# `make test` and .ci/run; installing needs root and apt-get.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium chromium-driver)
command -v caddy >/dev/null || missing+=(caddy)
command -v node >/dev/null || missing+=(nodejs npm)
command -v redis-server >/dev/null || missing+=(redis-server)
[ -x /usr/sbin/pgbouncer ] || missing+=(pgbouncer)
# Without its recommends: the Compose file's check needs no Docker engine.
compose=()
command -v docker-compose >/dev/null || compose+=(docker-compose)
if [ ${#missing[@]} -eq 0 ] && [ ${#compose[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    # The tests that need them say so when they run.
    echo "warning: missing ${missing[*]} ${compose[*]}; install them with your package manager" >&2
    exit 0
fi
echo "installing ${missing[*]} ${compose[*]}"
apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
if [ ${#compose[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${compose[@]}"
fi
