#!/usr/bin/env bash
# Compile a corpus model ahead of time, link it into main.c, run it on the
# corpus inputs and compare its outputs with JAX's.
#
#   examples/aot/build_and_run.sh [NAME] [TRIPLE]
#
# NAME: a program of ../shared/corpus/small (default mlp_fwd). TRIPLE: an
# LLVM triple (default: this machine); for aarch64-linux-gnu or
# riscv64-linux-gnu it builds with Debian's cross compiler
# (gcc-<arch>-linux-gnu) and runs under qemu-user.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${XLIR_CORPUS:-$here/../../../shared/corpus}/small"
name="${1:-mlp_fwd}"
triple="${2:-}"
build="${BUILD_DIR:-$here/build/$name${triple:+-$triple}}"
mkdir -p "$build"

entry="model_${name}"
upper="$(echo "$entry" | tr '[:lower:]' '[:upper:]')"
cc=cc
run=()
if [ -n "$triple" ]; then
  arch="${triple%%-*}"
  if [ "$arch" != "$(uname -m)" ]; then
    cc="$arch-linux-gnu-gcc"
    run=("qemu-$arch" -L "/usr/$arch-linux-gnu")
  fi
fi

xlir-compile "$corpus/$name.mlir" ${triple:+--triple "$triple"} --entry "$entry" \
  -o "$build/$name.o" --header "$build/$name.h"
"$cc" -O2 -std=c11 -Wall -Wextra -DXLIR_ENTRY="$entry" -DXLIR_PREFIX="$upper" \
  "-DXLIR_HEADER=\"$name.h\"" -I"$build" "$here/main.c" "$build/$name.o" \
  -lm -lpthread -o "$build/main"
python "$here/npz_io.py" inputs "$corpus/$name.npz" "$build/inputs.bin"
"${run[@]}" "$build/main" "$build/inputs.bin" "$build/outputs.bin" "${REPEAT:-1}"
python "$here/npz_io.py" compare "$corpus/$name.npz" "$build/outputs.bin" \
  --rtol "${RTOL:-1e-4}" --atol "${ATOL:-1e-5}"
