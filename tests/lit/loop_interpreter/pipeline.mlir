// Corpus programs lowered by hlo-to-loop and run at loop level by xlir-run
// (the module comes in on stdin): JAX's outputs within the corpus tolerances
// (tolerances.json; 0 for the exact ones).
// One per kind of kernel: reductions, a while loop on the host, integer
// arithmetic, a convolution, slices/concatenation/padding.

// REQUIRES: shared
// RUN: xlir-opt %corpus/small/layernorm.mlir -p hlo-opt,hlo-to-loop | xlir-run - --inputs %corpus/small/layernorm.npz --expected %corpus/small/layernorm.npz --rtol 1e-5 --atol 1e-6 | filecheck %s
// RUN: xlir-opt %corpus/small/while_loops.mlir -p hlo-opt,hlo-to-loop | xlir-run - --inputs %corpus/small/while_loops.npz --expected %corpus/small/while_loops.npz | filecheck %s
// RUN: xlir-opt %corpus/small/int_ops.mlir -p hlo-opt,hlo-to-loop | xlir-run - --inputs %corpus/small/int_ops.npz --expected %corpus/small/int_ops.npz --rtol 0 --atol 0 | filecheck %s
// RUN: xlir-opt %corpus/small/conv2d_nhwc.mlir -p hlo-opt,hlo-to-loop | xlir-run - --inputs %corpus/small/conv2d_nhwc.npz --expected %corpus/small/conv2d_nhwc.npz --rtol 1e-4 --atol 1e-5 | filecheck %s
// RUN: xlir-opt %corpus/small/slice_concat_pad.mlir -p hlo-opt,hlo-to-loop | xlir-run - --inputs %corpus/small/slice_concat_pad.npz --expected %corpus/small/slice_concat_pad.npz --rtol 0 --atol 0 | filecheck %s

// Register tiles with vector copies (4 lanes: any host) run too: a convolution,
// a dense layer with its epilogue, and a training step's transposed dots.
// RUN: xlir-opt %corpus/small/conv2d_nhwc.mlir -p "hlo-opt,hlo-to-loop,register-tile{mr=4 nr=8 lanes=4}" | xlir-run - --inputs %corpus/small/conv2d_nhwc.npz --expected %corpus/small/conv2d_nhwc.npz --rtol 1e-4 --atol 1e-5 | filecheck %s
// RUN: xlir-opt %corpus/small/mlp_fwd.mlir -p "hlo-opt,hlo-to-loop,fuse-kernels,register-tile{mr=4 nr=8 lanes=4}" | xlir-run - --inputs %corpus/small/mlp_fwd.npz --expected %corpus/small/mlp_fwd.npz --rtol 1e-4 --atol 1e-5 | filecheck %s
// RUN: xlir-opt %corpus/small/train_step_mlp.mlir -p "hlo-opt,hlo-to-loop,fuse-kernels,register-tile{mr=4 nr=8 lanes=4}" | xlir-run - --inputs %corpus/small/train_step_mlp.npz --expected %corpus/small/train_step_mlp.npz --rtol 1e-4 --atol 1e-5 | filecheck %s

// The same dots reading their rhs from packed panels (pack-panels: panel loop
// outside, a scratch buffer per launch).
// RUN: xlir-opt %corpus/small/mlp_fwd.mlir -p "hlo-opt,hlo-to-loop,fuse-kernels,register-tile{mr=4 nr=8 lanes=4},pack-panels{min-bytes=0}" | xlir-run - --inputs %corpus/small/mlp_fwd.npz --expected %corpus/small/mlp_fwd.npz --rtol 1e-4 --atol 1e-5 | filecheck %s
// RUN: xlir-opt %corpus/small/train_step_mlp.mlir -p "hlo-opt,hlo-to-loop,fuse-kernels,register-tile{mr=4 nr=8 lanes=4},pack-panels{min-bytes=0}" | xlir-run - --inputs %corpus/small/train_step_mlp.npz --expected %corpus/small/train_step_mlp.npz --rtol 1e-4 --atol 1e-5 | filecheck %s

// CHECK-NOT: MISMATCH
// CHECK: PASSED
// CHECK: time per call: {{.*}} on interpreter
