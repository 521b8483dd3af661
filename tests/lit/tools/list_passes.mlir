// --list-passes: every pass with its description and options, and the named
// pipelines; no input is read.
// RUN: xlir-opt --list-passes | filecheck %s

// CHECK: Passes (-p 'name{option=value ...}', comma-separated):
// CHECK: assign-buffers  liveness-based buffer assignment over the fused program.
// CHECK-NEXT: alignment=integer (default 64)
// CHECK: fuse            XLA-style fusion of StableHLO ops into `hlo.fusion` ops.
// CHECK-NEXT: explain=true|false (default false)
// CHECK-NEXT: max-ops=integer (default 128)
// CHECK: tile            split `loop.parallel` nests into tiles.
// CHECK-NEXT: sizes=integers, comma-separated (default none)
// CHECK: Pipelines (stand for their passes in -p):
// CHECK-NEXT: hlo-opt         inline,decompose,simplify,subpixel-conv,fold-constants,cse,dce,combine-all-reduces,fuse,assign-buffers
