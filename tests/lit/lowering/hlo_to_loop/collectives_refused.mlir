// RUN: not xlir-run %s --target cpu --function main --random 2>&1 | filecheck %s --check-prefix=NEEDS-RANKS
// RUN: sed 's/num_partitions = 2/num_partitions = 1/' %s | not xlir-run - --target cpu --random 2>&1 | filecheck %s --check-prefix=MISFIT
// RUN: sed 's/ attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32}//' %s | not xlir-run - --target cpu --random 2>&1 | filecheck %s --check-prefix=MISFIT
// RUN: not xlir-compile %s -o %t.o 2>&1 | filecheck %s --check-prefix=AOT

// A program of two devices run as one process says how to start its ranks
// (and is no ahead-of-time object yet);
// one whose replica groups do not fit its grid (one device where the module
// states none) is refused before it runs.

module @two_devices attributes {mhlo.num_partitions = 2 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %s = "stablehlo.all_reduce"(%x) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids}> ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }) : (tensor<4xf32>) -> tensor<4xf32>
    func.return %s : tensor<4xf32>
  }
}

// NEEDS-RANKS: error: the program runs on 2 devices (1 replica(s) x 2 partition(s)): start one process per device, `mpiexec -n 2 xlir-run ...` or `xlir-run --processes 2 ...`
// NEEDS-RANKS-NOT: out0

// MISFIT: <stdin>:{{[0-9]+}}:5: error: 'stablehlo.all_reduce' does not fit the process grid: process id 1 is out of range: the grid of 1 replica(s) x 1 partition(s) has 1 process id(s)

// An ahead-of-time object cannot run collectives yet.
// AOT: error: the program has collectives (all_reduce, ...), which an ahead-of-time object cannot run yet; run it with the JIT under mpiexec (docs/collectives-runtime.md)
