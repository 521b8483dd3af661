// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop | filecheck %s
// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop,loop-to-llvm | filecheck %s --check-prefix=LLVM
// RUN: xlir-opt %s -p hlo-opt,hlo-to-loop,loop-to-llvm,device-to-llvm | xlir-translate - -O2 | filecheck %s --check-prefix=O2

// A NaN test (x une x, x oeq x, ord, uno) lowers to a test of the bits:
// magnitude above infinity's. From an `fcmp uno` of sqrt(x) LLVM derives
// `x < 0`, and then takes JAX's canonicalization `select(that, NaN bits,
// bits(sqrt(x)))` for sqrt(x) alone, whose NaN on x86 has the sign bit
// set (fuzzer seed 7000591). LLVM's -O2 keeps the integer test.

// CHECK:         %[[V:.*]] = math.sqrt %{{.*}} : f64
// CHECK:         arith.cmpf une, %[[V]], %[[V]] : f64

// LLVM-DAG:      %[[INF:.*]] = llvm.mlir.constant(9218868437227405312) : i64
// LLVM-DAG:      %[[MAG:.*]] = llvm.mlir.constant(9223372036854775807) : i64
// LLVM:          %[[V:.*]] = llvm.intr.sqrt(%{{.*}}) : (f64) -> f64
// LLVM:          %[[B:.*]] = llvm.bitcast %[[V]] : f64 to i64
// LLVM-NEXT:     %[[M:.*]] = llvm.and %[[B]], %[[MAG]] : i64
// LLVM-NEXT:     %[[N:.*]] = llvm.icmp "sgt" %[[M]], %[[INF]] : i64
// LLVM-NOT:      llvm.fcmp
// LLVM:          llvm.select %[[N]], %{{.*}}, %{{.*}} : i1, i64

// O2-LABEL:      define internal {{.*}} @fusion
// O2-NOT:        fcmp
// O2:            icmp {{.*}} 9218868437227405312
// O2:            select {{.*}} 0x7FF8000000000000
func.func @main(%x: tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
  %v = stablehlo.sqrt %x : tensor<4x4xf64>
  %nan = stablehlo.compare NE, %v, %v, FLOAT : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xi1>
  %b = stablehlo.bitcast_convert %v : (tensor<4x4xf64>) -> tensor<4x4xi64>
  %q = stablehlo.constant dense<9221120237041090560> : tensor<4x4xi64>
  %s = stablehlo.select %nan, %q, %b : tensor<4x4xi1>, tensor<4x4xi64>
  %c = stablehlo.bitcast_convert %s : (tensor<4x4xi64>) -> tensor<4x4xf64>
  return %v, %c : tensor<4x4xf64>, tensor<4x4xf64>
}
