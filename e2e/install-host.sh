#!/usr/bin/env bash
# Installs the VS Code host used by the extension's end-to-end tests: code-server 4.100.3 (Code 1.100.3, the newest
# build for Node 20) and playwright-core, from e2e/host's own npm lockfile, outside the pnpm workspace.
# Offline apart from apt and the npm registry. Nothing is done when the host is already installed.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)

# System packages: Debian's chromium (UI tests), ripgrep (seeds code-server's ripgrep download), kerberos headers
# (a native module of code-server).
pkgs=()
[ -x /usr/bin/chromium ] || pkgs+=(chromium)
command -v rg >/dev/null 2>&1 || pkgs+=(ripgrep)
dpkg -s libkrb5-dev >/dev/null 2>&1 || pkgs+=(libkrb5-dev)
if [ ${#pkgs[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}"
fi

if [ -x "$HERE/host/node_modules/.bin/code-server" ] && [ -d "$HERE/host/node_modules/playwright-core" ]; then
  exit 0
fi

# @vscode/ripgrep's postinstall downloads rg from GitHub unless its cache holds the archive: seed it with Debian's rg.
# The version pair must match @vscode/ripgrep in code-server's lib/vscode/npm-shrinkwrap.json.
cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
mkdir -p "$cache"
tmp=$(mktemp -d)
cp "$(command -v rg)" "$tmp/rg"
tar czf "$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$tmp" rg
rm -rf "$tmp"

cd "$HERE/host"
# npm_config_yes: node-pty's post-install runs `npx node-gyp` without a TTY. --unsafe-perm: code-server's
# postinstall refuses to run as root without it.
if [ -f package-lock.json ]; then
  npm_config_yes=true npm ci --unsafe-perm --no-audit --no-fund
else
  npm_config_yes=true npm install --unsafe-perm --no-audit --no-fund
fi
XDG_CONFIG_HOME=$(mktemp -d) XDG_DATA_HOME=$(mktemp -d) "$HERE/host/node_modules/.bin/code-server" --version
