// RUN: xlir-opt %s --split-input-file -p hlo-to-loop | filecheck %s

// The host function: default stream, arena and output allocations, arena
// views at the plan's offsets, launches in program order, synchronize, free.
// Kernel arguments are the op's operands, then its results' buffers, each
// buffer once: an in-place result (fusion.3 writes the exponentials it
// divides) is its operand's argument, which the kernel loads and stores.

// CHECK-LABEL: loop.kernel @fusion_3
// CHECK-SAME:    (%[[SUM_ARG:.*]]: memref<64xf32>, %[[EXP_ARG:.*]]: memref<64x128xf32>) {
// CHECK:           %[[E:.*]] = loop.load %[[EXP_ARG]][%{{.*}}, %{{.*}}] : memref<64x128xf32>
// CHECK:           %[[Q:.*]] = arith.divf %[[E]], %{{.*}} : f32
// CHECK-NEXT:      loop.store %[[Q]], %[[EXP_ARG]][%{{.*}}, %{{.*}}] : memref<64x128xf32>
// CHECK-LABEL: func.func public @main
// CHECK-SAME:    (%[[X:.*]]: memref<64x128xf32>) -> (memref<64x128xf32> {jax.result_info = "result"}) {
// CHECK-NEXT:    %[[S:.*]] = device.default_stream
// CHECK-NEXT:    %[[ARENA:.*]] = device.alloc : memref<512xi8>
// CHECK-NEXT:    %[[OUT:.*]] = device.alloc : memref<64x128xf32>
// CHECK-NEXT:    %[[MAX:.*]] = loop.view %[[ARENA]][0] : memref<512xi8> -> memref<64xf32>
// CHECK-NEXT:    %[[SUM:.*]] = loop.view %[[ARENA]][256] : memref<512xi8> -> memref<64xf32>
// CHECK-NEXT:    device.launch @fusion_1(%[[X]], %[[MAX]]) on %[[S]]
// CHECK-NEXT:    device.launch @fusion_2(%[[MAX]], %[[X]], %[[OUT]], %[[SUM]]) on %[[S]]
// CHECK-NEXT:    device.launch @fusion_3(%[[SUM]], %[[OUT]]) on %[[S]] : memref<64xf32>, memref<64x128xf32>
// CHECK-NEXT:    device.synchronize %[[S]]
// CHECK-NEXT:    device.free %[[ARENA]] : memref<512xi8>
// CHECK-NEXT:    func.return %[[OUT]] : memref<64x128xf32>
func.func public @main(%arg0: tensor<64x128xf32>) -> (tensor<64x128xf32> {jax.result_info = "result"}) attributes {hlo.plan = #hlo.plan<arena = 512, alignment = 64, arguments = 32768, outputs = 32768, alias = 0, constants = 0>} {
  %0 = hlo.fusion kind = input (%arg0) {name = "fusion.1", hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 256>]} : (tensor<64x128xf32>) -> tensor<64xf32> {
  ^bb0(%1: tensor<64x128xf32>):
    %cst = stablehlo.constant dense<0xff800000> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
    hlo.yield %2 : tensor<64xf32>
  }
  %1, %2 = hlo.fusion kind = input (%0, %arg0) {name = "fusion.2", hlo.buffers = [#hlo.buffer<out 0>, #hlo.buffer<temp, offset = 256, size = 256>]} : (tensor<64xf32>, tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<64xf32>) {
  ^bb0(%3: tensor<64xf32>, %4: tensor<64x128xf32>):
    %cst = stablehlo.constant dense<0xff800000> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %6 = stablehlo.maximum %5, %3 : tensor<64xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
    %8 = stablehlo.subtract %4, %7 : tensor<64x128xf32>
    %9 = stablehlo.exponential %8 : tensor<64x128xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
    hlo.yield %9, %10 : tensor<64x128xf32>, tensor<64xf32>
  }
  %3 = hlo.fusion kind = loop (%2, %1) {name = "fusion.3", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<64xf32>, tensor<64x128xf32>) -> tensor<64x128xf32> {
  ^bb0(%4: tensor<64xf32>, %5: tensor<64x128xf32>):
    %6 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<64xf32>) -> tensor<64x128xf32>
    %7 = stablehlo.divide %5, %6 : tensor<64x128xf32>
    hlo.yield %7 : tensor<64x128xf32>
  }
  func.return %3 : tensor<64x128xf32>
}

// -----

// case: scf.index_switch on the index read back with device.read_scalar
// (out of range takes the last branch, the default); a branch's result is
// copied into the case's buffer where the plan put it elsewhere (here a
// constant, a loop.global). A donated parameter is its output's buffer.

// CHECK:       loop.global @constant_1 : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[I:.*]]: memref<i32>, %[[X:.*]]: memref<4xf32> {tf.aliasing_output = 1 : i32}) -> (memref<4xf32>, memref<4xf32>) {
// CHECK-NEXT:    %[[S:.*]] = device.default_stream
// CHECK-NEXT:    %[[OUT:.*]] = device.alloc : memref<4xf32>
// CHECK-NEXT:    %[[R:.*]] = device.read_scalar %[[I]][] on %[[S]] : memref<i32>
// CHECK-NEXT:    %[[K:.*]] = arith.index_cast %[[R]] : i32 to index
// CHECK-NEXT:    scf.index_switch %[[K]]
// CHECK-NEXT:    case 0 {
// CHECK-NEXT:      device.launch @fusion_2(%[[X]], %[[OUT]]) on %[[S]]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    default {
// CHECK-NEXT:      %[[G:.*]] = loop.get_global @constant_1 : memref<4xf32>
// CHECK-NEXT:      device.copy device_to_device %[[G]], %[[OUT]] on %[[S]]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    device.launch @fusion_1(%[[X]]) on %[[S]] : memref<4xf32>
// CHECK-NEXT:    device.synchronize %[[S]]
// CHECK-NEXT:    func.return %[[OUT]], %[[X]] : memref<4xf32>, memref<4xf32>
func.func @main(%i: tensor<i32>, %x: tensor<4xf32> {tf.aliasing_output = 1 : i32}) -> (tensor<4xf32>, tensor<4xf32>) attributes {hlo.plan = #hlo.plan<arena = 0, alignment = 64, arguments = 20, outputs = 32, alias = 16, constants = 16>} {
  %0 = "stablehlo.case"(%i) ({
    %1 = hlo.fusion kind = loop (%x) {name = "fusion.2", hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%2: tensor<4xf32>):
      %a = stablehlo.negate %2 : tensor<4xf32>
      hlo.yield %a : tensor<4xf32>
    }
    stablehlo.return %1 : tensor<4xf32>
  }, {
    %c = stablehlo.constant {hlo.buffers = [#hlo.buffer<const>]} dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
    stablehlo.return %c : tensor<4xf32>
  }) {hlo.buffers = [#hlo.buffer<out 0>]} : (tensor<i32>) -> tensor<4xf32>
  %2 = hlo.fusion kind = loop (%x) {name = "fusion.1", hlo.buffers = [#hlo.buffer<out 1, arg 1>]} : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%3: tensor<4xf32>):
    %4 = stablehlo.add %3, %3 : tensor<4xf32>
    hlo.yield %4 : tensor<4xf32>
  }
  func.return %0, %2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// while: scf.while over the carried buffers (the while's result buffers);
// the init is copied in, the condition's kernels run in the before region
// and the predicate is read back; body results planned elsewhere are copied
// into the carried buffers.

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[N:.*]]: memref<i32>) -> memref<i32> {
// CHECK:         %[[OUT:.*]] = device.alloc : memref<i32>
// CHECK:         %[[P:.*]] = loop.view %{{.*}}[0] : memref<128xi8> -> memref<i1>
// CHECK-NEXT:    %[[T:.*]] = loop.view %{{.*}}[64] : memref<128xi8> -> memref<i32>
// CHECK-NEXT:    %[[C:.*]] = loop.get_global @constant_1 : memref<i32>
// CHECK-NEXT:    device.copy device_to_device %[[C]], %[[OUT]] on %{{.*}}
// CHECK-NEXT:    scf.while () : () -> () {
// CHECK-NEXT:      device.launch @fusion_1(%[[OUT]], %[[N]], %[[P]])
// CHECK-NEXT:      %[[F:.*]] = device.read_scalar %[[P]][] on %{{.*}} : memref<i1>
// CHECK-NEXT:      scf.condition(%[[F]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:      device.launch @fusion_2(%[[OUT]], %[[T]])
// CHECK-NEXT:      device.copy device_to_device %[[T]], %[[OUT]]
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
func.func @main(%n: tensor<i32>) -> tensor<i32> attributes {hlo.plan = #hlo.plan<arena = 128, alignment = 64, arguments = 4, outputs = 4, alias = 0, constants = 4>} {
  %c = stablehlo.constant {hlo.buffers = [#hlo.buffer<const>]} dense<0> : tensor<i32>
  %0 = stablehlo.while(%it = %c) : tensor<i32> attributes {hlo.buffers = [#hlo.buffer<out 0>]}
  cond {
    %1 = hlo.fusion kind = loop (%it, %n) {name = "fusion.1", hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 1>]} : (tensor<i32>, tensor<i32>) -> tensor<i1> {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %p = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      hlo.yield %p : tensor<i1>
    }
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = hlo.fusion kind = loop (%it) {name = "fusion.2", hlo.buffers = [#hlo.buffer<temp, offset = 64, size = 4>]} : (tensor<i32>) -> tensor<i32> {
    ^bb0(%a: tensor<i32>):
      %one = stablehlo.constant dense<1> : tensor<i32>
      %s = stablehlo.add %a, %one : tensor<i32>
      hlo.yield %s : tensor<i32>
    }
    stablehlo.return %1 : tensor<i32>
  }
  func.return %0 : tensor<i32>
}

// -----

// A while body's result planned in its carried buffer, a temp at the same
// offset and of the same type, is the same view: no copy, and the kernel
// that increments the counter in place takes it once.

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[N:.*]]: memref<i32>) -> memref<i32> {
// CHECK:         %[[IT:.*]] = loop.view %{{.*}}[0] : memref<64xi8> -> memref<i32>
// CHECK-NEXT:    %[[P:.*]] = loop.view %{{.*}}[32] : memref<64xi8> -> memref<i1>
// CHECK-NOT:     loop.view
// CHECK:         device.copy device_to_device %[[N]], %[[IT]]
// CHECK-NEXT:    scf.while () : () -> () {
// CHECK-NEXT:      device.launch @fusion_1(%[[IT]], %[[P]])
// CHECK:         } do {
// CHECK-NEXT:      device.launch @fusion_2(%[[IT]]) on %{{.*}} : memref<i32>
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    }
// CHECK:         device.copy device_to_device %[[IT]], %{{.*}}
func.func @main(%n: tensor<i32>) -> tensor<i32> attributes {hlo.plan = #hlo.plan<arena = 64, alignment = 64, arguments = 4, outputs = 4, alias = 0, constants = 0>} {
  %0 = stablehlo.while(%it = %n) : tensor<i32> attributes {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 4>]}
  cond {
    %1 = hlo.fusion kind = loop (%it) {name = "fusion.1", hlo.buffers = [#hlo.buffer<temp, offset = 32, size = 1>]} : (tensor<i32>) -> tensor<i1> {
    ^bb0(%a: tensor<i32>):
      %ten = stablehlo.constant dense<10> : tensor<i32>
      %p = stablehlo.compare LT, %a, %ten, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      hlo.yield %p : tensor<i1>
    }
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = hlo.fusion kind = loop (%it) {name = "fusion.2", hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 4>]} : (tensor<i32>) -> tensor<i32> {
    ^bb0(%a: tensor<i32>):
      %one = stablehlo.constant dense<1> : tensor<i32>
      %s = stablehlo.add %a, %one : tensor<i32>
      hlo.yield %s : tensor<i32>
    }
    stablehlo.return %1 : tensor<i32>
  }
  func.return %0 : tensor<i32>
}

// -----

// The yields of a loop body are parallel copies: a body that swaps its two
// states saves one of them to scratch first, then copies each into place.

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[N:.*]]: memref<i32>)
// CHECK:         %[[X:.*]] = device.alloc : memref<4xf32>
// CHECK-NEXT:    %[[Y:.*]] = device.alloc : memref<4xf32>
// CHECK:         } do {
// CHECK-NEXT:      device.launch @fusion_2
// CHECK-NEXT:      %[[SAVED:.*]] = device.alloc : memref<4xf32>
// CHECK-NEXT:      device.copy device_to_device %[[X]], %[[SAVED]]
// CHECK-NEXT:      device.copy device_to_device %[[Y]], %[[X]]
// CHECK-NEXT:      device.copy device_to_device %[[SAVED]], %[[Y]]
// CHECK-NEXT:      device.free %[[SAVED]] : memref<4xf32>
// CHECK-NEXT:      scf.yield
func.func @main(%a: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {hlo.plan = #hlo.plan<arena = 65, alignment = 64, arguments = 20, outputs = 32, alias = 0, constants = 4>} {
  %c0 = stablehlo.constant {hlo.buffers = [#hlo.buffer<const>]} dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %x = %a, %y = %a) : tensor<i32>, tensor<4xf32>, tensor<4xf32> attributes {hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 4>, #hlo.buffer<out 0>, #hlo.buffer<out 1>]}
  cond {
    %1 = hlo.fusion kind = loop (%i, %n) {name = "fusion.1", hlo.buffers = [#hlo.buffer<temp, offset = 64, size = 1>]} : (tensor<i32>, tensor<i32>) -> tensor<i1> {
    ^bb0(%2: tensor<i32>, %3: tensor<i32>):
      %lt = stablehlo.compare LT, %2, %3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      hlo.yield %lt : tensor<i1>
    }
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = hlo.fusion kind = loop (%i) {name = "fusion.2", hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 4>]} : (tensor<i32>) -> tensor<i32> {
    ^bb0(%3: tensor<i32>):
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %3, %one : tensor<i32>
      hlo.yield %j : tensor<i32>
    }
    stablehlo.return %2, %y, %x : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %r#1, %r#2 : tensor<4xf32>, tensor<4xf32>
}

// -----

// The body computes its new %s over the state of %x, whose yield refills it
// with the parameter: %s is copied out of that memory before it is refilled.

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%[[A:.*]]: memref<4xf32>, %[[N:.*]]: memref<i32>)
// CHECK:         %[[V:.*]] = device.alloc : memref<4xf32>
// CHECK:         %[[X:.*]] = loop.view %{{.*}}[0] : memref<129xi8> -> memref<4xf32>
// CHECK:         } do {
// CHECK:           device.launch @fusion_3(%[[V]], %[[X]])
// CHECK-NEXT:      device.copy device_to_device %[[X]], %[[V]]
// CHECK-NEXT:      device.copy device_to_device %[[A]], %[[X]]
// CHECK-NEXT:      scf.yield
func.func @main(%a: tensor<4xf32>, %n: tensor<i32>) -> tensor<4xf32> attributes {hlo.plan = #hlo.plan<arena = 129, alignment = 64, arguments = 20, outputs = 16, alias = 0, constants = 4>} {
  %c0 = stablehlo.constant {hlo.buffers = [#hlo.buffer<const>]} dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %x = %a, %v = %a) : tensor<i32>, tensor<4xf32>, tensor<4xf32> attributes {hlo.buffers = [#hlo.buffer<temp, offset = 64, size = 4>, #hlo.buffer<temp, offset = 0, size = 16>, #hlo.buffer<out 0>]}
  cond {
    %1 = hlo.fusion kind = loop (%i, %n) {name = "fusion.1", hlo.buffers = [#hlo.buffer<temp, offset = 128, size = 1>]} : (tensor<i32>, tensor<i32>) -> tensor<i1> {
    ^bb0(%2: tensor<i32>, %3: tensor<i32>):
      %lt = stablehlo.compare LT, %2, %3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      hlo.yield %lt : tensor<i1>
    }
    stablehlo.return %1 : tensor<i1>
  } do {
    %2 = hlo.fusion kind = loop (%i) {name = "fusion.2", hlo.buffers = [#hlo.buffer<temp, offset = 64, size = 4>]} : (tensor<i32>) -> tensor<i32> {
    ^bb0(%3: tensor<i32>):
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %3, %one : tensor<i32>
      hlo.yield %j : tensor<i32>
    }
    %3 = hlo.fusion kind = loop (%v, %x) {name = "fusion.3", hlo.buffers = [#hlo.buffer<temp, offset = 0, size = 16>]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%4: tensor<4xf32>, %5: tensor<4xf32>):
      %s = stablehlo.add %4, %5 : tensor<4xf32>
      hlo.yield %s : tensor<4xf32>
    }
    stablehlo.return %2, %a, %3 : tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  func.return %r#2 : tensor<4xf32>
}
