#!/usr/bin/env bash
# The system parts the tests use for real: Debian's Chromium (browser tests), and a
# Secret Service keychain (gnome-keyring on a private D-Bus) with libsecret for keytar.
# Installs what is missing when it can (root); otherwise says exactly what to run.
set -euo pipefail
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v gnome-keyring-daemon >/dev/null || need+=(gnome-keyring)
command -v dbus-run-session >/dev/null || need+=(dbus)
[ -e /usr/include/libsecret-1/libsecret/secret.h ] || need+=(libsecret-1-dev)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = 0 ]; then
  echo "[convene] installing system packages: ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
elif command -v sudo >/dev/null; then
  echo "[convene] installing system packages with sudo: ${need[*]}" >&2
  sudo apt-get update -qq
  sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
else
  echo "[convene] the tests need these Debian packages: ${need[*]}" >&2
  echo "          install them with: apt-get install ${need[*]}" >&2
  exit 1
fi
