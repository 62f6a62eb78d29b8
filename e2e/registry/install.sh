#!/usr/bin/env bash
# Installs the local npm-protocol registry (verdaccio 6.8.0) used by the pack tests and `pnpm bench:packs`.
# It lives outside the pnpm workspace, with its own npm lockfile; nothing is done when it is already installed.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
if [ -x "$HERE/node_modules/.bin/verdaccio" ]; then
  exit 0
fi
cd "$HERE"
npm ci --no-audit --no-fund
