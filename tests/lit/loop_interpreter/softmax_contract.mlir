// The softmax contract of docs/loop-level.md (tests/lit/device/host_schedule.mlir)
// run at loop level on the interpreter target: on JAX's inputs against JAX's
// outputs, and on random inputs against the HLO interpreter's run of the
// corpus program it was lowered from.

// REQUIRES: shared
// RUN: xlir-run %S/../device/host_schedule.mlir --inputs %corpus/small/softmax_rows.npz --expected %corpus/small/softmax_rows.npz --rtol 1e-6 --atol 1e-7 | filecheck %s --check-prefix=JAX
// JAX: out0: tensor<64x128xf32> = [[
// JAX: out0: ok: within rtol=1e-06 atol=1e-07
// JAX: PASSED
// JAX: time per call: {{.*}} on interpreter

// RUN: xlir-run %corpus/small/softmax_rows.mlir --random --seed 5 --output %t.npz
// RUN: xlir-run %S/../device/host_schedule.mlir --random --seed 5 --expected %t.npz --rtol 1e-6 --atol 1e-7 | filecheck %s --check-prefix=HLO
// HLO: out0: ok
// HLO: PASSED
