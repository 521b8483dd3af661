#!/usr/bin/env bash
# Debian's cross C compilers and qemu user-mode emulation, for the AOT tests
# that link and run objects for aarch64 and riscv64 (tests/e2e/test_aot.py);
# without them those tests skip with the reason.
exec bash "$(dirname "$0")/apt-install.sh" install-cross-tools \
  "cross AOT tests will skip" \
  "aarch64-linux-gnu-gcc riscv64-linux-gnu-gcc qemu-aarch64 qemu-riscv64 nm" \
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
  gcc-riscv64-linux-gnu libc6-dev-riscv64-cross qemu-user binutils
