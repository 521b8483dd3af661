"""LLVM IR text straight from the llvm dialect (lowering/llvm/ir_text.py): per
op family, the text LLVM parses and verifies, and LLVM's own printing of it
holds the instruction each op means; forward references and phis; globals,
linkage, calling conventions and attributes; and a clear error for what it
does not translate."""

from __future__ import annotations

import re

import llvmlite.binding as llvm
import pytest
from xdsl.dialects import llvm as llvm_dialect
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.utils.exceptions import LLVMTranslationException
from xlir.lowering.llvm.llvmlite_module import initialize_llvm, llvm_ir
from xlir.targets.cpu import lower_to_llvm
from xlir.targets.cpu.target import CpuTarget
from xlir.targets.registry import get_platform
from xlir.targets.target import CompileOptions

from tests.corpus import SMALL
from xlir.context import make_context
from xlir.parsing import parse_module


def _parse(text: str) -> ModuleOp:
    return parse_module(make_context(), text, "test")


def _assert_holds(text: str, lines: list[str]) -> None:
    missing = [line for line in lines if line not in text]
    assert not missing, (missing, text)


def _llvm(module: ModuleOp, **options) -> str:
    """LLVM's printing of the module's text, parsed and verified by LLVM."""
    initialize_llvm()
    parsed = llvm.parse_assembly(llvm_ir(module, **options))
    parsed.verify()
    return str(parsed)


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
    %vc = llvm.fcmp "uge" %v, %v : vector<4xf32>
    %vs = llvm.select %vc, %v, %v : vector<4xi1>, vector<4xf32>
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
    %sq = llvm.intr.sqrt(%vs) : (vector<4xf32>) -> vector<4xf32>
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
    %ins = llvm.insertelement %ld, %un[%i : i64] : vector<4xf32>
    %sh = llvm.shufflevector %ins, %un [0, 0, 4, 5] : vector<4xf32>
    %st = llvm.mlir.zero : !llvm.struct<(f32, i64)>
    %iv = llvm.insertvalue %lq, %st[0] : !llvm.struct<(f32, i64)>
    %ev = llvm.extractvalue %iv[0] : !llvm.struct<(f32, i64)>
    %dv = llvm.mlir.constant(dense<[1, 2, 3, 4]> : vector<4xi32>) : vector<4xi32>
    %sp = llvm.mlir.constant(7 : i32) : vector<4xi32>
    %ds = llvm.add %dv, %sp : vector<4xi32>
    %vb = llvm.bitcast %ds : vector<4xi32> to vector<4xf32>
    llvm.store %vb, %ad : vector<4xf32>, !llvm.ptr
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

EVERY_INSTRUCTION = [
    r"add i64 %2, 1",
    r"sub i64",
    r"mul i64",
    r"udiv i64",
    r"sdiv i64",
    r"urem i64",
    r"srem i64",
    r"shl i64",
    r"lshr i64",
    r"ashr i64",
    r"and i64",
    r"or i64",
    r"xor i64",
    r"fadd float %3, 2\.500000e\+00",
    r"fsub float",
    r"fmul float",
    r"fdiv float",
    r"frem float",
    r"fneg float",
    r"icmp slt i64",
    r"fcmp olt float",
    r"fcmp uge <4 x float> %4, %4",
    r"select <4 x i1> %\d+, <4 x float> %4, <4 x float> %4",
    r"select i1 %\d+, float",
    r"trunc i64 %\d+ to i32",
    r"zext i32 %\d+ to i64",
    r"sext i32 %\d+ to i64",
    r"ptrtoint ptr %0 to i64",
    r"inttoptr i64 %\d+ to ptr",
    r"bitcast i32 %\d+ to float",
    r"fpext float %\d+ to double",
    r"fptrunc double %\d+ to float",
    r"sitofp i32 %\d+ to float",
    r"call float @llvm\.fabs\.f32\(float",
    r"call float @llvm\.exp\.f32\(float",
    r"call <4 x float> @llvm\.sqrt\.v4f32\(<4 x float>",
    r"call double @llvm\.pow\.f64\(double %5, double %5\)",
    r"call float @llvm\.maxnum\.f32\(",
    r"call float @llvm\.fma\.f32\(",
    r"call float @llvm\.vector\.reduce\.fadd\.v4f32\(float %\d+, <4 x float>",
    r"call float @llvm\.maximum\.f32\(",
    r"call float @callee\(float",
    r"alloca float, i64 1",
    r"store float %\d+, ptr %\d+",
    r"getelementptr float, ptr %\d+, i64 %2",
    r"getelementptr inbounds \[4 x float\], ptr %0, i64 %2, i32 1",
    r"getelementptr float, ptr addrspace\(1\) %1, i64 %2",
    r"load float, ptr addrspace\(1\) %\d+",
    r"insertelement <4 x float> undef, float %\d+, i64 %2",
    r"shufflevector <4 x float> %\d+, <4 x float> undef, <4 x i32> <i32 0, i32 0, i32 4, i32 5>",
    r"insertvalue { float, i64 } zeroinitializer, float %\d+, 0",
    r"extractvalue { float, i64 } %\d+, 0",
    r"add <4 x i32> <i32 1, i32 2, i32 3, i32 4>, splat \(i32 7\)",
    r"bitcast <4 x i32> %\d+ to <4 x float>",
    r"store <4 x float> %\d+, ptr @table",
    r"br i1 %\d+, label %\d+, label %\d+",
    r"phi float \[ %\d+, %\d+ \], \[ %\d+, %\d+ \]",
    r"br label %\d+",
    r"unreachable",
    r"ret float %\d+",
    r"declare float @llvm\.fabs\.f32\(float\)",
    r"declare <4 x float> @llvm\.sqrt\.v4f32\(<4 x float>\)",
]


def test_every_op_family_is_the_instruction_llvm_reads() -> None:
    text = _llvm(_parse(EVERY_OP))
    missing = [pattern for pattern in EVERY_INSTRUCTION if not re.search(pattern, text)]
    assert not missing, text


FLAGGED_OPS = """
builtin.module {
  llvm.func @flags(%p: !llvm.ptr, %i: i64, %f: f32, %s: i32) -> f32 {
    %c1 = llvm.mlir.constant(1 : i64) : i64
    %a = llvm.add %i, %c1 overflow<nsw, nuw> : i64
    %s2 = llvm.shl %a, %c1 overflow<nsw> : i64
    %m = llvm.mul %s2, %c1 : i64
    %d = llvm.sdiv exact %m, %c1 : i64
    %o = llvm.or disjoint %d, %c1 : i64
    %t = llvm.trunc %o overflow<nuw> : i64 to i32
    %z = llvm.zext nneg %t : i32 to i64
    %fa = llvm.fadd %f, %f {fastmathFlags = #llvm.fastmath<fast>} : f32
    %fm = llvm.fmul %fa, %f {fastmathFlags = #llvm.fastmath<nnan, ninf>} : f32
    llvm.store %fm, %p {alignment = 4 : i64} : f32, !llvm.ptr
    %l = llvm.load %p {alignment = 16 : i64} : !llvm.ptr -> f32
    llvm.return %l : f32
  }
}
"""


def test_flags_and_alignments() -> None:
    """Overflow, exact, disjoint, nneg and fast-math flags, and alignments."""
    text = _llvm(_parse(FLAGGED_OPS))
    _assert_holds(
        text,
        [
            "add nuw nsw i64 %1, 1",
            "shl nsw i64",
            "mul i64",
            "sdiv exact i64",
            "or disjoint i64",
            "trunc nuw i64",
            "zext nneg i32",
            "fadd fast float %2, %2",
            "fmul nnan ninf float",
            "store float %13, ptr %0, align 4",
            "load float, ptr %0, align 16",
        ],
    )


def test_values_used_before_their_block_are_numbered_in_order() -> None:
    """A block may use a value defined in a block written after it (it
    dominates it); the numbers still go in the order LLVM reads them."""
    text = _llvm(
        _parse("""
        llvm.func @later(%x: i64) -> i64 {
          llvm.br ^define
        ^use(%a: i64):
          %s = llvm.add %a, %d : i64
          llvm.return %s : i64
        ^define:
          %d = llvm.mul %x, %x : i64
          llvm.br ^use(%d : i64)
        }
        """)
    )
    assert "%3 = phi i64 [ %6, %5 ]" in text
    assert "%4 = add i64 %3, %6" in text
    assert "%6 = mul i64 %0, %0" in text


def test_globals_functions_and_their_attributes() -> None:
    module = _parse("""
    builtin.module {
      llvm.mlir.global internal constant @data(dense<[1, 2, 3]> : tensor<3xi16>) {alignment = 64 : i64} : !llvm.array<3 x i16>
      llvm.mlir.global internal constant @text("a\\22b\\0A") : !llvm.array<4 x i8>
      llvm.mlir.global internal @scratch() {addr_space = 3 : i32} : !llvm.array<2 x f32>
      llvm.mlir.global internal @shared_out(dense<0.5> : tensor<2xf32>) : !llvm.array<2 x f32>
      llvm.func @dprintf(i32, !llvm.ptr, ...) -> i32
      llvm.func internal @inner(%p: !llvm.ptr {llvm.noalias, llvm.align = 16 : i64}, %n: i64) attributes {no_inline, optimize_none} {
        llvm.return
      }
      llvm.func @kernel(%p: !llvm.ptr) attributes {passthrough = [["nvvm.maxntid", "128"]]} {
        llvm.return
      }
    }
    """)
    text = _llvm(
        module, exported=["shared_out"], calling_conventions={"kernel": "coldcc"}
    )
    _assert_holds(
        text,
        [
            "@data = internal constant [3 x i16] [i16 1, i16 2, i16 3], align 64",
            '@text = internal constant [4 x i8] c"a\\22b\\0A"',
            "@scratch = internal addrspace(3) global [2 x float] undef",
            "@shared_out = global [2 x float] [float 5.000000e-01, float 5.000000e-01]",
            "declare i32 @dprintf(i32, ptr, ...)",
            "define internal void @inner(ptr noalias align 16 %0, i64 %1) #0",
            "define coldcc void @kernel(ptr %0) #1",
            "attributes #0 = { noinline optnone }",
            'attributes #1 = { "nvvm.maxntid"="128" }',
        ],
    )


def test_a_loop_marked_for_interleaving_gets_its_own_loop_node() -> None:
    text = _llvm(
        _parse("""
        llvm.func @two(%n: i64) {
          %c0 = llvm.mlir.constant(0 : i64) : i64
          llvm.br ^a(%c0 : i64)
        ^a(%i: i64):
          %c = llvm.icmp "slt" %i, %n : i64
          llvm.cond_br %c, ^a(%i : i64), ^b(%c0 : i64) {xlir.interleave_count = 4 : i32}
        ^b(%j: i64):
          %d = llvm.icmp "slt" %j, %n : i64
          llvm.cond_br %d, ^b(%j : i64), ^end {xlir.interleave_count = 4 : i32}
        ^end:
          llvm.return
        }
        """)
    )
    loops = re.findall(r"!llvm\.loop (!\d+)", text)
    assert len(set(loops)) == 2
    for loop in loops:
        assert re.search(rf"{loop} = distinct !{{{loop}, (!\d+)}}", text)
    assert '!{!"llvm.loop.interleave.count", i32 4}' in text


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            '%0 = "arith.addi"(%x, %x) : (i64, i64) -> i64\n llvm.return',
            "cannot translate 'arith.addi' to LLVM IR",
        ),
        (
            "%0 = llvm.load %p atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64\n"
            " llvm.return",
            "cannot translate 'llvm.load' other than a plain one",
        ),
        (
            '%0 = llvm.call_intrinsic "llvm.fabs.f32"(%f) [%f : f32] : (f32) -> f32\n'
            " llvm.return",
            "cannot translate 'llvm.call_intrinsic' with operand bundles",
        ),
    ],
)
def test_what_it_does_not_translate_is_an_error_naming_it(
    body: str, message: str
) -> None:
    module = _parse(f"""
    llvm.func @f(%x: i64, %p: !llvm.ptr, %f: f32) {{
      {body}
    }}
    """)
    with pytest.raises(LLVMTranslationException, match=re.escape(message)):
        llvm_ir(module)


def test_a_type_it_does_not_translate_is_an_error_naming_it() -> None:
    module = _parse("""
    llvm.func @f(%p: !llvm.ptr) {
      %u = llvm.mlir.undef : bf16
      llvm.store %u, %p : bf16, !llvm.ptr
      llvm.return
    }
    """)
    with pytest.raises(LLVMTranslationException, match="cannot translate type bf16"):
        llvm_ir(module)


@pytest.mark.parametrize("name", ["matmul", "int_ops", "while_loops"])
def test_corpus_programs_translate_the_same_twice(name: str) -> None:
    """Lowered programs (vector code, threaded loops, launchers) give text
    LLVM verifies, the same each time (flags sorted: xDSL keeps them in
    sets, and the text is part of the compilation cache's entries)."""
    module = parse_module(make_context(), (SMALL / f"{name}.mlir").read_text(), name)
    record = get_platform("cpu").compiler().optimize(module)
    lower_to_llvm(CpuTarget(), module, record, CompileOptions())
    text = llvm_ir(module)
    assert _llvm(module)
    assert llvm_ir(module) == text


def test_passthrough_attribute_of_an_unknown_shape_is_an_error() -> None:
    module = _parse("llvm.func @f() {\n llvm.return\n}")
    (function,) = module.body.block.ops
    assert isinstance(function, llvm_dialect.FuncOp)
    function.passthrough = ArrayAttr([StringAttr("nounwind")])
    with pytest.raises(
        LLVMTranslationException, match=r"only \[key, value\] string pairs"
    ):
        llvm_ir(module)
