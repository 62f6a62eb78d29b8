#!/usr/bin/env bash
# Installs the published agent CLIs (Claude Code, Gemini CLI) whose hook handling Slashi's hook answers are checked
# against (apps/cli/test/agents.test.ts runs Gemini CLI's own hook runner). They live outside the pnpm workspace,
# with their own npm lockfile; install scripts are not run (nothing here starts an agent or needs a login);
# nothing is done when they are already installed.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
if [ -f "$HERE/node_modules/@google/gemini-cli/package.json" ] &&
  [ -f "$HERE/node_modules/@anthropic-ai/claude-code/package.json" ]; then
  exit 0
fi
cd "$HERE"
npm ci --no-audit --no-fund --ignore-scripts
