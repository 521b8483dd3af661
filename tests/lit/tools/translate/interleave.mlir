// A back edge marked `xlir.interleave_count` (what loop-to-llvm makes of an
// `interleave` mark) becomes `llvm.loop.interleave.count` metadata, and
// LLVM's vectorizer, whose own interleaving the cpu pipeline turns off, runs
// that many vectors a trip: four vector adds where the unmarked loop has one.

// RUN: xlir-translate %s | filecheck %s
// CHECK-LABEL: define void @marked(
// CHECK:         br label %{{.+}}, !llvm.loop ![[LOOP:[0-9]+]]
// CHECK-LABEL: define void @unmarked(
// CHECK-NOT:     !llvm.loop
// CHECK:         ![[LOOP]] = distinct !{![[LOOP]], ![[HINT:[0-9]+]]}
// CHECK:         ![[HINT]] = !{!"llvm.loop.interleave.count", i32 4}

// RUN: xlir-translate %s -O2 --triple aarch64-linux-gnu | filecheck %s --check-prefix=VECTOR
// VECTOR-LABEL:   define void @marked(
// VECTOR-COUNT-4: fadd <4 x float>
// VECTOR-NOT:     fadd <4 x float>
// VECTOR-LABEL:   define void @unmarked(
// VECTOR:         fadd <4 x float>
// VECTOR-NOT:     fadd <4 x float>

builtin.module {
  llvm.func @marked(%x: !llvm.ptr {llvm.noalias}, %y: !llvm.ptr {llvm.noalias}) {
    %zero = llvm.mlir.constant(0) : i64
    %one = llvm.mlir.constant(1) : i64
    %size = llvm.mlir.constant(1024) : i64
    llvm.br ^header(%zero : i64)
  ^header(%i: i64):
    %more = llvm.icmp "slt" %i, %size : i64
    llvm.cond_br %more, ^body, ^exit
  ^body:
    %xp = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %xv = llvm.load %xp : !llvm.ptr -> f32
    %sum = llvm.fadd %xv, %xv : f32
    %yp = llvm.getelementptr inbounds %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %sum, %yp : f32, !llvm.ptr
    %next = llvm.add %i, %one : i64
    llvm.br ^header(%next : i64) {xlir.interleave_count = 4 : i32}
  ^exit:
    llvm.return
  }
  llvm.func @unmarked(%x: !llvm.ptr {llvm.noalias}, %y: !llvm.ptr {llvm.noalias}) {
    %zero = llvm.mlir.constant(0) : i64
    %one = llvm.mlir.constant(1) : i64
    %size = llvm.mlir.constant(1024) : i64
    llvm.br ^header(%zero : i64)
  ^header(%i: i64):
    %more = llvm.icmp "slt" %i, %size : i64
    llvm.cond_br %more, ^body, ^exit
  ^body:
    %xp = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %xv = llvm.load %xp : !llvm.ptr -> f32
    %sum = llvm.fadd %xv, %xv : f32
    %yp = llvm.getelementptr inbounds %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %sum, %yp : f32, !llvm.ptr
    %next = llvm.add %i, %one : i64
    llvm.br ^header(%next : i64)
  ^exit:
    llvm.return
  }
}
