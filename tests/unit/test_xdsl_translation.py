"""The speed-ups of xDSL's LLVM translation (lowering/llvm/xdsl_translation.py)
translate as xDSL does: looked up by class, every op class gives the text
xDSL's `match` gives, types converted once per translation give the text of
types converted at each use, and an op the fast paths do not handle still
gets xDSL's translation or its error."""

from __future__ import annotations

from typing import Any

import pytest
from xdsl.backend.llvm import convert, convert_op
from xdsl.backend.llvm.convert_type import convert_type as xdsl_convert_type
from xdsl.dialects import llvm
from xlir.lowering.llvm import xdsl_translation
from xlir.lowering.llvm.llvmlite_module import llvm_ir
from xlir.targets.cpu import lower_to_llvm
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.registry import get_platform
from xlir.targets.target import CompileOptions

from tests.corpus import SMALL
from xlir.context import make_context
from xlir.parsing import parse_module

# One op of each class xDSL's `convert_op` translates but inline assembly and
# masked stores (their translations are xDSL's, unchanged), in a loop with
# block arguments (phis) and an unreachable block.
EVERY_OP = """
builtin.module {
  llvm.mlir.global internal constant @table(dense<[1.0, 2.0]> : tensor<2xf32>) : !llvm.array<2 x f32>
  llvm.func @callee(%x: f32) -> f32 {
    llvm.return %x : f32
  }
  llvm.func @every(%p: !llvm.ptr, %q: !llvm.ptr<1>, %i: i64, %f: f32, %v: vector<4xf32>, %d: f64) -> f32 {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %c2 = llvm.mlir.constant(2.5 : f32) : f32
    %a = llvm.add %i, %c1 : i64
    %b = llvm.sub %a, %i : i64
    %m = llvm.mul %a, %b : i64
    %ud = llvm.udiv %m, %c1 : i64
    %sd = llvm.sdiv %m, %c1 : i64
    %ur = llvm.urem %ud, %c1 : i64
    %sr = llvm.srem %sd, %c1 : i64
    %sl = llvm.shl %ur, %c1 : i64
    %lr = llvm.lshr %sl, %c1 : i64
    %ar = llvm.ashr %lr, %sr : i64
    %an = llvm.and %ar, %c1 : i64
    %or = llvm.or %an, %c1 : i64
    %xo = llvm.xor %or, %c1 : i64
    %fa = llvm.fadd %f, %c2 : f32
    %fs = llvm.fsub %fa, %f : f32
    %fm = llvm.fmul %fs, %f : f32
    %fd = llvm.fdiv %fm, %f : f32
    %fr = llvm.frem %fd, %f : f32
    %fn = llvm.fneg %fr : f32
    %ic = llvm.icmp "slt" %xo, %i : i64
    %fc = llvm.fcmp "olt" %fn, %f : f32
    %sel = llvm.select %ic, %fn, %f : i1, f32
    %tr = llvm.trunc %xo : i64 to i32
    %ze = llvm.zext %tr : i32 to i64
    %se = llvm.sext %tr : i32 to i64
    %pi = llvm.ptrtoint %p : !llvm.ptr to i64
    %ip = llvm.inttoptr %pi : i64 to !llvm.ptr
    %bc = llvm.bitcast %tr : i32 to f32
    %fe = llvm.fpext %bc : f32 to f64
    %ft = llvm.fptrunc %fe : f64 to f32
    %sf = llvm.sitofp %tr : i32 to f32
    %ab = llvm.intr.fabs(%sf) : (f32) -> f32
    %ex = llvm.intr.exp(%ab) : (f32) -> f32
    %sq = llvm.intr.sqrt(%v) : (vector<4xf32>) -> vector<4xf32>
    %pw = llvm.intr.pow(%d, %d) : (f64, f64) -> f64
    %mx = llvm.intr.maxnum(%ex, %ft) : (f32, f32) -> f32
    %fma = llvm.intr.fma(%mx, %mx, %mx) : (f32, f32, f32) -> f32
    %red = "llvm.intr.vector.reduce.fadd"(%fma, %sq) : (f32, vector<4xf32>) -> f32
    %ci = llvm.call_intrinsic "llvm.maximum.f32"(%red, %fma) : (f32, f32) -> f32
    %ci2 = llvm.call_intrinsic "llvm.maximum.f32"(%ci, %red) : (f32, f32) -> f32
    %call = llvm.call @callee(%ci2) : (f32) -> f32
    %al = llvm.alloca %c1 x f32 : (i64) -> !llvm.ptr
    llvm.store %call, %al : f32, !llvm.ptr
    %ga = llvm.getelementptr %al[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %g = llvm.getelementptr inbounds %p[%i, 1] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
    %gq = llvm.getelementptr %q[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %ld = llvm.load %g : !llvm.ptr -> f32
    %lq = llvm.load %gq : !llvm.ptr<1> -> f32
    %ad = llvm.mlir.addressof @table : !llvm.ptr
    %un = llvm.mlir.undef : vector<4xf32>
    %un2 = llvm.mlir.undef : vector<4xf32>
    %ins = llvm.insertelement %ld, %un[%i : i64] : vector<4xf32>
    %sh = llvm.shufflevector %ins, %un2 [0, 0, 4, 5] : vector<4xf32>
    %sh2 = llvm.shufflevector %sh, %un [0, 0, 4, 5] : vector<4xf32>
    %st = llvm.mlir.zero : !llvm.struct<(f32, i64)>
    %iv = llvm.insertvalue %lq, %st[0] : !llvm.struct<(f32, i64)>
    %ev = llvm.extractvalue %iv[0] : !llvm.struct<(f32, i64)>
    llvm.cond_br %fc, ^loop(%ev : f32), ^dead
  ^loop(%acc: f32):
    %next = llvm.fadd %acc, %ev : f32
    %done = llvm.fcmp "ogt" %next, %f : f32
    llvm.cond_br %done, ^exit, ^loop(%next : f32)
  ^exit:
    llvm.br ^end(%next : f32)
  ^dead:
    llvm.unreachable
  ^end(%r: f32):
    llvm.return %r : f32
  }
}
"""


def _xdsls_text(module, monkeypatch: pytest.MonkeyPatch) -> str:
    """`llvm_ir` with xDSL's own `convert_op` and `convert_type` (the fixes
    of intrinsics and `getelementptr` stay: xDSL's `convert_op` calls them)."""
    with monkeypatch.context() as patched:
        patched.setattr(convert, "convert_op", convert_op.convert_op)
        patched.setattr(convert, "convert_type", xdsl_convert_type)
        patched.setattr(convert_op, "convert_type", xdsl_convert_type)
        return llvm_ir(module)


def test_every_op_class_translates_as_xdsl_does(monkeypatch) -> None:
    module = parse_module(make_context(), EVERY_OP, "every_op")
    ours = llvm_ir(module)
    assert ours == _xdsls_text(module, monkeypatch)
    used = {type(op) for op in module.walk()}
    xdsl: Any = convert_op
    table = set(xdsl_translation._TRANSLATIONS) | set(xdsl_translation._BRANCHES)  # pyright: ignore[reportPrivateUsage]
    # Not in EVERY_OP: xDSL's translations of inline assembly and masked
    # stores, unchanged; xDSL's `llvm.fcmp` and `llvm.select` (xlir parses
    # its own); float intrinsics but one of each arity, translated alike.
    untested = table - used - {llvm.InlineAsmOp, llvm.MaskedStoreOp}
    untested -= {llvm.FCmpOp, llvm.SelectOp, llvm.VectorReduceFMulOp}
    untested -= set(xdsl._UNARY_INTRINSIC_MAP) | set(xdsl._BINARY_INTRINSIC_MAP)
    assert not untested, sorted(kind.__name__ for kind in untested)


FLAGGED_OPS = """
builtin.module {
  llvm.func @flags(%p: !llvm.ptr, %i: i64, %f: f32) -> f32 {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.add %i, %c1 overflow<nsw, nuw> : i64
    %s = llvm.shl %a, %c1 overflow<nsw> : i64
    %m = llvm.mul %s, %c1 : i64
    %d = llvm.sdiv exact %m, %c1 : i64
    %o = llvm.or disjoint %d, %c1 : i64
    %fa = llvm.fadd %f, %f {fastmathFlags = #llvm.fastmath<fast>} : f32
    %fm = llvm.fmul %fa, %f {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
    llvm.store %fm, %p {alignment = 4 : i64} : f32, !llvm.ptr
    %l = llvm.load %p {alignment = 16 : i64} : !llvm.ptr -> f32
    llvm.return %l : f32
  }
}
"""


def test_flags_and_alignments_translate_as_xdsl_does(monkeypatch) -> None:
    """Overflow, exact, disjoint and fast-math flags, and alignments, as
    `_binary_op`, `_load` and `_store` read them."""
    module = parse_module(make_context(), FLAGGED_OPS, "flagged_ops")
    ours = llvm_ir(module)
    assert ours == _xdsls_text(module, monkeypatch)
    # xDSL keeps flags in sets: their order varies from process to process.
    words = {
        line.split()[2]: set(line.split()[3:-3]) for line in ours.splitlines()[7:14]
    }
    assert words == {
        "add": {"nsw", "nuw"},
        "shl": {"nsw"},
        "mul": set(),
        "sdiv": {"exact"},
        "or": {"disjoint"},
        "fadd": {"reassoc", "nsz", "arcp", "nnan", "ninf", "afn", "contract"},
        "fmul": {"nnan", "ninf"},
    }
    assert "align 4" in ours and "align 16" in ours


@pytest.mark.parametrize("name", ["matmul", "int_ops", "while_loops"])
def test_corpus_programs_translate_as_xdsl_does(name: str, monkeypatch) -> None:
    """Lowered programs: vector code (shuffles, undef vectors, intrinsics by
    name), threaded loops, launchers."""
    module = parse_module(make_context(), (SMALL / f"{name}.mlir").read_text(), name)
    record = get_platform("cpu").compiler().optimize(module)
    lower_to_llvm(CpuTarget(), module, record, CompileOptions())
    assert llvm_ir(module) == _xdsls_text(module, monkeypatch)


def test_a_call_with_operand_bundles_gets_xdsls_error() -> None:
    """Not a plain intrinsic call: xDSL's translation says what it lacks,
    and types are converted as before afterwards (nothing kept)."""
    module = parse_module(
        make_context(),
        """
        llvm.func @bundled(%x: f32) -> f32 {
          %0 = llvm.call_intrinsic "llvm.fabs.f32"(%x) [%x : f32] : (f32) -> f32
          llvm.return %0 : f32
        }
        """,
        "bundled",
    )
    with pytest.raises(NotImplementedError, match="Operand bundles not supported"):
        llvm_ir(module)
    assert xdsl_translation._SHARED.types is None  # pyright: ignore[reportPrivateUsage]
