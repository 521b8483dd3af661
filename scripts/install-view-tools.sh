#!/usr/bin/env bash
# graphviz (`dot`, which lays out `xlir-opt --view-graph` pictures as SVG)
# and Chromium (the headless browser that tests/e2e/test_view_graph.py opens
# them in), from Debian. Without them `--view-graph` still writes .dot and
# .html, and the browser tests skip.
exec bash "$(dirname "$0")/apt-install.sh" install-view-tools \
  "--view-graph .svg and its browser tests will skip" \
  "dot chromium" graphviz chromium
