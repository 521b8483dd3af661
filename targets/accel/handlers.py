"""The instruction handlers of the XA-1 simulator: for one decoded instruction at one
pc, a closure that checks it, performs its effect (manual section 4) and advances
the timing state (section 6), returning the next pc."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from xlir.targets.accel import lanes
from xlir.targets.accel.dma import SPAD_SIZE
from xlir.targets.accel.isa import Instruction

if TYPE_CHECKING:
    from xlir.targets.accel.simulator import Simulator

MASK = 0xFFFFFFFF
HALTED = -1
LANES = np.arange(16, dtype=np.uint32)
Handler = Callable[[], int]


class Stop(Exception):
    """Raised by a handler; the run loop adds the kernel, pc, instruction, cycle."""

    def __init__(self, kind: str, cause: str):
        super().__init__(cause)
        self.kind = kind


def _signed(value: int) -> int:
    return value - (1 << 32) if value >> 31 else value


BRANCH_CONDITIONS: dict[str, Callable[[int, int], bool]] = {
    "beq": lambda a, b: a == b,
    "bne": lambda a, b: a != b,
    "blt": lambda a, b: _signed(a) < _signed(b),
    "bge": lambda a, b: _signed(a) >= _signed(b),
    "bltu": lambda a, b: a < b,
    "bgeu": lambda a, b: a >= b,
}
LOADS = {
    "lb": (1, np.int8),
    "lbu": (1, np.uint8),
    "lh": (2, np.int16),
    "lhu": (2, np.uint16),
    "lw": (4, np.uint32),
}
STORES = {"sb": (1, np.uint8), "sh": (2, np.uint16), "sw": (4, np.uint32)}
IMMEDIATE_OPS = {
    "andi": "and",
    "ori": "or",
    "xori": "xor",
    "slli": "sll",
    "srli": "srl",
    "srai": "sra",
    "slti": "slt",
    "sltiu": "sltu",
}
WORD_ARITHMETIC: dict[str, Callable[[int, int], int]] = {
    "add": lambda a, b: (a + b) & MASK,
    "sub": lambda a, b: (a - b) & MASK,
    "mul": lambda a, b: (a * b) & MASK,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "slli": lambda a, b: (a << b) & MASK,
    "srli": lambda a, b: a >> b,
}
"""Scalar operations whose Python form on 32-bit words is their definition in
section 4.1 (immediate shifts are 0-31), done as `addi` is, without numpy;
the rest use the lane functions on one-lane registers."""
SLOW = frozenset(
    {"div", "divu", "rem", "remu", "vdiv", "vdivu", "vrem", "vremu", "vfdiv", "vfsqrt"}
)


def build(sim: Simulator, ins: Instruction, pc: int) -> Handler:
    """The handler of `ins` at `pc`."""
    name = ins.spec.mnemonic
    opcode = ins.spec.opcode
    rd, rs1, rs2, rs3 = (ins.field(f) for f in ("rd", "rs1", "rs2", "rs3"))
    imm, fn = ins.field("imm"), ins.field("fn")
    st = sim.state
    x, v, matrix, spad = st.x, st.v, st.matrix, st.spad
    pending = matrix.pending
    """Non-empty while mmacs wait to read the scratchpad: writers flush them."""
    words = spad.view(np.uint32)
    va, vb, vc, vd = v[rs1], v[rs2], v[rs3], v[rd]  # views of the register file
    la, lb, lc, ld = (lanes.lanes_of(r) for r in (va, vb, vc, vd))
    wd = rd or 32  # writes to x0 go to a slot nobody reads
    nxt = pc + 4
    cost = 8 if name in SLOW else 1

    def loop_body_check(taken_to: int | None = None, jump: bool = False) -> None:
        """Section 4.4's LOOP_BODY rules for a control instruction at pc."""
        if not st.loops:
            return
        top = st.loops[-1]
        if pc == top.end:
            raise Stop("LOOP_BODY", f"{name} at the end of a hardware loop")
        if jump:
            raise Stop("LOOP_BODY", f"{name} inside a hardware loop")
        if taken_to is not None and not top.start <= taken_to <= top.end:
            raise Stop(
                "LOOP_BODY",
                f"branch to {taken_to:#x} leaves the hardware loop "
                f"[{top.start:#x}, {top.end:#x}]",
            )

    scalar = opcode == 0x01 or name in IMMEDIATE_OPS
    word_op = WORD_ARITHMETIC.get(name) or WORD_ARITHMETIC.get(
        IMMEDIATE_OPS.get(name, "")
    )
    if scalar and word_op is not None:
        if opcode == 0x01:

            def word_alu() -> int:
                x[wd] = word_op(x[rs1], x[rs2])
                st.t += cost
                return nxt

            return word_alu
        operand = imm & MASK

        def word_alu_immediate() -> int:
            x[wd] = word_op(x[rs1], operand)
            st.t += 1
            return nxt

        return word_alu_immediate
    if scalar:
        op = lanes.INTEGER[IMMEDIATE_OPS.get(name, name)]
        # One-lane registers for the lane function: the scalar unit's semantics.
        a, b, out = (lanes.lanes_of(np.zeros(1, np.uint32)) for _ in range(3))
        a_word, b_word, out_word = a.u, b.u, out.u
        if opcode == 0x01:

            def alu() -> int:
                a_word[0] = x[rs1]
                b_word[0] = x[rs2]
                op(a, b, out)
                x[wd] = out_word.item()
                st.t += cost
                return nxt

            return alu
        b_word[0] = imm & MASK

        def alu_immediate() -> int:
            a_word[0] = x[rs1]
            op(a, b, out)
            x[wd] = out_word.item()
            st.t += 1
            return nxt

        return alu_immediate
    if name == "addi":

        def addi() -> int:
            x[wd] = (x[rs1] + imm) & MASK
            st.t += 1
            return nxt

        return addi
    if name == "lui":

        def lui() -> int:
            x[wd] = imm << 16
            st.t += 1
            return nxt

        return lui
    if name in LOADS:
        size, dtype = LOADS[name]
        view = spad.view(dtype)

        def load() -> int:
            address = (x[rs1] + imm) & MASK
            sim.check_access(address, size, size, False)
            x[wd] = int(view[address // size]) & MASK
            st.t += 1
            return nxt

        return load
    if name in STORES:
        size, dtype = STORES[name]
        view = spad.view(dtype)
        low_bits = (1 << (8 * size)) - 1

        def store() -> int:
            address = (x[rs1] + imm) & MASK
            sim.check_access(address, size, size, True)
            if pending:
                matrix.flush()
            view[address // size] = x[rd] & low_bits
            st.t += 1
            return nxt

        return store
    if name in BRANCH_CONDITIONS:
        condition = BRANCH_CONDITIONS[name]
        target = pc + 4 * imm

        def branch() -> int:
            taken = condition(x[rd], x[rs1])
            loop_body_check(target if taken else None)
            st.t += 1
            return target if taken else nxt

        return branch
    if name == "jal":

        def jal() -> int:
            loop_body_check(jump=True)
            x[wd] = nxt
            st.t += 1
            return pc + 4 * imm

        return jal
    if name == "jalr":

        def jalr() -> int:
            loop_body_check(jump=True)
            target = (x[rs1] + imm) & MASK
            x[wd] = nxt
            st.t += 1
            return target

        return jalr
    if name == "loop":
        return _hardware_loop(sim, rs1, pc, pc + 4 * imm, loop_body_check)
    if name == "halt":

        def halt() -> int:
            loop_body_check()
            s = max([st.t, st.mu, *(d.completion for d in st.outstanding)])
            st.issue_at(s)
            st.outstanding.clear()
            st.t = s + 1
            return HALTED

        return halt
    if name == "rdcycle":

        def rdcycle() -> int:
            x[wd] = st.t & MASK
            st.t += 1
            return nxt

        return rdcycle
    if name == "dma.cfg":

        def dma_cfg() -> int:
            st.dma_config = (x[rs1], x[rs2], x[rs3], fn)
            st.t += 1
            return nxt

        return dma_cfg
    if name in ("dma.ld", "dma.st"):
        is_load = name == "dma.ld"

        def dma() -> int:
            sim.issue_descriptor(is_load, x[rd], x[rs1], x[rs2], fn)
            return nxt

        return dma
    if name == "dma.wait":

        def dma_wait() -> int:
            waited = [d for d in st.outstanding if d.tag == imm]
            s = max([st.t, *(d.completion for d in waited)])
            st.issue_at(s)
            st.outstanding[:] = [d for d in st.outstanding if d.tag != imm]
            st.t = s + 1
            return nxt

        return dma_wait
    if name in ("vld", "vst"):
        rows = words.reshape(-1, 16)  # the scratchpad's 64-byte-aligned vectors
        last = SPAD_SIZE - 64
        outstanding = st.outstanding

        def vector_memory() -> int:
            address = (x[rs1] + imm) & MASK
            if address & 3 or address > last or outstanding:
                sim.check_access(address, 64, 4, name == "vst")
            aligned = not address & 63
            place = rows[address >> 6] if aligned else words[address >> 2 :][:16]
            if name == "vst":
                if pending:
                    matrix.flush()
                place[...] = vd
            else:
                vd[...] = place
            st.t += 1 if aligned else 2
            return nxt

        return vector_memory
    if name in ("vlx", "vsx"):
        return _indexed(sim, name == "vsx", rd, rs1, rs2, nxt)
    if opcode in (0x2C, 0x2D, 0x2E):
        if opcode == 0x2C:
            binary = lanes.INTEGER[name[1:]]
        elif opcode == 0x2D:
            binary = lanes.FLOAT[name]
        else:
            unary = lanes.UNARY[name]
            unary_cost = 4 if name.startswith("vred") else cost

            def vector_unary() -> int:
                unary(la, ld)
                st.t += unary_cost
                return nxt

            return vector_unary

        def vector_binary() -> int:
            binary(la, lb, ld)
            st.t += cost
            return nxt

        return vector_binary
    if name == "vfmadd":
        fmadd = lanes.fmadd

        def vfmadd() -> int:
            fmadd(la, lb, lc, ld)
            st.t += 1
            return nxt

        return vfmadd
    if name == "vsel":

        def vsel() -> int:
            np.copyto(vd, np.where(va != 0, vb, vc))
            st.t += 1
            return nxt

        return vsel
    if name == "vsplat":

        def vsplat() -> int:
            vd[...] = x[rs1]
            st.t += 1
            return nxt

        return vsplat
    if name == "vext":

        def vext() -> int:
            x[wd] = int(va[imm])
            st.t += 1
            return nxt

        return vext
    if name == "vidx":

        def vidx() -> int:
            vd[...] = LANES
            st.t += 1
            return nxt

        return vidx
    if name == "mcfg":

        def mcfg() -> int:
            st.msa, st.msb = x[rs1], x[rs2]
            st.t += 1
            return nxt

        return mcfg
    if name == "mzero":

        def mzero() -> int:
            s = max(st.t, st.mu)
            st.issue_at(s)
            matrix.write(rd, 0.0)
            st.mu = st.t = s + 1
            st.matrix_busy += 1
            return nxt

        return mzero
    if name.startswith("mmac"):
        queue = matrix.mmac

        def mmac() -> int:
            a, a_stride = sim.tile(x[rs1], st.msa, False)
            b, b_stride = sim.tile(x[rs2], st.msb, False)
            s = st.mu if st.mu > st.t else st.t
            st.issue_at(s)
            # A(i, k) is tile(a)(i, k), or (k, i) with .ta; B(k, j) likewise.
            a_i, a_k = (4, a_stride) if fn & 1 else (a_stride, 4)
            b_k, b_j = (4, b_stride) if fn & 2 else (b_stride, 4)
            queue(rd, a, a_i, a_k, b, b_k, b_j)
            st.mu = s + 16
            st.matrix_busy += 16
            st.t = s + 1
            return nxt

        return mmac
    assert name in ("mld", "mst"), name
    is_store = name == "mst"

    def matrix_memory() -> int:
        rows = sim.tile(x[rs1], x[rs2], is_store)
        s = max(st.t, st.mu)
        st.issue_at(s)
        if is_store:
            sim.write_tile(rows, matrix.read(rd))
        else:
            matrix.write(rd, sim.read_tile(rows))
        st.t = st.mu = s + 16
        st.matrix_busy += 16
        return nxt

    return matrix_memory


def _hardware_loop(
    sim: Simulator, rs1: int, pc: int, end: int, loop_body_check: Callable[[], None]
) -> Handler:
    from xlir.targets.accel.simulator import MAX_LOOPS, LoopEntry

    st = sim.state
    x = st.x

    def hardware_loop() -> int:
        loop_body_check()
        count = x[rs1]
        if count == 0:
            st.t += 1
            return sim.after_loop_end(end)
        if len(st.loops) == MAX_LOOPS:
            raise Stop(
                "LOOP_STACK", f"a fifth nested hardware loop (ending at {end:#x})"
            )
        st.loops.append(LoopEntry(pc + 4, end, count))
        st.loop_end = end
        st.t += 1
        return pc + 4

    return hardware_loop


def _indexed(
    sim: Simulator, write: bool, rd: int, rs1: int, rs2: int, nxt: int
) -> Handler:
    """vlx / vsx (section 4.6): a word per lane at x[rs1] + 4 * v[rs2][lane]."""
    st = sim.state
    x, v = st.x, st.v
    words = st.spad.view(np.uint32)

    def indexed() -> int:
        addresses = (x[rs1] + 4 * v[rs2].astype(np.uint64)) & MASK
        if np.any(addresses & 3):
            raise Stop("MISALIGNED", "a lane address is not a multiple of 4")
        if np.any(addresses + 4 > SPAD_SIZE):
            raise Stop("SPAD_RANGE", "a lane address is outside the scratchpad")
        if st.outstanding:
            for address in addresses.tolist():
                sim.check_hazard(address, address + 4, write)
        indices = (addresses >> 2).astype(np.int64)
        if write:
            st.matrix.flush()
            # Repeated indices: the highest lane wins.
            reversed_indices = indices[::-1]
            _, first = np.unique(reversed_indices, return_index=True)
            lanes_kept = 15 - first
            words[indices[lanes_kept]] = v[rd][lanes_kept]
        else:
            v[rd] = words[indices]
        st.t += 16
        return nxt

    return indexed
