// RUN: xlir-run --list-targets | filecheck %s
// RUN: not xlir-run 2>&1 | filecheck %s --check-prefix=NO-FILE
// RUN: not xlir-run %s --target no-such-target 2>&1 | filecheck %s --check-prefix=UNKNOWN

// Every registered target (the `xlir.targets` entry points), one per line:
// its name, then its one-line description.
// CHECK:     {{^}}cpu {{ *}}native code for this machine (or a triple) through LLVM{{$}}
// CHECK:     {{^}}interpreter {{ *}}StableHLO's semantics on numpy arrays: the reference{{$}}

// NO-FILE: xlir-run: error: give the .mlir file to run ('-' for stdin)
// UNKNOWN: error: unknown target 'no-such-target' (known targets: {{.*}}cpu, interpreter{{.*}})

func.func @main() -> tensor<f32> {
  %c = stablehlo.constant dense<1.0> : tensor<f32>
  return %c : tensor<f32>
}
