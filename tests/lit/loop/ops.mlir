// RUN: xlir-opt %s | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | xlir-opt | filecheck %s
// RUN: xlir-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// Every op of the loop dialect, in its custom syntax: printed as written, and
// the same after a trip through the generic form.

// CHECK:      loop.global @table : memref<2x2xi32> = dense<{{\[\[}}1, 2], [3, 4]]>
// CHECK-NEXT: loop.global @neg_inf : memref<f32> = dense<0xff800000>
// GENERIC:    "loop.global"() <{sym_name = "table", value = dense<{{\[\[}}1, 2], [3, 4]]> : tensor<2x2xi32>}> : () -> ()
loop.global @table : memref<2x2xi32> = dense<[[1, 2], [3, 4]]>
loop.global @neg_inf : memref<f32> = dense<0xFF800000>

// CHECK-LABEL: loop.kernel @parallel(%in: memref<64x128xf32>, %out: memref<64x128xf32>) {
// CHECK-NEXT:    loop.parallel (%i, %j) = (0, 0) to (64, 128) step (1, 1) {
// CHECK-NEXT:      %x = loop.load %in[%i, %j] : memref<64x128xf32>
// CHECK-NEXT:      %y = math.exp %x : f32
// CHECK-NEXT:      loop.store %y, %out[%i, %j] : memref<64x128xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.return
// CHECK-NEXT:  }
// GENERIC:     "loop.kernel"() <{sym_name = "parallel", function_type = (memref<64x128xf32>, memref<64x128xf32>) -> ()}> ({
// GENERIC:       "loop.parallel"() <{static_lower = array<i64: 0, 0>, static_upper = array<i64: 64, 128>, static_step = array<i64: 1, 1>, operandSegmentSizes = array<i32: 0, 0, 0>}> ({
// GENERIC-NEXT:  ^bb0(%i: index, %j: index):
// GENERIC-NEXT:    %x = "loop.load"(%in, %i, %j) : (memref<64x128xf32>, index, index) -> f32
// GENERIC:         "loop.store"(%y, %out, %i, %j) : (f32, memref<64x128xf32>, index, index) -> ()
// GENERIC-NEXT:    "loop.yield"() : () -> ()
// GENERIC-NEXT:  }) : () -> ()
// GENERIC-NEXT:  "loop.return"() : () -> ()
loop.kernel @parallel(%in: memref<64x128xf32>, %out: memref<64x128xf32>) {
  loop.parallel (%i, %j) = (0, 0) to (64, 128) step (1, 1) {
    %x = loop.load %in[%i, %j] : memref<64x128xf32>
    %y = math.exp %x : f32
    loop.store %y, %out[%i, %j] : memref<64x128xf32>
  }
  loop.return
}

// A load or store of a vector moves consecutive elements along the last
// dimension.
// CHECK-LABEL: loop.kernel @vector_access(%in: memref<4x32xf32>, %out: memref<4x32xf32>, %i: index, %j: index) {
// CHECK-NEXT:    %v = loop.load %in[%i, %j] : memref<4x32xf32>, vector<16xf32>
// CHECK-NEXT:    loop.store %v, %out[%i, %j] : memref<4x32xf32>, vector<16xf32>
// GENERIC:       %v = "loop.load"(%in, %i, %j) : (memref<4x32xf32>, index, index) -> vector<16xf32>
// GENERIC-NEXT:  "loop.store"(%v, %out, %i, %j) : (vector<16xf32>, memref<4x32xf32>, index, index) -> ()
loop.kernel @vector_access(%in: memref<4x32xf32>, %out: memref<4x32xf32>, %i: index, %j: index) {
  %v = loop.load %in[%i, %j] : memref<4x32xf32>, vector<16xf32>
  loop.store %v, %out[%i, %j] : memref<4x32xf32>, vector<16xf32>
  loop.return
}

// Bounds and steps mix static integers and index values; the yield of a body
// with nothing to yield may be written or left implicit.
// CHECK-LABEL: loop.kernel @mixed_bounds(%buf: memref<?xf32>, %n: index, %s: index) {
// CHECK-NEXT:    loop.parallel (%i) = (%s) to (%n) step (%s) {
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.parallel (%i_1, %j) = (0, %s) to (%n, 16) step (2, 1) {
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.for %k = %s to 10 step %s {
// CHECK-NEXT:    }
// CHECK-NEXT:    loop.parallel () = () to () step () {
// CHECK-NEXT:    }
// GENERIC:       "loop.parallel"(%s, %n, %s) <{static_lower = array<i64: -9223372036854775808>, static_upper = array<i64: -9223372036854775808>, static_step = array<i64: -9223372036854775808>, operandSegmentSizes = array<i32: 1, 1, 1>}>
// GENERIC:       "loop.parallel"(%s, %n) <{static_lower = array<i64: 0, -9223372036854775808>, static_upper = array<i64: -9223372036854775808, 16>, static_step = array<i64: 2, 1>, operandSegmentSizes = array<i32: 1, 1, 0>}>
// GENERIC:       "loop.for"(%s, %s) <{static_lower = array<i64: -9223372036854775808>, static_upper = array<i64: 10>, static_step = array<i64: -9223372036854775808>, operandSegmentSizes = array<i32: 1, 0, 1, 0>}>
loop.kernel @mixed_bounds(%buf: memref<?xf32>, %n: index, %s: index) {
  loop.parallel (%i) = (%s) to (%n) step (%s) {
    loop.yield
  }
  loop.parallel (%i, %j) = (0, %s) to (%n, 16) step (2, 1) {
  }
  loop.for %k = %s to 10 step %s {
  }
  loop.parallel () = () to () step () {
  }
  loop.return
}

// A row reduction: a sequential loop with two carried values inside a
// parallel loop over rows.
// CHECK-LABEL: loop.kernel @row_max_and_sum
// CHECK:         %init = arith.constant 0xff800000 : f32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    loop.parallel (%i) = (0) to (64) step (1) {
// CHECK-NEXT:      %max, %sum = loop.for %k = 0 to 128 step 1 iter_args(%m = %init, %s = %zero) -> (f32, f32) {
// CHECK-NEXT:        %x = loop.load %in[%i, %k] : memref<64x128xf32>
// CHECK-NEXT:        %m_next = arith.maximumf %m, %x : f32
// CHECK-NEXT:        %s_next = arith.addf %s, %x : f32
// CHECK-NEXT:        loop.yield %m_next, %s_next : f32, f32
// CHECK-NEXT:      }
// CHECK-NEXT:      loop.store %max, %out_max[%i] : memref<64xf32>
// CHECK-NEXT:      loop.store %sum, %out_sum[%i] : memref<64xf32>
// CHECK-NEXT:    }
// GENERIC:         %max, %sum = "loop.for"(%init, %zero) <{static_lower = array<i64: 0>, static_upper = array<i64: 128>, static_step = array<i64: 1>, operandSegmentSizes = array<i32: 0, 0, 0, 2>}> ({
// GENERIC-NEXT:    ^bb0(%k: index, %m: f32, %s: f32):
// GENERIC:           "loop.yield"(%m_next, %s_next) : (f32, f32) -> ()
// GENERIC-NEXT:    }) : (f32, f32) -> (f32, f32)
loop.kernel @row_max_and_sum(%in: memref<64x128xf32>, %out_max: memref<64xf32>, %out_sum: memref<64xf32>) {
  %init = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  loop.parallel (%i) = (0) to (64) step (1) {
    %max, %sum = loop.for %k = 0 to 128 step 1 iter_args(%m = %init, %s = %zero) -> (f32, f32) {
      %x = loop.load %in[%i, %k] : memref<64x128xf32>
      %m_next = arith.maximumf %m, %x : f32
      %s_next = arith.addf %s, %x : f32
      loop.yield %m_next, %s_next : f32, f32
    }
    loop.store %max, %out_max[%i] : memref<64xf32>
    loop.store %sum, %out_sum[%i] : memref<64xf32>
  }
  loop.return
}

// Rank-0 buffers take `[]`; globals are read by symbol; scalars come in by
// value; argument attributes stay.
// CHECK-LABEL: loop.kernel @scalars_and_globals(%out: memref<f32> {llvm.noalias}, %scale: f32, %count: i32) attributes {grid = "auto"} {
// CHECK-NEXT:    %t = loop.get_global @table : memref<2x2xi32>
// CHECK-NEXT:    %m = loop.get_global @neg_inf : memref<f32>
// CHECK-NEXT:    %x = loop.load %m[] : memref<f32>
// CHECK-NEXT:    %y = arith.mulf %x, %scale : f32
// CHECK-NEXT:    loop.store %y, %out[] {nontemporal} : memref<f32>
// GENERIC:       "loop.get_global"() <{name = @table}> : () -> memref<2x2xi32>
// GENERIC:       "loop.store"(%y, %out) {nontemporal} : (f32, memref<f32>) -> ()
loop.kernel @scalars_and_globals(%out: memref<f32> {llvm.noalias}, %scale: f32, %count: i32) attributes {grid = "auto"} {
  %t = loop.get_global @table : memref<2x2xi32>
  %m = loop.get_global @neg_inf : memref<f32>
  %x = loop.load %m[] : memref<f32>
  %y = arith.mulf %x, %scale : f32
  loop.store %y, %out[] {nontemporal} : memref<f32>
  loop.return
}

// A call of a runtime routine: buffers and scalars in, nothing out.
// CHECK-LABEL: loop.kernel @routine_call(%keys: memref<4x8xi32>, %order: memref<4x8xi32>, %n: index) {
// CHECK-NEXT:    loop.call @xlir.sort_keys32(%n, %n, %keys, %order) {note = "a row"} : (index, index, memref<4x8xi32>, memref<4x8xi32>)
// GENERIC:       "loop.call"(%n, %n, %keys, %order) <{callee = @xlir.sort_keys32}> {note = "a row"} : (index, index, memref<4x8xi32>, memref<4x8xi32>) -> ()
loop.kernel @routine_call(%keys: memref<4x8xi32>, %order: memref<4x8xi32>, %n: index) {
  loop.call @xlir.sort_keys32(%n, %n, %keys, %order) {note = "a row"} : (index, index, memref<4x8xi32>, memref<4x8xi32>)
  loop.return
}

// Views of the temp arena and reshapes of buffers: no copies; a reshape may
// read the same bytes as another element type (an int8 dot's quads as i32).
// CHECK-LABEL: func.func @views(%arena: memref<8192xi8>) -> memref<256xf32> {
// CHECK-NEXT:    %a = loop.view %arena[0] : memref<8192xi8> -> memref<64x4xf32>
// CHECK-NEXT:    %b = loop.view %arena[4096] : memref<8192xi8> -> memref<2048xi16>
// CHECK-NEXT:    %c = loop.view %arena[8191] {note = "last byte"} : memref<8192xi8> -> memref<i1>
// CHECK-NEXT:    %i = loop.view %arena[8128] : memref<8192xi8> -> memref<8xindex>
// CHECK-NEXT:    %r = loop.reshape %a : memref<64x4xf32> -> memref<256xf32>
// CHECK-NEXT:    %s = loop.reshape %c : memref<i1> -> memref<1x1xi1>
// CHECK-NEXT:    %w = loop.reshape %b : memref<2048xi16> -> memref<256x4xi32>
// GENERIC:       %a = "loop.view"(%arena) <{offset = 0 : i64}> : (memref<8192xi8>) -> memref<64x4xf32>
// GENERIC:       %r = "loop.reshape"(%a) : (memref<64x4xf32>) -> memref<256xf32>
func.func @views(%arena: memref<8192xi8>) -> memref<256xf32> {
  %a = loop.view %arena[0] : memref<8192xi8> -> memref<64x4xf32>
  %b = loop.view %arena[4096] : memref<8192xi8> -> memref<2048xi16>
  %c = loop.view %arena[8191] {note = "last byte"} : memref<8192xi8> -> memref<i1>
  %i = loop.view %arena[8128] : memref<8192xi8> -> memref<8xindex>
  %r = loop.reshape %a : memref<64x4xf32> -> memref<256xf32>
  %s = loop.reshape %c : memref<i1> -> memref<1x1xi1>
  %w = loop.reshape %b : memref<2048xi16> -> memref<256x4xi32>
  func.return %r : memref<256xf32>
}

// Discardable attributes (hints for later passes) follow `attributes`.
// CHECK-LABEL: loop.kernel @loop_attributes(%x: f32) {
// CHECK-NEXT:    loop.parallel (%i) = (0) to (4) step (1) attributes {unroll = 2 : i64} {
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = loop.for %k = 0 to 4 step 1 iter_args(%a = %x) -> (f32) attributes {vectorize} {
// CHECK-NEXT:      loop.yield %a : f32
// CHECK-NEXT:    }
// GENERIC:       }) {unroll = 2 : i64} : () -> ()
// GENERIC:       }) {vectorize} : (f32) -> f32
loop.kernel @loop_attributes(%x: f32) {
  loop.parallel (%i) = (0) to (4) step (1) attributes {unroll = 2 : i64} {
  }
  %r = loop.for %k = 0 to 4 step 1 iter_args(%a = %x) -> (f32) attributes {vectorize} {
    loop.yield %a : f32
  }
  loop.return
}
