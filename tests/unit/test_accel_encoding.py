"""Property tests of XA-1's encoding (manual section 3): encode -> decode is the
identity for every instruction over random fields, decode -> encode for every
legal word, and assemble -> disassemble -> assemble gives identical bytes."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xlir.targets.accel.assembler import assemble
from xlir.targets.accel.disassembler import disassemble
from xlir.targets.accel.isa import (
    IMMEDIATE_RANGES,
    SPECS,
    IllegalInstruction,
    Instruction,
    InstructionSpec,
    Kind,
    decode,
    encode,
)
from xlir.targets.accel.objfile import ObjectFile, Symbol


def instructions(spec: InstructionSpec) -> st.SearchStrategy[Instruction]:
    """Random well-formed instances of `spec`."""
    parts: list[st.SearchStrategy] = []
    for operand in spec.operands:
        if operand.kind is Kind.REG:
            assert operand.cls is not None
            parts.append(st.integers(0, operand.cls.count - 1))
        elif operand.kind is Kind.MEM:
            low, high = IMMEDIATE_RANGES[Kind.MEM]
            parts.append(st.tuples(st.integers(low, high), st.integers(0, 31)))
        else:
            parts.append(st.integers(*IMMEDIATE_RANGES[operand.kind]))
    return st.tuples(*parts).map(lambda values: Instruction(spec, values))


def test_the_manual_has_122_mnemonics_and_51_opcodes() -> None:
    assert len(SPECS) == 122
    assert len({s.opcode for s in SPECS.values()}) == 51


@pytest.mark.parametrize("mnemonic", sorted(SPECS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_encode_decode_identity(mnemonic: str, data: st.DataObject) -> None:
    instruction = data.draw(instructions(SPECS[mnemonic]))
    word = encode(instruction)
    assert word >> 26 == SPECS[mnemonic].opcode
    assert decode(word) == instruction
    assert assemble(str(instruction)).code == [word]


@settings(max_examples=3000, deadline=None)
@given(st.integers(0, (1 << 32) - 1))
def test_decode_encode_identity(word: int) -> None:
    """Every legal word has exactly one encoding (section 3.5)."""
    try:
        instruction = decode(word)
    except IllegalInstruction:
        return
    assert encode(instruction) == word


@pytest.mark.parametrize(
    ("word", "reason"),
    [
        (0x00000000, "opcode"),
        (0x04000000 | 23, "function code"),  # scalar ALU fn 23
        (0xE8000004, "function code"),  # mmac fn 4
        (0x84000008, "out of range"),  # dma.ld tag 8
        (0x80000007, "out of range"),  # dma.cfg mode 7
        (0x18000020, "out of range"),  # slli by 32
        (0xC8000010, "out of range"),  # vext lane 16
        (0x8C000008, "out of range"),  # dma.wait 8
        (0x70000000, "out of range"),  # loop offset 0
        (0x70008000, "out of range"),  # loop offset -32768
        (0xE4800000, "m register"),  # mzero m4
        (0x74000001, "function code"),  # halt is fn 0
        (0xB8E8F80B, "unused field"),  # vredmax.f with rs2 != 0
        (0x2C010000, "unused field"),  # lui with rs1 != 0
    ],
)
def test_illegal_words(word: int, reason: str) -> None:
    with pytest.raises(IllegalInstruction, match=reason):
        decode(word)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, (1 << 32) - 1), min_size=1, max_size=40), st.binary())
def test_assemble_disassemble_assemble(words: list[int], rodata: bytes) -> None:
    """Any loadable object disassembles to text that assembles to the same bytes."""
    obj = ObjectFile(words, rodata, [Symbol("k", 0, 4 * len(words), 2, 0)])
    text = disassemble(obj)
    again = assemble(text)
    assert again.to_bytes() == obj.to_bytes()
    assert assemble(disassemble(again)).to_bytes() == obj.to_bytes()
