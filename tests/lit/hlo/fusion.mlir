// RUN: xlir-opt --allow-unregistered-dialect %s | xlir-opt --allow-unregistered-dialect | filecheck %s
// RUN: xlir-opt --allow-unregistered-dialect %s --print-op-generic | xlir-opt --allow-unregistered-dialect | filecheck %s
// RUN: xlir-opt --allow-unregistered-dialect %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// `stablehlo.reduce` is written in generic form (and unregistered ops are
// allowed) so that this file does not depend on the reduction ops.

// CHECK-LABEL: func.func @loop
func.func @loop(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK:      %{{.*}}, %{{.*}} = hlo.fusion kind = loop (%{{.*}}, %{{.*}}) {name = "fusion.1"} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // CHECK-NEXT: ^bb0(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32>):
  // CHECK-NEXT:   %{{.*}} = stablehlo.add %{{.*}}, %{{.*}} : tensor<4xf32>
  // CHECK-NEXT:   %{{.*}} = stablehlo.multiply %{{.*}}, %{{.*}} : tensor<4xf32>
  // CHECK-NEXT:   hlo.yield %{{.*}}, %{{.*}} : tensor<4xf32>, tensor<4xf32>
  // CHECK-NEXT: }
  // GENERIC: "hlo.fusion"(%{{.*}}, %{{.*}}) <{kind = #hlo<fusion_kind loop>}> ({
  // GENERIC: "hlo.yield"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> ()
  // GENERIC: }) {name = "fusion.1"} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %r:2 = hlo.fusion kind = loop (%a, %b) {name = "fusion.1"} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %p = stablehlo.add %x, %y : tensor<4xf32>
    %q = stablehlo.multiply %x, %y : tensor<4xf32>
    hlo.yield %p, %q : tensor<4xf32>, tensor<4xf32>
  }
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @no_operands
func.func @no_operands() -> tensor<8xi32> {
  // CHECK:      hlo.fusion kind = loop () : () -> tensor<8xi32> {
  // CHECK-NEXT:   stablehlo.iota
  // CHECK-NEXT:   hlo.yield %{{.*}} : tensor<8xi32>
  %r = hlo.fusion kind = loop () : () -> tensor<8xi32> {
    %i = stablehlo.iota dim = 0 : tensor<8xi32>
    hlo.yield %i : tensor<8xi32>
  }
  func.return %r : tensor<8xi32>
}

// CHECK-LABEL: func.func @output
func.func @output(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>) -> tensor<4x2xf32> {
  // CHECK: hlo.fusion kind = output (%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32> {
  // CHECK: stablehlo.dot_general
  // GENERIC: <{kind = #hlo<fusion_kind output>}>
  %r = hlo.fusion kind = output (%a, %b) : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32> {
  ^bb0(%x: tensor<4x8xf32>, %y: tensor<8x2xf32>):
    %0 = stablehlo.dot_general %x, %y, contracting_dims = [1] x [0] : (tensor<4x8xf32>, tensor<8x2xf32>) -> tensor<4x2xf32>
    %1 = stablehlo.exponential %0 : tensor<4x2xf32>
    hlo.yield %1 : tensor<4x2xf32>
  }
  func.return %r : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @input
func.func @input(%a: tensor<4x8xf32>, %init: tensor<f32>) -> tensor<4xf32> {
  // CHECK: hlo.fusion kind = input (%{{.*}}, %{{.*}}) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  // CHECK: stablehlo.reduce
  // GENERIC: <{kind = #hlo<fusion_kind input>}>
  %r = hlo.fusion kind = input (%a, %init) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4x8xf32>, %z: tensor<f32>):
    %e = stablehlo.exponential %x : tensor<4x8xf32>
    %0 = "stablehlo.reduce"(%e, %z) <{dimensions = array<i64: 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %t = stablehlo.add %p, %q : tensor<f32>
      "stablehlo.return"(%t) : (tensor<f32>) -> ()
    }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    hlo.yield %0 : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
