#!/usr/bin/env bash
# Runs inside `dbus-run-session`: a private session bus with a real Secret Service
# (gnome-keyring), one bus for the whole run, then every check in order.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/toolchain.sh"
cd "$CONVENE_ROOT"

# A throwaway keyring: the tests never see (or leave items in) a person's own keyring.
source scripts/keyring-session.sh
export CONVENE_KEYCHAIN_SERVICE="convene-test-$$"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "typecheck"
bash scripts/run.sh typecheck
step "lint"
bash scripts/run.sh lint
step "unit and integration tests (Vitest, against the real local network)"
vitest run "$@"
step "build"
electron-vite build --logLevel warn
step "end-to-end tests (Playwright, Debian Chromium, loopback shell)"
playwright test
