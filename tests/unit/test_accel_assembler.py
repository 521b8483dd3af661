"""The XA-1 assembler beyond single instructions (manual sections 4.11, 7 and 9):
pseudo-instructions, labels, routines, read-only data, and its diagnostics."""

from __future__ import annotations

import numpy as np
import pytest
from xlir.targets.accel.assembler import AssemblyError, assemble
from xlir.targets.accel.isa import decode
from xlir.targets.accel.objfile import ObjectFile, ObjectFormatError, Symbol


def words(text: str) -> list[str]:
    return [str(decode(w)) for w in assemble(".kernel k, 0\n" + text).code]


def test_pseudo_instructions() -> None:
    assert words(
        "li t0, -32768 ; li t1, 0x12340000 ; li t2, 0xDEADBEEF ; li t3, -40000"
    ) == [
        "addi t0, zero, -32768",
        "lui t1, 4660",
        "lui t2, 57005",
        "ori t2, t2, 48879",
        "lui t3, 65535",
        "ori t3, t3, 25536",
    ]
    assert words("mv a0, a1 ; nop ; vmv v1, v2 ; ret") == [
        "addi a0, a1, 0",
        "addi zero, zero, 0",
        "vor v1, v2, v2",
        "jalr zero, ra, 0",
    ]
    assert words("top:\n j top ; call top") == ["jal zero, 0", "jal ra, -1"]


def test_routines_rodata_and_labels() -> None:
    obj = assemble(
        """
        .rodata
        table:
            .word 1, -1, 0xFFFFFFFF
            .byte 7
            .align 16
        pi:
            .float 3.14159265
        .text
        .kernel first, 2
            li t0, rodata(pi)
            halt
        .func helper, 0
            ret
        """
    )
    assert obj.symbols == [Symbol("first", 0, 8, 2, 0), Symbol("helper", 8, 4, 0, 1)]
    assert obj.rodata[:13] == bytes(
        [1, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 7]
    )
    assert len(obj.rodata) == 20
    assert np.frombuffer(obj.rodata[16:], np.float32)[0] == np.float32(3.14159265)
    assert obj.code[0] & 0xFFFF == 16  # rodata(pi)
    assert ObjectFile.from_bytes(obj.to_bytes()) == obj


def test_float_literals_round_once() -> None:
    """fl(e) of the decimal, not of its nearest double: 1 + 2^-24 (+ a little) is
    halfway between two binary32 values in binary64."""
    obj = assemble(
        ".rodata\n .float 1.000000059604644775390625, 1.0000000596046447753906250001, "
        "3.4028235677973366e38, -0.0, nan"
    )
    bits = np.frombuffer(obj.rodata, np.uint32).tolist()
    assert bits[:4] == [0x3F800000, 0x3F800001, 0x7F800000, 0x80000000]
    assert bits[4] & 0x7FC00000 == 0x7FC00000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "back:\n loop t0, back",
            ":3:11: error: loop end 'back' is 0 words away, outside [1, 32767]",
        ),
        (
            "beq t0, t0, far\n" + "nop\n" * 32768 + "far:\n halt",
            ":2:13: error: branch target 'far' is 32769 words away",
        ),
        ("x:\nx:\n nop", ":3:1: error: label 'x' is defined twice"),
        ("li t0, 0x100000000", ":2:8: error: immediate 4294967296 is out of range"),
        ("li t0, rodata(nothing)", ":2:8: error: unknown rodata label 'nothing'"),
        ("vld v0, 4096[t3]", ":2:9: error: expected imm(reg), found '4096[t3]'"),
        (
            "vld v0, 4096(v3)",
            ":2:14: error: expected a scalar register, found vector register 'v3'",
        ),
        ("dma.wait 8", ":2:10: error: DMA tag 8 is out of range [0, 7]"),
        ("vext t0, v1, 16", ":2:14: error: lane 16 is out of range [0, 15]"),
        (
            "lui t0, -1",
            ":2:9: error: unsigned 16-bit immediate -1 is out of range [0, 65535]",
        ),
        (".rodata\n .float 1e", ":3:9: error: expected a float, found '1e'"),
        (".rodata\n .word 1\n nop", ":4:2: error: 'nop' is not allowed in .rodata"),
        (".kernel k2, 65", ":2:13: error: argument count 65 is out of range [0, 64]"),
        (".kernel k, 1", ":2:9: error: invalid or repeated name 'k'"),
        # A routine's name is a label too (`call name`), so the two share names.
        ("k:\n nop", ":2:1: error: label 'k' is defined twice"),
        ("f:\n.func f, 0\n ret", ":3:7: error: label 'f' is defined twice"),
    ],
)
def test_diagnostics(text: str, message: str) -> None:
    with pytest.raises(AssemblyError) as info:
        assemble(".kernel k, 0\n" + text, "t.s")
    assert str(info.value.diagnostics[0]).startswith("t.s" + message)


def test_loader_rejects_bad_objects() -> None:
    data = bytearray(assemble(".kernel k, 0\n halt").to_bytes())
    with pytest.raises(ObjectFormatError, match="bad magic"):
        ObjectFile.from_bytes(b"XA2\0" + bytes(data[4:]))
    with pytest.raises(ObjectFormatError, match="version 2"):
        ObjectFile.from_bytes(bytes(data[:4]) + b"\2\0" + bytes(data[6:]))
    with pytest.raises(ObjectFormatError, match="outside the file"):
        ObjectFile.from_bytes(bytes(data[:-3]))
    with pytest.raises(ObjectFormatError, match="outside the 4-byte code"):
        ObjectFile.from_bytes(
            ObjectFile([0x74000000], b"", [Symbol("k", 0, 8, 0, 0)]).to_bytes()
        )
    overlapping = [Symbol("a", 0, 8, 0, 0), Symbol("b", 4, 4, 0, 0)]
    with pytest.raises(ObjectFormatError, match="overlaps"):
        ObjectFile.from_bytes(ObjectFile([0x74000000] * 2, b"", overlapping).to_bytes())
