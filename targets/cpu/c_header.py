"""The C header of an ahead-of-time compiled function (like tfcompile's).

It declares the native entry `void ENTRY(void **args, void **results, void
*temp)` (host_entry.py) with C linkage, so C and C++ can call it, and
gives everything a caller needs without reading the program: the number,
byte sizes, shapes and element types of the arguments and results as
constants, the temp arena's size and alignment, a comment block with the
buffer plan's memory figures, and a small struct with inline setters and
getters that keeps one call's buffers together.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xlir.element_dtypes import NARROW_FLOATS
from xlir.signature import MemoryStats, Signature, TensorSpec

C_ELEMENT_TYPES = {
    "f64": "double",
    "f32": "float",
    "f16": "uint16_t",
    "bf16": "uint16_t",
    "i1": "uint8_t",
    "i8": "int8_t",
    "i16": "int16_t",
    "i32": "int32_t",
    "i64": "int64_t",
    "ui8": "uint8_t",
    "ui16": "uint16_t",
    "ui32": "uint32_t",
    "ui64": "uint64_t",
    "i2": "uint8_t",
    "i4": "uint8_t",
    "ui2": "uint8_t",
    "ui4": "uint8_t",
    "complex<f32>": "float _Complex",
    "complex<f64>": "double _Complex",
}
C_ELEMENT_TYPES.update((str(float_type()), "uint8_t") for float_type in NARROW_FLOATS)
"""Element types as C sees them: 16-bit floats as their bits, the float8,
float6 and float4 types as a byte of their bits (in its low bits), `i1` as
one byte holding 0 or 1, 2- and 4-bit integers as a byte whose low bits hold
their two's complement bits, the others zero, as `ml_dtypes` stores them
(what the generated code reads and writes), complex numbers as C99's (real
part, then imaginary part, as the code holds them)."""

ALIGNMENT = 64
"""The temp arena's alignment, which the buffer plan assumes."""

C_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class HeaderInfo:
    """What the header describes besides the signature."""

    entry: str
    source: str
    target: str
    temp_bytes: int
    stats: MemoryStats
    donated: dict[int, int]
    """Parameter index -> output index it is donated to (may be overwritten)."""
    notes: Sequence[str] = ()
    """Extra lines for the comment block (e.g. how threads are used)."""


def c_element_type(spec: TensorSpec) -> str:
    """The C type of one element; a ValueError for an element type C code
    cannot hold."""
    c_type = C_ELEMENT_TYPES.get(spec.element_type)
    if c_type is None:
        raise ValueError(
            f"{spec.name} has element type {spec.element_type}, which has no C "
            f"type here (known: {', '.join(C_ELEMENT_TYPES)})"
        )
    return c_type


def _bytes(size: int) -> str:
    return f"{size:>12,}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _type_text(spec: TensorSpec) -> str:
    return f"{spec.element_type}[{','.join(str(d) for d in spec.shape)}]"


def _comment(signature: Signature, info: HeaderInfo) -> list[str]:
    stats = info.stats
    lines = [
        f"/* {info.entry}: ahead-of-time compiled by xlir; do not edit.",
        " *",
        f" * From:   {info.source}, function @{signature.function}",
        f" * Target: {info.target}",
        f" * Entry:  void {info.entry}(void **args, void **results, void *temp);",
        " *",
        " * Memory (bytes):",
        f" *   arguments {_bytes(stats.argument_size_in_bytes)}"
        f"  ({_count(len(signature.arguments), 'buffer')}, caller's)",
        f" *   results   {_bytes(stats.output_size_in_bytes)}"
        f"  ({_count(len(signature.results), 'buffer')}, caller's)",
        f" *   temp      {_bytes(info.temp_bytes)}"
        f"  (one arena, caller's, {ALIGNMENT}-byte aligned; NULL if 0)",
        f" *   constants {_bytes(stats.constant_size_in_bytes)}"
        "  (read-only data in the object)",
        f" *   code      {_bytes(stats.generated_code_size_in_bytes)}  (object file)",
        " *",
        " * Arguments (read only unless donated):",
    ]
    for index, spec in enumerate(signature.arguments):
        donated = info.donated.get(index)
        note = f", donated to result {donated}" if donated is not None else ""
        lines.append(
            f" *   {index:>3} {spec.name:<10} {_type_text(spec):<24}"
            f" {spec.nbytes:,} bytes{note}"
        )
    lines.append(" * Results (written by each call):")
    for index, spec in enumerate(signature.results):
        lines.append(
            f" *   {index:>3} {spec.name:<10} {_type_text(spec):<24} {spec.nbytes:,} bytes"
        )
    lines.append(" *")
    lines.append(
        " * Buffers are row-major and need the alignment of their element type;"
    )
    lines.append(
        " * no two may overlap (the code is compiled as if they were restrict)."
    )
    lines.extend(f" * {note}" for note in info.notes)
    lines.append(" */")
    return lines


def _constants(prefix: str, kind: str, specs: Sequence[TensorSpec]) -> list[str]:
    lines = []
    for index, spec in enumerate(specs):
        name = f"{prefix}_{kind}{index}"
        shape = ", ".join(str(d) for d in spec.shape)
        lines += [
            f"#define {name}_BYTES {spec.nbytes}",
            f"#define {name}_RANK {len(spec.shape)}",
            f"#define {name}_SHAPE {{{shape}}}",
            f'#define {name}_TYPE "{spec.element_type}"',
            "",
        ]
    return lines


def _table(c_type: str, name: str, values: Sequence[str]) -> str:
    return f"static const {c_type} {name}[] = {{{', '.join(values) or '0'}}};"


def _accessors(entry: str, signature: Signature) -> list[str]:
    struct = f"{entry}_buffers"
    lines = [
        f"/* One call's buffers: set them, then {entry}_run(&b). */",
        f"typedef struct {struct} {{",
        f"  void *args[{max(len(signature.arguments), 1)}];",
        f"  void *results[{max(len(signature.results), 1)}];",
        "  void *temp;",
        f"}} {struct};",
        "",
    ]
    for index, spec in enumerate(signature.arguments):
        c_type = c_element_type(spec)
        lines.append(
            f"static inline void {entry}_set_arg{index}({struct} *b, "
            f"const {c_type} *data) {{ b->args[{index}] = (void *)data; }}"
        )
    for index, spec in enumerate(signature.results):
        c_type = c_element_type(spec)
        lines += [
            f"static inline void {entry}_set_result{index}({struct} *b, "
            f"{c_type} *data) {{ b->results[{index}] = data; }}",
            f"static inline {c_type} *{entry}_result{index}(const {struct} *b) "
            f"{{ return ({c_type} *)b->results[{index}]; }}",
        ]
    lines += [
        f"static inline void {entry}_set_temp({struct} *b, void *temp) "
        "{ b->temp = temp; }",
        f"static inline void {entry}_run({struct} *b) "
        f"{{ {entry}(b->args, b->results, b->temp); }}",
    ]
    return lines


def c_header(signature: Signature, info: HeaderInfo) -> str:
    """The header text for `info.entry` (a C identifier)."""
    entry = info.entry
    prefix = entry.upper()
    guard = f"XLIR_{prefix}_H_"
    args, results = signature.arguments, signature.results
    lines = [
        *_comment(signature, info),
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
        "#include <stddef.h>",
        "#include <stdint.h>",
        "",
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "",
        f"#define {prefix}_NUM_ARGS {len(args)}",
        f"#define {prefix}_NUM_RESULTS {len(results)}",
        f"#define {prefix}_TEMP_BYTES {info.temp_bytes}",
        f"#define {prefix}_TEMP_ALIGNMENT {ALIGNMENT}",
        "",
        *_constants(prefix, "ARG", args),
        *_constants(prefix, "RESULT", results),
        "/* The same, indexed by position (for code that loops over buffers). */",
        _table("size_t", f"{prefix}_ARG_BYTES", [str(a.nbytes) for a in args]),
        _table("size_t", f"{prefix}_RESULT_BYTES", [str(r.nbytes) for r in results]),
        _table(
            "char *const", f"{prefix}_ARG_TYPES", [f'"{a.element_type}"' for a in args]
        ),
        _table(
            "char *const",
            f"{prefix}_RESULT_TYPES",
            [f'"{r.element_type}"' for r in results],
        ),
        "",
        "/* Runs the function once: args[i] and results[i] point at row-major",
        f" * buffers of {prefix}_ARG<i>_BYTES / {prefix}_RESULT<i>_BYTES bytes;",
        f" * temp at {prefix}_TEMP_BYTES bytes aligned to {prefix}_TEMP_ALIGNMENT",
        " * (one arena per concurrent call). */",
        f"void {entry}(void **args, void **results, void *temp);",
        "",
        *_accessors(entry, signature),
        "",
        "#ifdef __cplusplus",
        "}",
        "#endif",
        "",
        f"#endif /* {guard} */",
        "",
    ]
    return "\n".join(lines)
