// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @probe
func.func @probe(%x: tensor<3xi64>) {
  // CHECK: %{{.*}} = interpreter.probe %{{.*}}, probe_id = "probe/0" : tensor<3xi64>
  // GENERIC: "interpreter.probe"(%{{.*}}) <{probe_id = "probe/0"}> : (tensor<3xi64>) -> tensor<3xi64>
  %p = interpreter.probe %x, probe_id = "probe/0" : tensor<3xi64>
  // CHECK: check.expect_serialized_eq %{{.*}}, probe_id = "probe/0" : tensor<3xi64>
  check.expect_serialized_eq %p, probe_id = "probe/0" : tensor<3xi64>
  // CHECK: check.expect_serialized_eq %{{.*}}, probe_id = "probe/0", iter = 2 : tensor<3xi64>
  // GENERIC: "check.expect_serialized_eq"(%{{.*}}) <{probe_id = "probe/0", iter = 2 : ui64}> : (tensor<3xi64>) -> ()
  check.expect_serialized_eq %p, probe_id = "probe/0", iter = 2 : tensor<3xi64>
  func.return
}
