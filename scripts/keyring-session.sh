#!/usr/bin/env bash
# Inside a private D-Bus session: a throwaway, unlocked Secret Service (gnome-keyring)
# whose files live in a temporary folder removed on exit. Sourced, it sets this up for
# the calling script; run with a command, it runs that command.
export XDG_DATA_HOME
XDG_DATA_HOME=$(mktemp -d)
trap 'rm -rf "$XDG_DATA_HOME"' EXIT
eval "$(printf 'convene-throwaway' | gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)" || true
if [ "${BASH_SOURCE[0]}" = "$0" ] && [ $# -gt 0 ]; then
  "$@"
fi
