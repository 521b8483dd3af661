// A kernel big enough for threads is handed to a pool of pthreads unless
// --threads 1.

// RUN: xlir-compile %s -o %t.o --header %t.h
// RUN: filecheck %s --check-prefix=THREADED < %t.h
// RUN: nm -u %t.o | filecheck %s --check-prefix=PTHREAD
// THREADED: * Threads: the largest kernels split their outer loop over a pool of
// PTHREAD-DAG: U pthread_create
// PTHREAD-DAG: U pthread_cond_wait
// PTHREAD-DAG: U pthread_mutex_lock
// The thread pool is in the object (the JIT links the one of its runtime):
// RUN: nm -u %t.o | filecheck %s --check-prefix=SELF-CONTAINED --allow-empty
// SELF-CONTAINED-NOT: xlir.

// RUN: xlir-compile %s --threads 1 -o %t.serial.o --header %t.serial.h
// RUN: filecheck %s --check-prefix=SERIAL < %t.serial.h
// RUN: nm -u %t.serial.o | filecheck %s --check-prefix=NO-PTHREAD --allow-empty
// SERIAL: * Runs on the calling thread only.
// NO-PTHREAD-NOT: pthread

func.func public @main(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %y = stablehlo.exponential %x : tensor<1024x1024xf32>
  %z = stablehlo.multiply %y, %x : tensor<1024x1024xf32>
  func.return %z : tensor<1024x1024xf32>
}
