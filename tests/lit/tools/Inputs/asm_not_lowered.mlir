// A kernel of XA-1 assembly that still holds an op of the loop level.
accel.kernel "left", 0 {
^bb0:
  %z = accel.get_register : !accel.x<zero>
  %c = arith.constant 1 : i32
  accel.halt
}
