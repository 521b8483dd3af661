// out[i] = fma(x[i], y[i], z[i]) over 1024 floats, as loop-to-llvm and
// device-to-llvm lower it: an internal kernel and the native entry
// `void main(void **args, void **results, void *temp)`.
builtin.module @fma_xyz {
  llvm.func internal @fusion(%x: !llvm.ptr, %y: !llvm.ptr, %z: !llvm.ptr, %out: !llvm.ptr) {
    %zero = llvm.mlir.constant(0) : i64
    %one = llvm.mlir.constant(1) : i64
    %size = llvm.mlir.constant(1024) : i64
    llvm.br ^header(%zero : i64)
  ^header(%i: i64):
    %more = llvm.icmp "slt" %i, %size : i64
    llvm.cond_br %more, ^body, ^exit
  ^body:
    %xp = llvm.getelementptr inbounds %x[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %xv = llvm.load %xp : !llvm.ptr -> f32
    %yp = llvm.getelementptr inbounds %y[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %yv = llvm.load %yp : !llvm.ptr -> f32
    %zp = llvm.getelementptr inbounds %z[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %zv = llvm.load %zp : !llvm.ptr -> f32
    %r = llvm.intr.fma(%xv, %yv, %zv) : (f32, f32, f32) -> f32
    %op = llvm.getelementptr inbounds %out[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %r, %op : f32, !llvm.ptr
    %next = llvm.add %i, %one : i64
    llvm.br ^header(%next : i64)
  ^exit:
    llvm.return
  }
  llvm.func @main(%args: !llvm.ptr, %results: !llvm.ptr, %temp: !llvm.ptr) {
    %a0 = llvm.getelementptr inbounds %args[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %x = llvm.load %a0 : !llvm.ptr -> !llvm.ptr
    %a1 = llvm.getelementptr inbounds %args[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %y = llvm.load %a1 : !llvm.ptr -> !llvm.ptr
    %a2 = llvm.getelementptr inbounds %args[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %z = llvm.load %a2 : !llvm.ptr -> !llvm.ptr
    %r0 = llvm.getelementptr inbounds %results[0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
    %out = llvm.load %r0 : !llvm.ptr -> !llvm.ptr
    llvm.call @fusion(%x, %y, %z, %out) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
    llvm.return
  }
}
