// RUN: xlir-opt %s --print-debuginfo | filecheck %s
// RUN: xlir-opt %s --print-debuginfo | xlir-opt --print-debuginfo | filecheck %s --check-prefix=AGAIN

// JAX's export flavour: a `loc(...)` after each op, naming the traced
// primitive around the Python call stack, through `#locN` aliases defined
// after the module. Each op keeps it beside its place in this text.

#loc1 = loc("x")
module @jit_f {
  func.func public @main(%arg0: tensor<4xf32> loc("x")) -> tensor<4xf32> {
    %0 = stablehlo.exponential %arg0 : tensor<4xf32> loc(#loc3)
    %1 = stablehlo.add %0, %arg0 : tensor<4xf32> loc(#loc5)
    %2 = stablehlo.negate %1 : tensor<4xf32> loc(fused["model.py":15:2, "y"])
    %3 = stablehlo.abs %2 : tensor<4xf32>
    return %3 : tensor<4xf32> loc(#loc)
  } loc(#loc)
  func.func private @ext(%arg0: tensor<4xf32> loc("x")) -> tensor<4xf32>
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("model.py":12:8 to :20)
#loc3 = loc("jit(f)/exp"(#loc2))
#loc4 = loc("main"("run.py":3:0 to 4:2))
#loc5 = loc(callsite("jit(f)/add"("model.py":13:4) at #loc4))

// CHECK:      stablehlo.exponential {{.*}} loc(fused<"xlir.text_and_source">["{{.*}}locations.mlir":11:5, "jit(f)/exp"("model.py":12:8)])
// CHECK-NEXT: stablehlo.add {{.*}} loc(fused<"xlir.text_and_source">["{{.*}}locations.mlir":12:5, callsite("jit(f)/add"("model.py":13:4) at "main"("run.py":3:0))])
// CHECK-NEXT: stablehlo.negate {{.*}} loc(fused<"xlir.text_and_source">["{{.*}}locations.mlir":13:5, fused["model.py":15:2, "y"]])
// An op without `loc(...)`, or with `loc(unknown)`, has its place in the text.
// CHECK-NEXT: stablehlo.abs {{.*}} loc("{{.*}}locations.mlir":14:5)
// CHECK-NEXT: func.return {{.*}} loc("{{.*}}locations.mlir":15:5)
// An argument's `loc(...)` is not its function's.
// CHECK:      func.func private @ext(tensor<4xf32>) -> tensor<4xf32> loc("{{.*}}locations.mlir":17:3)

// Read again, an op is where it stands in the new text and keeps its source.
// AGAIN:      stablehlo.exponential {{.*}} loc(fused<"xlir.text_and_source">["<stdin>":3:5, "jit(f)/exp"("model.py":12:8)])
