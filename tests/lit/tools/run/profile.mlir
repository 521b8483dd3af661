// xlir-run --profile: a table of kernels with their time (not checked: no
// test asserts a timing), bytes, FLOPs and rates, and a Chrome trace.
// fusion.1 is the dot (2 * 16 * 8 * 32 FLOPs) with its tanh (128), moving
// x, w and the result once (2048 + 1024 + 512 bytes); fusion.2 the row sums
// (512 FLOPs, 2048 + 64 bytes); fusion.3 the exponentials (16 FLOPs).

// On cpu the timers are compiled into the native code, and `fuse-kernels`
// runs fusion.3 in fusion.2's kernel: one row, both HLO kernels named.
// RUN: rm -f %t.json && xlir-run %s --target cpu --random --profile=%t.json --repeat 2 | filecheck %s --check-prefix=CPU
// CPU:      profile of @main on cpu: the host's monotonic clock (timers around each launch in the native code); per call, mean of 2
// CPU-NEXT: kernel {{ +}}time us  share launches        bytes     GB/s        FLOPs  GFLOP/s  hlo
// CPU-DAG:  fusion_1 {{ +[0-9.]+ +[0-9.]+% +}}1 {{ +}}3584 {{ +[0-9.]+ +}}8320 {{ +[0-9.]+}}  fusion.1{{$}}
// CPU-DAG:  fusion_2 {{ +[0-9.]+ +[0-9.]+% +}}1 {{ +}}2112 {{ +[0-9.]+ +}}528 {{ +[0-9.]+}}  fusion.2 + fusion.3{{$}}
// CPU:      kernels {{[0-9.]+}} us of {{[0-9.]+}} us per call ({{[0-9.]+}}%; the rest is the host's: calls, copies, allocation)
// CPU-NEXT: trace: {{.*}}.json (trace-event JSON: chrome://tracing or https://ui.perfetto.dev)
// RUN: filecheck %s --check-prefix=TRACE < %t.json
// TRACE:     "traceEvents": [
// TRACE-DAG: "ph": "X"
// TRACE-DAG: "name": "fusion_1"
// TRACE-DAG: "name": "fusion_2"
// TRACE-DAG: "hlo": "fusion.2 + fusion.3"
// TRACE-DAG: "displayTimeUnit": "ns"
// TRACE-DAG: "time": "microseconds"

// On accel the kernels' time is the simulator's cycles, on XA-1's 1 GHz
// clock: the table shows the cycles and simulated microseconds, and the
// trace places the kernels on the simulated timeline (after each launch's
// overhead of 1,000 cycles).
// RUN: rm -f %t.accel.json && xlir-run %s --target accel --random --profile=%t.accel.json | filecheck %s --check-prefix=ACCEL
// ACCEL:      profile of @main on accel: XA-1's 1 GHz core clock, simulated (each launch's cycles from the simulator); per call, mean of 1
// ACCEL-NEXT: kernel {{ +}}cycles    sim. us  share launches        bytes     GB/s        FLOPs  GFLOP/s  hlo
// ACCEL-DAG:  fusion_1 {{ +[0-9]+ +[0-9.]+ +[0-9.]+% +}}1 {{ +}}3584 {{ +[0-9.]+ +}}8320 {{ +[0-9.]+}}  fusion.1{{$}}
// ACCEL-DAG:  fusion_2 {{ +[0-9]+ +[0-9.]+ +[0-9.]+% +}}1 {{ +}}2112 {{ +[0-9.]+ +}}512 {{ +[0-9.]+}}  fusion.2{{$}}
// ACCEL-DAG:  fusion_3 {{ +[0-9]+ +[0-9.]+ +[0-9.]+% +}}1 {{ +}}64 {{ +[0-9.]+ +}}16 {{ +[0-9.]+}}  fusion.3{{$}}
// ACCEL:      kernels {{[0-9.]+}} simulated us of {{[0-9.]+}} simulated us per call ({{[0-9.]+}}%; the rest is launch overhead, 1,000 cycles a launch (manual section 8.4))
// RUN: filecheck %s --check-prefix=ACCEL-TRACE < %t.accel.json
// ACCEL-TRACE:     "name": "xlir-run --profile (accel, simulated microseconds)"
// ACCEL-TRACE:     "name": "fusion_1",
// ACCEL-TRACE:     "ts": 1.0,
// ACCEL-TRACE:     "device_counts_per_call": {
// ACCEL-TRACE-NEXT: "instructions": {{[0-9.]+}},
// ACCEL-TRACE:     "time": "simulated microseconds",

// On the interpreter each kernel runs alone; no trace file without a name.
// RUN: xlir-run %s --random --profile | filecheck %s --check-prefix=INTERP
// INTERP:      profile of @main on interpreter: the host's monotonic clock, around each kernel (a top-level op of the fused program) run alone; per call, mean of 1
// INTERP-NEXT: kernel {{ +}}time us  share launches        bytes     GB/s        FLOPs  GFLOP/s  hlo
// INTERP-DAG:  fusion.1 {{ +[0-9.]+ +[0-9.]+% +}}1 {{ +}}3584 {{ +[0-9.]+ +}}8320 {{ +[0-9.]+}}  fusion.1{{$}}
// INTERP-DAG:  fusion.2 {{ +[0-9.]+ +[0-9.]+% +}}1 {{ +}}2112 {{ +[0-9.]+ +}}512 {{ +[0-9.]+}}  fusion.2{{$}}
// INTERP-DAG:  fusion.3 {{ +[0-9.]+ +[0-9.]+% +}}1 {{ +}}128 {{ +[0-9.]+ +}}16 {{ +[0-9.]+}}  fusion.3{{$}}
// INTERP-NOT:  trace:

// The outputs are the program's, as without --profile.
// RUN: xlir-run %s --target cpu --random --output %t.plain.npz > /dev/null
// RUN: xlir-run %s --target cpu --random --profile --expected %t.plain.npz | filecheck %s --check-prefix=SAME
// SAME: out0: ok
// SAME: out1: ok
// SAME: PASSED

// Errors: a trace that cannot be written, no inputs.
// RUN: not xlir-run %s --target cpu --random --profile=%t.missing/trace.json 2>&1 | filecheck %s --check-prefix=UNWRITABLE
// UNWRITABLE: xlir-run: error: cannot write the trace {{.*}}missing/trace.json: No such file or directory
// RUN: not xlir-run %s --target cpu --profile 2>&1 | filecheck %s --check-prefix=NO-INPUTS
// NO-INPUTS: xlir-run: error: @main takes 2 argument(s)

func.func @main(%x: tensor<16x32xf32>, %w: tensor<32x8xf32>) -> (tensor<16x8xf32>, tensor<16xf32>) {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<16x32xf32>, tensor<32x8xf32>) -> tensor<16x8xf32>
  %t = stablehlo.tanh %d : tensor<16x8xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<16x32xf32>, tensor<f32>) -> tensor<16xf32>
  %e = stablehlo.exponential %s : tensor<16xf32>
  func.return %t, %e : tensor<16x8xf32>, tensor<16xf32>
}
