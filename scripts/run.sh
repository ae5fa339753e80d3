#!/usr/bin/env bash
# Every npm script goes through here: system packages, Node 22 and the dependencies
# first (setup.sh), then the task.
set -euo pipefail
task=${1:?usage: run.sh <task> [args]}
shift
# When the task began, set-up included: `npm test` shows the set-up's time in its table.
export CONVENE_TASK_STARTED="${CONVENE_TASK_STARTED:-$(date +%s)}"
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh" "$task"
cd "$CONVENE_ROOT"

case "$task" in
  start)
    electron-vite build --logLevel warn
    if [ "$(convene_platform)" = linux ] && [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
      # No desktop session (a server, a container): the demo gets its own session bus
      # and a throwaway keyring, since sign-ins live only in a keychain.
      log "no desktop session bus: starting a private one with a throwaway keyring for the demo"
      exec dbus-run-session -- bash scripts/keyring-session.sh node --import tsx src/dev/start.ts "$@"
    fi
    exec node --import tsx src/dev/start.ts "$@" ;;
  stack) exec node --import tsx src/stack/bin.ts "$@" ;;
  host) exec node --import tsx src/host/bin.ts "$@" ;;
  build) exec electron-vite build "$@" ;;
  dist)
    electron-vite build
    # electron-builder rebuilds keytar and better-sqlite3 in node_modules for Electron's
    # ABI (npmRebuild); afterwards they are built for Node again, or the tests, the host
    # and `npm start` could not load them (the dependency stamp cannot see this).
    status=0
    electron-builder --config electron-builder.yml "$@" || status=$?
    log "rebuilding native modules for Node $(node --version) again"
    npm rebuild keytar better-sqlite3 --loglevel=error
    exit $status ;;
  test)
    if [ "$(convene_platform)" = linux ]; then
      exec dbus-run-session -- bash scripts/test-session.sh "$@"
    fi
    exec bash scripts/test-session.sh "$@" ;;
  typecheck)
    # Incremental: what the last check learned is kept under node_modules/.cache (never
    # committed, gone with node_modules), so a second run checks only what changed since.
    cache=node_modules/.cache/convene-typecheck
    mkdir -p "$cache"
    tsc --noEmit --incremental --tsBuildInfoFile "$cache/node.tsbuildinfo" -p tsconfig.node.json
    exec vue-tsc --noEmit --incremental --tsBuildInfoFile "$cache/web.tsbuildinfo" -p tsconfig.web.json ;;
  # No rule here reads types or other files, so a file's result depends on its content and
  # the config only: ESLint's cache (by content, not mtime) is exact.
  lint) exec eslint --max-warnings 0 --cache --cache-strategy content --cache-location node_modules/.cache/convene-eslint/ . ;;
  fuzz)
    # The fuzz suite of `npm test` (test/fuzz), longer: 20,000 cases unless --runs says.
    # A failure prints its seed and path; --seed (and --path) replay it. Other
    # arguments go to vitest.
    args=()
    while [ $# -gt 0 ]; do
      case "$1" in
        --runs) export CONVENE_FUZZ_RUNS=${2:?--runs needs a number}; shift 2 ;;
        --seed) export CONVENE_FUZZ_SEED=${2:?--seed needs a number}; shift 2 ;;
        --path) export CONVENE_FUZZ_PATH=${2:?--path needs the path a failure printed}; shift 2 ;;
        *) args+=("$1"); shift ;;
      esac
    done
    export CONVENE_FUZZ_RUNS=${CONVENE_FUZZ_RUNS:-20000}
    log "fuzzing the group host: $CONVENE_FUZZ_RUNS cases${CONVENE_FUZZ_SEED:+, seed $CONVENE_FUZZ_SEED}"
    exec vitest run test/fuzz "${args[@]}" ;;
  bench-host) exec node --import tsx bench/host.ts "$@" ;;
  bench-core) exec node --import tsx bench/core.ts "$@" ;;
  bench-live) exec node --import tsx bench/live.ts "$@" ;;
  bench-ui)
    electron-vite build --logLevel warn
    exec node --import tsx bench/ui.ts "$@" ;;
  bench)
    # Every bench/*.ts there is, one after another, each with its defaults (their
    # options differ: run one alone, e.g. `npm run bench:host -- --help`, to pass some).
    shopt -s nullglob
    electron-vite build --logLevel warn # bench/ui.ts drives the built renderer
    benches=(bench/*.ts)
    [ ${#benches[@]} -gt 0 ] || { echo "no benches in bench/" >&2; exit 1; }
    failed=()
    for b in "${benches[@]}"; do
      printf '\n== %s\n' "$b"
      node --import tsx "$b" || failed+=("$b")
    done
    if [ ${#failed[@]} -gt 0 ]; then echo "failed: ${failed[*]}" >&2; exit 1; fi ;;
  codegen)
    # The setup above already regenerated src/node/lexicon/ if the lexicons changed;
    # this regenerates it regardless (scripts/lexicon-code.mjs says why one tree).
    exec node scripts/lexicon-code.mjs --force ;;
  *) echo "unknown task: $task" >&2; exit 2 ;;
esac
