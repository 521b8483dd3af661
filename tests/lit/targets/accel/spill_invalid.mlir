// RUN: not xlir-opt %s -p accel-registers 2>&1 | filecheck %s

// Matrix registers have no spill slots: five tiles live at once, one more
// than XA-1's four m registers, are an error at the op that defines the
// one left without a register, not an internal error.

accel.kernel "tiles", 0 {
  %z = accel.get_register : !accel.x<zero>
  %m0 = accel.mzero : !accel.m
  %m1 = accel.mzero : !accel.m
  %m2 = accel.mzero : !accel.m
  %m3 = accel.mzero : !accel.m
  %m4 = accel.mzero : !accel.m
  accel.mst %m0, %z, %z : !accel.m, !accel.x<zero>, !accel.x<zero>
  accel.mst %m1, %z, %z : !accel.m, !accel.x<zero>, !accel.x<zero>
  accel.mst %m2, %z, %z : !accel.m, !accel.x<zero>, !accel.x<zero>
  accel.mst %m3, %z, %z : !accel.m, !accel.x<zero>, !accel.x<zero>
  accel.mst %m4, %z, %z : !accel.m, !accel.x<zero>, !accel.x<zero>
  accel.halt
}
// CHECK: spill_invalid.mlir:9:3: error: kernel @tiles needs more m registers than the 4 of its file, and 'accel.mzero' cannot read or write a spilled one
