// Malformed plan attributes are diagnosed where they stand.
// The attributes are #hlo.buffer (one per result, on each top-level op) and
// #hlo.plan (on each function), defined in dialects/hlo_buffers.py and
// registered in the hlo dialect.
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

func.func @bad_location() attributes {x = #hlo.buffer<heap>} {
  func.return
}
// CHECK: invalid.mlir:7:54: error: #hlo.buffer location must be temp, arg, out or const, but is 'heap'

// -----

func.func @negative_offset() attributes {x = #hlo.buffer<temp, offset = -64, size = 4>} {
  func.return
}
// CHECK: error: #hlo.buffer offset must be non-negative, but is -64

// -----

func.func @missing_size() attributes {x = #hlo.buffer<temp, offset = 0>} {
  func.return
}
// CHECK: error: Expected ',' in #hlo.buffer<temp, offset = N, size = N>

// -----

func.func @bad_alignment() attributes {hlo.plan = #hlo.plan<arena = 64, alignment = 48, arguments = 0, outputs = 0, alias = 0, constants = 0>} {
  func.return
}
// CHECK: error: #hlo.plan alignment must be a power of two, but is 48

// -----

func.func @alias_too_large() attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 4, outputs = 8, alias = 8, constants = 0>} {
  func.return
}
// CHECK: error: #hlo.plan alias bytes cannot exceed the argument or output bytes
