// RUN: xlir-run --check --split-input-file %s | filecheck %s

// CHECK: PASS @while_loop
func.func @while_loop() {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %limit = stablehlo.constant dense<5> : tensor<i32>
  // the regions use %limit from the enclosing function
  %0:2 = stablehlo.while(%i = %c0, %acc = %one) : tensor<i32>, tensor<f32>
  cond {
    %lt = stablehlo.compare LT, %i, %limit, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %next = stablehlo.add %i, %c1 : tensor<i32>
    %twice = stablehlo.add %acc, %acc : tensor<f32>
    stablehlo.return %next, %twice : tensor<i32>, tensor<f32>
  }
  check.expect_eq_const %0#0, dense<5> : tensor<i32>
  check.expect_eq_const %0#1, dense<32.0> : tensor<f32>
  func.return
}

// -----

// CHECK: PASS @while_zero_trips
func.func @while_zero_trips() {
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %0 = stablehlo.while(%x = %c) : tensor<2xi32>
  cond {
    %f = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %f : tensor<i1>
  } do {
    stablehlo.return %x : tensor<2xi32>
  }
  check.expect_eq_const %0, dense<[1, 2]> : tensor<2xi32>
  func.return
}

// -----

// CHECK: PASS @case_branches
func.func @case_branches() {
  %x = stablehlo.constant dense<[-1.0, 2.0]> : tensor<2xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %i1 = stablehlo.constant dense<1> : tensor<i32>
  %i9 = stablehlo.constant dense<9> : tensor<i32>
  %in = stablehlo.constant dense<-1> : tensor<i32>
  %0 = "stablehlo.case"(%i0) ({
    %a = stablehlo.abs %x : tensor<2xf32>
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  check.expect_eq_const %0, dense<[1.0, 2.0]> : tensor<2xf32>
  %1 = "stablehlo.case"(%i1) ({
    %a = stablehlo.abs %x : tensor<2xf32>
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  check.expect_eq_const %1, dense<[-1.0, 2.0]> : tensor<2xf32>
  // out-of-range indices run the last branch
  %2 = "stablehlo.case"(%i9) ({
    %a = stablehlo.abs %x : tensor<2xf32>
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  check.expect_eq_const %2, dense<[-1.0, 2.0]> : tensor<2xf32>
  %3 = "stablehlo.case"(%in) ({
    %a = stablehlo.abs %x : tensor<2xf32>
    stablehlo.return %a : tensor<2xf32>
  }, {
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<i32>) -> tensor<2xf32>
  check.expect_eq_const %3, dense<[-1.0, 2.0]> : tensor<2xf32>
  func.return
}

// -----

// CHECK: PASS @calls_composite_barrier
func.func @calls_composite_barrier() {
  %x = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
  %0 = func.call @square(%x) : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %0, dense<[1, 4, 9]> : tensor<3xi32>
  %1:2 = func.call @twice(%x) : (tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>)
  check.expect_eq_const %1#1, dense<[1, 4, 9]> : tensor<3xi32>
  %2 = stablehlo.composite "my.square" %x {decomposition = @square} : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const %2, dense<[1, 4, 9]> : tensor<3xi32>
  %3:2 = stablehlo.optimization_barrier %x, %0 : tensor<3xi32>, tensor<3xi32>
  check.expect_eq %3#0, %x : tensor<3xi32>
  check.expect_eq %3#1, %0 : tensor<3xi32>
  %n = stablehlo.constant dense<5> : tensor<i32>
  %4 = func.call @factorial(%n) : (tensor<i32>) -> tensor<i32>
  check.expect_eq_const %4, dense<120> : tensor<i32>
  func.return
}

func.func private @square(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = stablehlo.multiply %a, %a : tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

func.func private @twice(%a: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %0 = func.call @square(%a) : (tensor<3xi32>) -> tensor<3xi32>
  func.return %a, %0 : tensor<3xi32>, tensor<3xi32>
}

// recursion through case
func.func private @factorial(%n: tensor<i32>) -> tensor<i32> {
  %one = stablehlo.constant dense<1> : tensor<i32>
  %le = stablehlo.compare LE, %n, %one, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %idx = stablehlo.convert %le : (tensor<i1>) -> tensor<i32>
  %0 = "stablehlo.case"(%idx) ({
    %m = stablehlo.subtract %n, %one : tensor<i32>
    %f = func.call @factorial(%m) : (tensor<i32>) -> tensor<i32>
    %r = stablehlo.multiply %n, %f : tensor<i32>
    stablehlo.return %r : tensor<i32>
  }, {
    stablehlo.return %one : tensor<i32>
  }) : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// CHECK: PASS @fusion
func.func @fusion() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %r:2 = hlo.fusion kind = loop (%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  ^bb0(%x: tensor<2xf32>, %y: tensor<2xf32>):
    %p = stablehlo.add %x, %y : tensor<2xf32>
    %q = stablehlo.multiply %x, %y : tensor<2xf32>
    hlo.yield %p, %q : tensor<2xf32>, tensor<2xf32>
  }
  check.expect_eq_const %r#0, dense<[4.0, 6.0]> : tensor<2xf32>
  check.expect_eq_const %r#1, dense<[3.0, 8.0]> : tensor<2xf32>
  func.return
}


// -----

// Threefry-2x32-20 of counter 0 under key 0 is Random123's first known answer;
// the state's counter advances by one per 2-word block.
// CHECK: PASS @rng_bit_generator_three_fry
func.func @rng_bit_generator_three_fry() {
  %state = stablehlo.constant dense<[0, 0]> : tensor<2xui64>
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>)
  check.expect_eq_const %0#0, dense<[0, 2]> : tensor<2xui64>
  %first = stablehlo.slice %0#1 [0:2] : (tensor<3xui32>) -> tensor<2xui32>
  check.expect_eq_const %first, dense<[1797259609, 2579123966]> : tensor<2xui32>
  func.return
}

// -----

// Philox-4x32-10 of counter 0 under key 0; DEFAULT is Philox.
// CHECK: PASS @rng_bit_generator_philox
func.func @rng_bit_generator_philox() {
  %state = stablehlo.constant dense<[0, 0, 0]> : tensor<3xui64>
  %0:2 = stablehlo.rng_bit_generator %state, algorithm = DEFAULT : (tensor<3xui64>) -> (tensor<3xui64>, tensor<2xui64>)
  check.expect_eq_const %0#0, dense<[0, 1, 0]> : tensor<3xui64>
  check.expect_eq_const %0#1, dense<[16242730742183356629, 11169168799798111308]> : tensor<2xui64>
  func.return
}

// CHECK: {{^}}7 passed, 0 failed
