// RUN: xlir-compile %s --triple x86_64-linux-gnu --entry scaled_sum -o %t.o --header %t.h
// RUN: filecheck %s < %t.h
// RUN: nm -g --defined-only %t.o | filecheck %s --check-prefix=SYMBOLS

// The header describes the entry and its buffers; the object defines it.

// CHECK:      /* scaled_sum: ahead-of-time compiled by xlir; do not edit.
// CHECK:       * Target: x86_64-linux-gnu, cpu generic, reloc pic
// CHECK-NEXT:  * Entry:  void scaled_sum(void **args, void **results, void *temp);
// CHECK:       *   arguments           96  (2 buffers, caller's)
// CHECK-NEXT:  *   results             17  (2 buffers, caller's)
// CHECK:       *     0 arg0       f32[4,4]                 64 bytes
// CHECK-NEXT:  *     1 arg1       i32[8]                   32 bytes
// CHECK:       *     0 result0    f32[4]                   16 bytes
// CHECK-NEXT:  *     1 result1    i1[]                     1 bytes
// CHECK:      #ifndef XLIR_SCALED_SUM_H_
// CHECK:      extern "C" {
// CHECK:      #define SCALED_SUM_NUM_ARGS 2
// CHECK-NEXT: #define SCALED_SUM_NUM_RESULTS 2
// CHECK-NEXT: #define SCALED_SUM_TEMP_BYTES [[#]]
// CHECK-NEXT: #define SCALED_SUM_TEMP_ALIGNMENT 64
// CHECK:      #define SCALED_SUM_ARG0_BYTES 64
// CHECK-NEXT: #define SCALED_SUM_ARG0_RANK 2
// CHECK-NEXT: #define SCALED_SUM_ARG0_SHAPE {4, 4}
// CHECK-NEXT: #define SCALED_SUM_ARG0_TYPE "f32"
// CHECK:      #define SCALED_SUM_RESULT1_RANK 0
// CHECK-NEXT: #define SCALED_SUM_RESULT1_SHAPE {}
// CHECK:      static const size_t SCALED_SUM_ARG_BYTES[] = {64, 32};
// CHECK:      void scaled_sum(void **args, void **results, void *temp);
// CHECK:      typedef struct scaled_sum_buffers {
// CHECK-NEXT:   void *args[2];
// CHECK-NEXT:   void *results[2];
// CHECK-NEXT:   void *temp;
// CHECK-NEXT: } scaled_sum_buffers;
// CHECK:      static inline void scaled_sum_set_arg1(scaled_sum_buffers *b, const int32_t *data)
// CHECK:      static inline uint8_t *scaled_sum_result1(const scaled_sum_buffers *b)
// CHECK:      static inline void scaled_sum_run(scaled_sum_buffers *b) { scaled_sum(b->args, b->results, b->temp); }

// SYMBOLS: T scaled_sum
// SYMBOLS-NOT: T

func.func public @main(%x: tensor<4x4xf32>, %n: tensor<8xi32>) -> (tensor<4xf32>, tensor<i1>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %two = stablehlo.constant dense<2.0> : tensor<4x4xf32>
  %scaled = stablehlo.multiply %x, %two : tensor<4x4xf32>
  %sum = stablehlo.reduce(%scaled init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x4xf32>, tensor<f32>) -> tensor<4xf32>
  %izero = stablehlo.constant dense<0> : tensor<i32>
  %total = stablehlo.reduce(%n init: %izero) applies stablehlo.add across dimensions = [0] : (tensor<8xi32>, tensor<i32>) -> tensor<i32>
  %positive = stablehlo.compare GT, %total, %izero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %sum, %positive : tensor<4xf32>, tensor<i1>
}
