#!/usr/bin/env bash
# What the test suite needs besides Python: Debian's Chromium headless shell for the browser tests
# (driven by Playwright, no browser download; half the CPU of the full `chromium` in headless
# mode, tests/browser/conftest.py) and poppler-utils' pdftotext for reading the PDFs back.
# Installs whatever is missing when we may (root or passwordless sudo); in CI it is required.
# The tests never take another path without a tool: a missing one fails them, with this hint.
set -u
need=()
command -v chromium-headless-shell >/dev/null 2>&1 || need+=(chromium-headless-shell)
command -v pdftotext >/dev/null 2>&1 || need+=(poppler-utils)
[ ${#need[@]} = 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then sudo=""; elif sudo -n true 2>/dev/null; then sudo="sudo"; else sudo="none"; fi
if [ "$sudo" != none ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing for the tests: ${need[*]}..."
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
missing=()
command -v chromium-headless-shell >/dev/null 2>&1 || missing+=(chromium-headless-shell)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
[ ${#missing[@]} = 0 ] && exit 0
if [ "${CI:-}" = true ]; then
  echo "${missing[*]} required in CI for the tests and could not be installed" >&2
  exit 1
fi
echo "WARNING: not installed: ${missing[*]} (apt-get install ${missing[*]}); the tests that need them will fail." >&2
exit 0
