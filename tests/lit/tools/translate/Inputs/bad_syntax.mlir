llvm.func @main(%args: !llvm.ptr) {
  %zero = llvm.mlir.constant(0) : 
  llvm.return
}
