// One case per verifier rule of the accel dialect.
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

%z = accel.get_register : !accel.x<zero>
// expected-error @+1 {{signed 16-bit immediate 40000 of addi is out of range [-32768, 32767]}}
%0 = accel.addi %z, 40000 : (!accel.x<zero>) -> !accel.x<t0>

// -----

%z = accel.get_register : !accel.x<zero>
// expected-error @+1 {{shift amount 32 of slli is out of range [0, 31]}}
%0 = accel.slli %z, 32 : (!accel.x<zero>) -> !accel.x<t0>

// -----

%v = accel.vidx : !accel.v<v1>
// expected-error @+1 {{lane 16 of vext is out of range [0, 15]}}
%0 = accel.vext %v, 16 : (!accel.v<v1>) -> !accel.x<t0>

// -----

// expected-error @+1 {{DMA tag 8 of dma.wait is out of range [0, 7]}}
accel.dma.wait 8

// -----

%z = accel.get_register : !accel.x<zero>
// expected-error @+1 {{DMA mode 'f64' is not one of raw, i8, u8, i16, u16, f16, bf16}}
accel.dma.cfg %z, %z, %z, "f64" : !accel.x<zero>, !accel.x<zero>, !accel.x<zero>

// -----

%z = accel.get_register : !accel.x<zero>
// expected-error @+1 {{offset 6 of lw is not a multiple of its access size 4}}
%0 = accel.lw 6(%z) : (!accel.x<zero>) -> !accel.x<t0>

// -----

%z = accel.get_register : !accel.x<zero>
// expected-error @+1 {{offset 62 of vst is not a multiple of its access size 4}}
accel.vst %v, 62(%z) : !accel.v<v0>, !accel.x<zero>
%v = accel.vidx : !accel.v<v0>

// -----

%z = accel.get_register : !accel.x<zero>
// A vector register where the instruction reads a scalar one.
// expected-error @+1 {{operand 'rs1' at position 0 does not verify}}
%0 = "accel.add"(%v, %z) : (!accel.v<v0>, !accel.x<zero>) -> !accel.x<t0>
%v = accel.vidx : !accel.v<v0>

// -----

%z = accel.get_register : !accel.x<zero>
// expected-error @+1 {{'9bad' is not a valid label name}}
accel.beq %z, %z, "9bad" : !accel.x<zero>, !accel.x<zero>

// -----

%z = accel.get_register : !accel.x<zero>
%m = accel.mzero : !accel.m<m0>
// expected-error @+1 {{the accumulator is read and written: !accel.m<m0> and !accel.m<m1> must be the same register}}
%m1 = accel.mmac %m, %z, %z : (!accel.m<m0>, !accel.x<zero>, !accel.x<zero>) -> !accel.m<m1>

// -----

// expected-error @+1 {{kernel with 2 arguments has 1 block arguments, expected 2 (a0..a1)}}
accel.kernel "k", 2 {
^bb0(%a0 : !accel.x<a0>):
  accel.halt
}

// -----

// expected-error @+1 {{argument 0 is !accel.x<t0>, expected !accel.x<a0>}}
accel.kernel "k", 1 {
^bb0(%a0 : !accel.x<t0>):
  accel.halt
}

// -----

// expected-error @+1 {{65 arguments, expected 0 to 64}}
accel.kernel "k", 65 {
  accel.halt
}

// -----

accel.kernel "k", 0 {
  %z = accel.get_register : !accel.x<zero>
  // expected-error @+1 {{'accel.halt' inside accel.repeat: a hardware loop's body may not branch out, jump, call or halt}}
  accel.repeat %z : !accel.x<zero> {
    accel.halt
  }
}

// -----

%z = accel.get_register : !accel.x<zero>
// expected-error @+1 {{condition 'bgt' is not one of beq, bne, blt, bge, bltu, bgeu}}
accel.if "bgt" %z, %z : !accel.x<zero>, !accel.x<zero> {
  %v = accel.vidx : !accel.v<v0>
} {
}

// -----

// expected-error @+1 {{accel.get_register needs an allocated register}}
%z = accel.get_register : !accel.x

// -----

// expected-error @+1 {{Invalid register name q7 for register type accel.v}}
%v = accel.vidx : !accel.v<q7>

// -----

// Functions, calls and returns (manual section 8.3).

// expected-error @+1 {{func with 17 arguments has 1 block arguments, expected 16 (a0..a15)}}
accel.func "f", 17 {
^bb0(%a0 : !accel.x<a0>):
  accel.ret
}

// -----

// expected-error @+1 {{function 'f' must end with accel.ret (its code would run on into the next routine)}}
accel.func "f", 0 {
  %z = accel.get_register : !accel.x<zero>
}

// -----

// expected-error @+1 {{function 'f' returns (!accel.x<a0>) and (): every accel.ret must return the same registers}}
accel.func "f", 1 {
^bb0(%a0 : !accel.x<a0>):
  accel.if "beq" %a0, %a0 : !accel.x<a0>, !accel.x<a0> {
    accel.ret
  } {
  }
  accel.ret %a0 : !accel.x<a0>
}

// -----

accel.kernel "k", 0 {
  // expected-error @+1 {{accel.ret outside an accel.func}}
  accel.ret
}

// -----

accel.func "f", 0 {
  %x = accel.get_register : !accel.x<t0>
  // expected-error @+1 {{returned value !accel.x<t0>, expected !accel.x<a0> (results are scalars in a0, a1 and vectors in v0, v1, in order)}}
  accel.ret %x : !accel.x<t0>
}

// -----

accel.func "f", 0 {
  %m = accel.mzero : !accel.m<m0>
  // expected-error @+1 {{returned value !accel.m<m0>: results are scalars in a0, a1 and vectors in v0, v1}}
  accel.ret %m : !accel.m<m0>
}

// -----

accel.func "f", 0 {
  %n = accel.get_register : !accel.x<t0>
  accel.repeat %n : !accel.x<t0> {
    // expected-error @+1 {{accel.ret inside a hardware loop}}
    accel.ret
  }
  accel.ret
}

// -----

accel.func "f", 1 {
^bb0(%a0 : !accel.x<a0>):
  accel.ret
}
accel.kernel "k", 0 {
  %t = accel.get_register : !accel.x<t0>
  // expected-error @+1 {{argument 0 of the call to 'f' is !accel.x<t0>, expected !accel.x<a0> (arguments go in a0..a15)}}
  accel.call @f(%t) : (!accel.x<t0>) -> ()
  accel.halt
}

// -----

accel.func "f", 0 {
  %v = accel.vidx : !accel.v<v0>
  accel.ret %v : !accel.v<v0>
}
accel.kernel "k", 0 {
  // expected-error @+1 {{result !accel.v<v1>, expected !accel.v<v0> (results are scalars in a0, a1 and vectors in v0, v1, in order)}}
  %r = accel.call @f() : () -> !accel.v<v1>
  accel.halt
}

// -----

accel.func "f", 0 {
  accel.ret
}
accel.kernel "k", 0 {
  %n = accel.get_register : !accel.x<t0>
  accel.repeat %n : !accel.x<t0> {
    // expected-error @+1 {{call to 'f' inside a hardware loop (manual section 8.3)}}
    accel.call @f() : () -> ()
  }
  accel.halt
}

// -----

accel.kernel "other", 0 {
  accel.halt
}
accel.kernel "k", 0 {
  // expected-error @+1 {{'other' is a kernel: kernels are launched by the runtime, not called}}
  accel.call @other() : () -> ()
  accel.halt
}

// -----

accel.kernel "k", 0 {
  // expected-error @+1 {{no accel.func named 'nowhere'}}
  accel.call @nowhere() : () -> ()
  accel.halt
}

// -----

accel.func "f", 2 {
^bb0(%a0 : !accel.x<a0>, %a1 : !accel.x<a1>):
  accel.ret
}
accel.kernel "k", 1 {
^bb0(%a0 : !accel.x<a0>):
  // expected-error @+1 {{'f' takes 2 arguments: the call passes 1 registers, expected 2}}
  accel.call @f(%a0) : (!accel.x<a0>) -> ()
  accel.halt
}

// -----

accel.func "f", 0 {
  %v = accel.vidx : !accel.v<v0>
  accel.ret %v : !accel.v<v0>
}
accel.kernel "k", 0 {
  // expected-error @+1 {{the call expects (!accel.x<a0>) but 'f' returns (!accel.v<v0>)}}
  %r = accel.call @f() : () -> !accel.x<a0>
  accel.halt
}

// CHECK-NOT: error
