#!/usr/bin/env bash
# Everything a task needs on a fresh machine, in the one order that works, each step
# skipped when already done:
#   1. system packages (system-deps.sh: keytar's libsecret, the keychain, Chromium),
#   2. Node 22 when the machine's is older (toolchain.sh),
#   3. the npm dependencies, built against that Node (toolchain.sh),
#   4. the TypeScript generated from lexicons/ (lexicon-code.mjs: src/node/lexicon/, not
#      committed), before anything typechecks, lints, tests or builds the code using it.
# Sourced by run.sh with the task's name; `bash scripts/setup.sh <task>` runs it alone.
set -euo pipefail
CONVENE_SCRIPTS="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$CONVENE_SCRIPTS/system-deps.sh"
convene_system_packages "${1:?usage: setup.sh <task>}"
source "$CONVENE_SCRIPTS/toolchain.sh"
node "$CONVENE_SCRIPTS/lexicon-code.mjs"
