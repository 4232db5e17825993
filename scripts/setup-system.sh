#!/usr/bin/env bash
# Installs the Debian packages Omniscient Shell needs beyond Node and npm:
#
#   build-essential python3  compile the native modules (better-sqlite3, node-pty, keytar) when npm cannot
#                            download a prebuilt binary
#   libsecret-1-dev          keytar's build and runtime link against libsecret (the OS keychain API)
#   gnome-keyring dbus       a Secret Service to keep secrets in on a headless machine; tests and CI run inside
#                              dbus-run-session -- sh -c 'echo pw | gnome-keyring-daemon -r -d --unlock --components=secrets; CMD'
#                            (dbus-run-session ships in "dbus", or in "dbus-daemon" which "dbus" pulls in)
#   bubblewrap socat         the OS sandbox for native agents and shell runs, and its network proxy
#   ripgrep                  fast workspace search for agents inside the sandbox
#   chromium                 the browser for end-to-end tests, benchmarks and the headless `npm start`
#
# Idempotent and quick: it asks dpkg what is already installed and only runs `apt-get update` + `apt-get install`
# when something is missing. As non-root, or on a system without apt, it prints what to install and exits 0, so
# it never fails a build on a machine that is set up differently.
#
# Environment: OMNI_SKIP_SYSTEM_SETUP=1 skips everything.
set -euo pipefail

say() { printf 'setup-system: %s\n' "$*"; }

if [ "${OMNI_SKIP_SYSTEM_SETUP:-}" = "1" ]; then
  say "skipped (OMNI_SKIP_SYSTEM_SETUP=1)."
  exit 0
fi

os_id=unknown
if [ -r /etc/os-release ]; then
  # shellcheck disable=SC1091
  os_id=$(. /etc/os-release && printf '%s' "${ID:-unknown}")
fi

packages=(build-essential python3 libsecret-1-dev gnome-keyring dbus bubblewrap socat ripgrep)
# Ubuntu's "chromium" is a snap wrapper that does not work in containers; Playwright's own Chromium
# (npx playwright install chromium) serves there instead.
if [ "$os_id" = "debian" ]; then packages+=(chromium); fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  say "this is not a Debian-style system (no dpkg/apt-get). Install the equivalents of:"
  say "  ${packages[*]}"
  say "(macOS and Windows need none of these: the OS keychain and sandbox are built in.)"
  exit 0
fi

is_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = "installed" ]
}

missing=()
for package in "${packages[@]}"; do
  is_installed "$package" || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  say "all ${#packages[@]} system packages are present (${packages[*]})."
  exit 0
fi

say "missing: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  say "not running as root, so nothing was installed. To install them:"
  say "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}"
  exit 0
fi

export DEBIAN_FRONTEND=noninteractive
apt_options=(-y -q -o Dpkg::Use-Pty=0 --no-install-recommends)
say "apt-get update"
if ! apt-get update -q -o Dpkg::Use-Pty=0 </dev/null; then
  say "apt-get update failed; trying to install from the package lists already on this machine."
fi
say "apt-get install ${missing[*]}"
if ! apt-get install "${apt_options[@]}" "${missing[@]}" </dev/null; then
  # Never fail the caller: the features that need a missing package report it themselves (and their tests skip).
  say "apt-get install failed; install these yourself: ${missing[*]}"
  exit 0
fi

still_missing=()
for package in "${missing[@]}"; do
  is_installed "$package" || still_missing+=("$package")
done
if [ ${#still_missing[@]} -eq 0 ]; then
  say "installed: ${missing[*]}"
else
  say "still missing after apt-get install: ${still_missing[*]}"
fi
