#!/usr/bin/env bash
# Installs the published MCP servers that `slashi-mcp wrap` is tested with (the reference filesystem server).
# They live outside the pnpm workspace, with their own npm lockfile; install scripts are not run; nothing is done
# when they are already installed. After this the tests run offline.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
if [ -f "$HERE/node_modules/@modelcontextprotocol/server-filesystem/package.json" ]; then
  exit 0
fi
cd "$HERE"
npm ci --no-audit --no-fund --ignore-scripts
