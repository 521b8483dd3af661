#!/usr/bin/env bash
# apt-install.sh NAME WHAT-SKIPS "TOOL..." PACKAGE...
# Installs Debian PACKAGEs unless every TOOL is on the PATH already. Where they
# cannot be installed (no root, no apt, no network) it says so, naming what
# skips without them, and still exits 0: the tests that need them skip.
set -uo pipefail
name=$1 skips=$2 tools=$3
shift 3
missing=0
for tool in $tools; do command -v "$tool" >/dev/null || missing=1; done
[ "$missing" = 0 ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo -n"
if ! command -v apt-get >/dev/null; then
  echo "$name: no apt-get here; $skips" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo apt-get update -qq && \
       $sudo apt-get install -y -qq --no-install-recommends "$@"; } >/dev/null; then
  echo "$name: could not install $*; $skips" >&2
fi
exit 0
