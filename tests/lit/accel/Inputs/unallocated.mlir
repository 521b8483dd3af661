accel.kernel "k", 0 {
  %z = accel.get_register : !accel.x<zero>
  %0 = accel.addi %z, 1 : (!accel.x<zero>) -> !accel.x
  accel.halt
}
