#!/usr/bin/env bash
# Browser tests drive Debian's Chromium through Playwright (no browser download).
# Installs it when missing and we may (root or passwordless sudo); in CI it is required.
set -u
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo"; else sudo="none"; fi
if [ "$sudo" != none ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
command -v chromium >/dev/null 2>&1 && exit 0
if [ "${CI:-}" = true ]; then
  echo "chromium is required in CI for the browser tests and could not be installed" >&2
  exit 1
fi
echo "WARNING: chromium is not installed (apt-get install chromium); the browser tests will fail." >&2
exit 0
