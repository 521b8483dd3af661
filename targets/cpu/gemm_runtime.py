"""The prebuilt GEMM routine (gemm_routine.py, its convolution entries:
conv_routine.py, its batched entry: batched_routine.py, its row-dot
entry: row_dot_routine.py, the pad entry of convolutions' inputs:
pad_routine.py, and the transpose entry: transpose_routine.py) and the int8
routine (int8_routine.py) in the JIT's process and in ahead-of-time
objects, as the thread pool is (thread_runtime.py). The int8 routine is an
object of its own: its `vpdpbusd`s exist only on machines with VNNI, the
only ones whose programs call it.

The JIT compiles each variant an executable calls (its tile, which the
host's vector registers decide: one per host in practice; its operands'
element type, f32 or bf16: an object each) once per host,
keeps the object beside the compilation cache (`cache.host_object`), loads
it once per process and makes the routine a process symbol
(`llvm.add_symbol`) that every executable's engine links against. An
ahead-of-time module gets the routine defined, internal, where it is
called (`define_called_gemms`), so its object needs only the C library.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from llvmlite import ir
from xlir.lowering.llvm.jit_loader import LoadedObject
from xlir.targets.cpu.batched_routine import batched_routine_name, define_batched
from xlir.targets.cpu.conv_routine import (
    conv_routine_name,
    define_conv,
    pack_routine_name,
)
from xlir.targets.cpu.gemm_routine import (
    RESULTS,
    called_variants,
    define_gemm,
    routine_name,
)
from xlir.targets.cpu.int8_routine import (
    called_int8_variants,
    define_int8_gemm,
    int8_routine_name,
)
from xlir.targets.cpu.pad_routine import define_pad, pad_routine_name
from xlir.targets.cpu.process_symbols import host_object, load_as_process_symbols
from xlir.targets.cpu.row_dot_routine import define_row_dot, row_dot_routine_name
from xlir.targets.cpu.transpose_routine import (
    define_transpose,
    transpose_routine_name,
)


@cache
def gemm_object(mr: int, lanes: int, operands: str = "f32") -> bytes:
    """The object code for this host of the routine of `operands` (compiled
    by the host's first process that calls it: `cache.host_object`): the
    dot and batched entries, and for f32 the other entries too. One object
    per operand type, so that a host whose programs are f32 does not
    compile the bf16 entries."""

    def define(module: ir.Module) -> None:
        for result in RESULTS[operands]:
            define_gemm(module, mr, lanes, "external", operands, result)
            define_batched(module, mr, lanes, "external", operands, result)
        if operands == "f32":
            define_conv(module, mr, lanes, linkage="external")
            define_row_dot(module, mr, lanes, linkage="external")
            define_pad(module, mr, lanes, linkage="external")
            define_transpose(module, mr, lanes, linkage="external")

    return host_object(f"gemm-{operands}-{mr}x{lanes}", define)


@cache
def load_gemm(mr: int, lanes: int, operands: str = "f32") -> LoadedObject:
    """The routine of `operands` loaded into this process, its entries
    process symbols; kept for as long as the process lives."""
    names = [
        entry(mr, lanes, operands, result)
        for result in RESULTS[operands]
        for entry in (routine_name, batched_routine_name)
    ]
    if operands == "f32":
        names += [
            conv_routine_name(mr, lanes),
            pack_routine_name(mr, lanes),
            row_dot_routine_name(mr, lanes),
            pad_routine_name(mr, lanes),
            transpose_routine_name(mr, lanes),
        ]
    return load_as_process_symbols(gemm_object(mr, lanes, operands), names)


@cache
def load_int8_gemm(mr: int, lanes: int) -> LoadedObject:
    """The int8 routine loaded into this process, a process symbol (its
    object compiled by the host's first process that calls it)."""

    def define(module: ir.Module) -> None:
        define_int8_gemm(module, mr, lanes, linkage="external")

    code = host_object(f"gemm-i8-{mr}x{lanes}", define)
    return load_as_process_symbols(code, [int8_routine_name(mr, lanes)])


def load_called_gemms(objects: Sequence[bytes]) -> None:
    """Load each routine these objects call (a call puts its name in the
    object's symbol table)."""
    for code in objects:
        for mr, lanes, operands in called_variants(code):
            load_gemm(mr, lanes, operands)
        for mr, lanes in called_int8_variants(code):
            load_int8_gemm(mr, lanes)


def define_called_gemms(module: ir.Module) -> None:
    """Define in a translated module, internal, each routine it calls."""
    for mr, lanes, operands in called_variants(" ".join(module.globals).encode()):
        for result in RESULTS[operands]:
            if routine_name(mr, lanes, operands, result) in module.globals:
                define_gemm(module, mr, lanes, "internal", operands, result)
            if batched_routine_name(mr, lanes, operands, result) in module.globals:
                define_batched(module, mr, lanes, "internal", operands, result)
        if operands != "f32":
            continue
        if conv_routine_name(mr, lanes) in module.globals:
            define_conv(module, mr, lanes)  # and its pack entry
        if row_dot_routine_name(mr, lanes) in module.globals:
            define_row_dot(module, mr, lanes)
        if pad_routine_name(mr, lanes) in module.globals:
            define_pad(module, mr, lanes)
        if transpose_routine_name(mr, lanes) in module.globals:
            define_transpose(module, mr, lanes)
    for mr, lanes in called_int8_variants(" ".join(module.globals).encode()):
        define_int8_gemm(module, mr, lanes)
