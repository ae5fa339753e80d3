#!/usr/bin/env bash
# The system parts a task needs, installed before anything else (the npm dependencies
# build keytar against libsecret, so they must come after). Sourced by setup.sh, or run
# as `bash scripts/system-deps.sh <task>`.
#
# Linux (Debian and derivatives): installs what is missing with apt-get when root or
# with sudo; otherwise stops at once and prints the exact command to run.
#   every task:  libsecret-1-dev, pkg-config   (keytar builds against libsecret)
#   test, bench: chromium, chromium-headless-shell (browser tests, the UI bench; the
#                                                tests drive the headless shell: src/dev/test-browser.ts)
#                postgresql                     (the host's PostgreSQL tests and bench: a
#                                                throwaway cluster, src/stack/postgres-cluster.ts)
#                gnome-keyring, dbus            (a throwaway Secret Service keychain)
#   start:       gnome-keyring, dbus            (only without a desktop session bus)
# macOS and Windows: nothing; keytar uses the system keychain (Keychain, Credential
# Manager). The tests need a Chromium-family browser, found or named in CONVENE_CHROMIUM.
set -euo pipefail

convene_platform() {
  case "$(uname -s)" in
    Linux) echo linux ;;
    Darwin) echo macos ;;
    MINGW* | MSYS* | CYGWIN*) echo windows ;;
    *) uname -s ;;
  esac
}

# Debian package names this task still needs, one per line.
convene_missing_packages() {
  local task=$1
  command -v pkg-config >/dev/null || echo pkg-config
  { command -v pkg-config >/dev/null && pkg-config --exists libsecret-1; } || echo libsecret-1-dev
  local keyring=no browser=no
  case "$task" in
    test | bench | bench-*) keyring=yes browser=yes ;;
    start) [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || keyring=yes ;;
  esac
  if [ $keyring = yes ]; then
    command -v gnome-keyring-daemon >/dev/null || echo gnome-keyring
    command -v dbus-run-session >/dev/null || echo dbus
  fi
  if [ $browser = yes ]; then
    command -v chromium >/dev/null || echo chromium
    command -v chromium-headless-shell >/dev/null || echo chromium-headless-shell
    # initdb and pg_ctl live in /usr/lib/postgresql/<version>/bin on Debian.
    compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || command -v initdb >/dev/null || echo postgresql
  fi
}

convene_sudo() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

convene_system_packages() {
  local task=$1 platform
  platform=$(convene_platform)
  if [ "$platform" != linux ]; then
    convene_find_browser "$task" "$platform"
    return 0
  fi
  local need
  mapfile -t need < <(convene_missing_packages "$task")
  [ ${#need[@]} -gt 0 ] || return 0

  if ! command -v apt-get >/dev/null; then
    printf '[convene] this task needs: %s (Debian names).\n' "${need[*]}" >&2
    printf '          Install your distribution'"'"'s equivalents (Fedora: libsecret-devel pkgconf chromium gnome-keyring dbus-tools), then run it again.\n' >&2
    exit 1
  fi
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    printf '[convene] this task needs the Debian packages %s, and only root can install them. Run, as root:\n' "${need[*]}" >&2
    printf '    apt-get update && apt-get install -y --no-install-recommends %s\n' "${need[*]}" >&2
    printf '          then run the same npm command again.\n' >&2
    exit 1
  fi
  printf '[convene] installing system packages: %s\n' "${need[*]}" >&2
  convene_sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  convene_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

# macOS and Windows have no Debian Chromium: use a Chromium-family browser that is there.
convene_find_browser() {
  local task=$1 platform=$2 candidate
  case "$task" in test | bench | bench-*) ;; *) return 0 ;; esac
  [ -z "${CONVENE_CHROMIUM:-}" ] || return 0
  for candidate in \
    "/Applications/Chromium.app/Contents/MacOS/Chromium" \
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" \
    "/c/Program Files/Google/Chrome/Application/chrome.exe" \
    "/c/Program Files (x86)/Microsoft/Edge/Application/msedge.exe"; do
    if [ -x "$candidate" ]; then
      export CONVENE_CHROMIUM="$candidate"
      return 0
    fi
  done
  printf '[convene] the tests drive a Chromium-family browser and none was found.\n' >&2
  if [ "$platform" = macos ]; then
    printf '          Install one (brew install --cask chromium), or set CONVENE_CHROMIUM to its executable.\n' >&2
  else
    printf '          Install Chrome or Chromium, or set CONVENE_CHROMIUM to its executable.\n' >&2
  fi
  exit 1
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  convene_system_packages "${1:-test}"
fi
