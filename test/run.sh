#!/usr/bin/env bash
# `npm test`: does its own set-up on a fresh clone (dependencies, database), then runs every check
# and test. Extra arguments are passed to node's test runner (e.g. a file: npm test -- test/channel.test.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
# Node.js 22.12 or newer, else one sentence and exit 1 (before any install).
node server/node-version.cjs
if [ ! -x node_modules/.bin/tsx ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "› installing dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi
exec node --import tsx test/run.ts "$@"
