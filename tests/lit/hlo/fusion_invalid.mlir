// RUN: xlir-opt --allow-unregistered-dialect %s --split-input-file --verify-diagnostics | filecheck %s

func.func @arg_types(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = loop (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf16>):
    %c = stablehlo.convert %x : (tensor<4xf16>) -> tensor<4xf32>
    hlo.yield %c : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:4:3: error: 'hlo.fusion' op block argument types (tensor<4xf16>) must equal the operand types (tensor<4xf32>)

// -----

func.func @arg_count(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = loop (%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:16:3: error: 'hlo.fusion' op block argument types (tensor<4xf32>) must equal the operand types (tensor<4xf32>, tensor<4xf32>)

// -----

func.func @yield_types(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = loop (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %c = stablehlo.convert %x : (tensor<4xf32>) -> tensor<4xi32>
    hlo.yield %c : tensor<4xi32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:27:3: error: 'hlo.fusion' op yielded types (tensor<4xi32>) must equal the result types (tensor<4xf32>)

// -----

func.func @yield_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r:2 = hlo.fusion kind = loop (%a) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%x: tensor<4xf32>):
    hlo.yield %x : tensor<4xf32>
  }
  func.return %r#0 : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:39:3: error: 'hlo.fusion' op yielded types (tensor<4xf32>) must equal the result types (tensor<4xf32>, tensor<4xf32>)

// -----

func.func @terminator(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = loop (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    func.return %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:50:3: error: 'hlo.fusion' op region must end in 'hlo.yield', but ends in 'func.return'

// -----

func.func @empty(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "hlo.fusion"(%a) <{kind = #hlo<fusion_kind loop>}> ({
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:61:3: error: 'hlo.fusion' op region must have exactly one block, but has 0

// -----

func.func @two_blocks(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = "hlo.fusion"(%a) <{kind = #hlo<fusion_kind loop>}> ({
  ^bb0(%x: tensor<4xf32>):
    "hlo.yield"(%x) : (tensor<4xf32>) -> ()
  ^bb1(%y: tensor<4xf32>):
    "hlo.yield"(%y) : (tensor<4xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:70:3: error: 'hlo.fusion' op region must have exactly one block, but has 2

// -----

func.func @isolated(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = loop (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %s = stablehlo.add %x, %b : tensor<4xf32>
    hlo.yield %s : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:85:5: error: 'stablehlo.add' op operand #1 uses a value defined outside the region of 'hlo.fusion', which is isolated from above

// -----

func.func @input_needs_reduce(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = input (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %e = stablehlo.exponential %x : tensor<4xf32>
    hlo.yield %e : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:95:3: error: 'hlo.fusion' op of kind input must contain 'stablehlo.reduce' or 'stablehlo.reduce_window'

// -----

func.func @output_needs_dot(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = output (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    %e = stablehlo.exponential %x : tensor<4xf32>
    hlo.yield %e : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:107:3: error: 'hlo.fusion' op of kind output must contain 'stablehlo.dot_general' or 'stablehlo.convolution'

// -----

func.func @yield_parent(%a: tensor<4xf32>) -> tensor<4xf32> {
  hlo.yield %a : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:119:3: error: 'hlo.yield' expects parent op 'hlo.fusion'

// -----

func.func @bad_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = custom (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.yield %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:126:26: error: {{.*}}`loop`, `input`, or `output`

// -----

func.func @yield_type_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = hlo.fusion kind = loop (%a) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%x: tensor<4xf32>):
    hlo.yield %x, %x : tensor<4xf32>
  }
  func.return %r : tensor<4xf32>
}
// CHECK: fusion_invalid.mlir:139:15: error: expected 2 operand types but the type list has 1
