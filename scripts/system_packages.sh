#!/usr/bin/env bash
# The system programs some tests drive, from Debian's packages when missing:
# Chromium (the browser tests), Caddy (the proxy's routing test) and Node.js
# (the browser code's unit tests). Run by
# `make test` and .ci/run; installing needs root and apt-get.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium chromium-driver)
command -v caddy >/dev/null || missing+=(caddy)
command -v node >/dev/null || missing+=(nodejs npm)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    # The tests that need them say so when they run.
    echo "warning: missing ${missing[*]}; install them with your package manager" >&2
    exit 0
fi
echo "installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
