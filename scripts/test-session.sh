#!/usr/bin/env bash
# Every check in order. On Linux it runs inside `dbus-run-session` (run.sh): one private
# session bus for the whole run, with a throwaway gnome-keyring Secret Service.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
cd "$CONVENE_ROOT"

if [ "$(uname -s)" = Linux ]; then
  # A throwaway keyring: the tests never see (or leave items in) a person's own keyring.
  source scripts/keyring-session.sh
fi
# Elsewhere the system keychain is used, under a service name of this run's own.
export CONVENE_KEYCHAIN_SERVICE="convene-test-$$"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "typecheck"
bash scripts/run.sh typecheck
step "lint"
bash scripts/run.sh lint
# Built before Vitest: the Electron smoke test (test/integration/electron-smoke.test.ts)
# loads the built main bundle, so it must be this tree's, never a stale one.
step "build"
electron-vite build --logLevel warn
step "unit and integration tests (Vitest, against the real local network)"
vitest run "$@"
# The host's storage tests again with its state in PostgreSQL (a throwaway cluster),
# and several host processes on one database (vitest.postgres.config.ts). Only when no
# test files were named: `npm test -- <file>` runs just those.
if [ $# -eq 0 ]; then
  step "the host on PostgreSQL (Vitest)"
  vitest run --config vitest.postgres.config.ts
fi
step "end-to-end tests (Playwright, Chromium, loopback shell)"
playwright test
