#!/usr/bin/env bash
# graphviz (`dot`, which lays out `xlir-opt --view-graph` pictures as SVG)
# and Chromium (the headless browser that tests/e2e/test_view_graph.py opens
# them in), from Debian. Quick when they are there already; where they cannot
# be installed (no root, no apt, no network) it says so: `--view-graph` still
# writes .dot and .html without `dot`, and the browser tests skip.
set -uo pipefail
packages=(graphviz chromium)
tools=(dot chromium)
missing=0
for tool in "${tools[@]}"; do command -v "$tool" >/dev/null || missing=1; done
[ "$missing" = 0 ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo -n"
if ! command -v apt-get >/dev/null; then
  echo "install-view-tools: no apt-get here; --view-graph .svg and its browser tests will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo apt-get update -qq && \
       $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}"; } >/dev/null; then
  echo "install-view-tools: could not install ${packages[*]}; --view-graph .svg and its browser tests will skip" >&2
fi
exit 0
