#!/usr/bin/env bash
# Debian's cross C compilers and qemu user-mode emulation, for the AOT tests
# that link and run objects for aarch64 and riscv64 (tests/e2e/test_aot.py).
# Quick when they are there already; where they cannot be installed (no root,
# no apt, no network) it says so and those tests skip with the reason.
set -uo pipefail
packages=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross
          gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user binutils)
tools=(aarch64-linux-gnu-gcc riscv64-linux-gnu-gcc qemu-aarch64 qemu-riscv64 nm)
missing=0
for tool in "${tools[@]}"; do command -v "$tool" >/dev/null || missing=1; done
[ "$missing" = 0 ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo -n"
if ! command -v apt-get >/dev/null; then
  echo "install-cross-tools: no apt-get here; cross AOT tests will skip" >&2
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! { $sudo apt-get update -qq && \
       $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}"; } >/dev/null; then
  echo "install-cross-tools: could not install ${packages[*]}; cross AOT tests will skip" >&2
fi
exit 0
