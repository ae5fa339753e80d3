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

# Each phase's time goes to .test-report/phases.tsv, the runners write JSON reports
# beside it, and the run ends (passed or not) with the table scripts/test-report.mjs
# makes of them: time by phase and the ten slowest files.
export CONVENE_TEST_REPORT_DIR="$CONVENE_ROOT/.test-report"
rm -rf "$CONVENE_TEST_REPORT_DIR" && mkdir -p "$CONVENE_TEST_REPORT_DIR"
phases="$CONVENE_TEST_REPORT_DIR/phases.tsv"
now() { date +%s; }
if [ -n "${CONVENE_TASK_STARTED:-}" ]; then
  printf 'set-up (system packages, Node 22, dependencies, lexicon code)\t%s\tdone\n' $(($(now) - CONVENE_TASK_STARTED)) >>"$phases"
fi
trap 'node scripts/test-report.mjs "$CONVENE_TEST_REPORT_DIR" || true' EXIT
# phase NAME COMMAND...: runs it, notes its time and whether it passed; a failure ends the run.
phase() {
  local name=$1 started status=0
  shift
  step "$name"
  started=$(now)
  "$@" || status=$?
  printf '%s\t%s\t%s\n' "$name" $(($(now) - started)) "$([ $status -eq 0 ] && echo passed || echo "FAILED ($status)")" >>"$phases"
  [ $status -eq 0 ] || exit $status
}

if [ $# -gt 0 ]; then
  # `npm test -- <files>`: just those, for a quick look at one area (the whole-tree
  # checks, typecheck and lint, are for the full run). Vitest takes test/ files and
  # options; Playwright takes e2e/ specs, after a build of this tree.
  vitest_args=() e2e_args=()
  for a in "$@"; do
    case "$a" in
      e2e/*|*.spec.ts) e2e_args+=("$a") ;;
      *) vitest_args+=("$a") ;;
    esac
  done
  if [ ${#e2e_args[@]} -gt 0 ] || printf '%s\n' "${vitest_args[@]}" | grep -q electron-smoke; then
    phase "build" electron-vite build --logLevel warn
  fi
  if [ ${#vitest_args[@]} -gt 0 ]; then
    phase "the named Vitest files" vitest run --reporter=default --reporter=json --outputFile.json="$CONVENE_TEST_REPORT_DIR/vitest.json" "${vitest_args[@]}"
  fi
  if [ ${#e2e_args[@]} -gt 0 ]; then
    phase "the named end-to-end specs (Playwright)" playwright test "${e2e_args[@]}"
  fi
  exit 0
fi

phase "typecheck" bash scripts/run.sh typecheck
phase "lint" bash scripts/run.sh lint
# Built before Vitest: the Electron smoke test (test/integration/electron-smoke.test.ts)
# loads the built main bundle, so it must be this tree's, never a stale one.
phase "build" electron-vite build --logLevel warn
phase "unit and integration tests (Vitest, against the real local network)" \
  vitest run --reporter=default --reporter=json --outputFile.json="$CONVENE_TEST_REPORT_DIR/vitest.json"
# The host's storage tests again with its state in PostgreSQL (a throwaway cluster),
# and several host processes on one database (vitest.postgres.config.ts).
phase "the host on PostgreSQL (Vitest)" \
  vitest run --config vitest.postgres.config.ts --reporter=default --reporter=json --outputFile.json="$CONVENE_TEST_REPORT_DIR/vitest-postgres.json"
phase "end-to-end tests (Playwright, Chromium, loopback shell)" playwright test
