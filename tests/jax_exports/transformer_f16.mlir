module @jit_block attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x8xf16>, %arg1: tensor<8x8xf16>, %arg2: tensor<8x8xf16>, %arg3: tensor<8x8xf16>, %arg4: tensor<8x8xf16>, %arg5: tensor<8x16xf16>, %arg6: tensor<16x8xf16>, %arg7: tensor<8xf16>) -> (tensor<6x8xf16> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %cst_1 = stablehlo.constant dense<7.978520e-01> : tensor<f16>
    %cst_2 = stablehlo.constant dense<4.470830e-02> : tensor<f16>
    %cst_3 = stablehlo.constant dense<0xFC00> : tensor<f16>
    %cst_4 = stablehlo.constant dense<-1.000000e+04> : tensor<f16>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f16>
    %cst_6 = stablehlo.constant dense<1.001360e-05> : tensor<f16>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %cst_8 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.convert %arg0 : (tensor<6x8xf16>) -> tensor<6x8xf32>
    %1 = stablehlo.reduce(%0 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %3 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<6x1xf32>
    %5 = stablehlo.convert %4 : (tensor<6x1xf32>) -> tensor<6x1xf16>
    %6 = call @_var(%arg0, %c_7) : (tensor<6x8xf16>, tensor<i32>) -> tensor<6x1xf16>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<6x1xf16>) -> tensor<6x8xf16>
    %8 = stablehlo.subtract %arg0, %7 : tensor<6x8xf16>
    %9 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f16>) -> tensor<6x1xf16>
    %10 = stablehlo.add %6, %9 : tensor<6x1xf16>
    %11 = stablehlo.rsqrt %10 : tensor<6x1xf16>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<6x1xf16>) -> tensor<6x8xf16>
    %13 = stablehlo.multiply %8, %12 : tensor<6x8xf16>
    %14 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<8xf16>) -> tensor<1x8xf16>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<1x8xf16>) -> tensor<6x8xf16>
    %16 = stablehlo.multiply %13, %15 : tensor<6x8xf16>
    %17 = stablehlo.dot_general %16, %arg1, contracting_dims = [1] x [0] : (tensor<6x8xf16>, tensor<8x8xf16>) -> tensor<6x8xf16>
    %18 = stablehlo.dot_general %16, %arg2, contracting_dims = [1] x [0] : (tensor<6x8xf16>, tensor<8x8xf16>) -> tensor<6x8xf16>
    %19 = stablehlo.dot_general %16, %arg3, contracting_dims = [1] x [0] : (tensor<6x8xf16>, tensor<8x8xf16>) -> tensor<6x8xf16>
    %20 = stablehlo.reshape %17 : (tensor<6x8xf16>) -> tensor<6x2x4xf16>
    %21 = stablehlo.transpose %20, dims = [1, 0, 2] : (tensor<6x2x4xf16>) -> tensor<2x6x4xf16>
    %22 = stablehlo.reshape %18 : (tensor<6x8xf16>) -> tensor<6x2x4xf16>
    %23 = stablehlo.transpose %22, dims = [1, 0, 2] : (tensor<6x2x4xf16>) -> tensor<2x6x4xf16>
    %24 = stablehlo.transpose %23, dims = [0, 2, 1] : (tensor<2x6x4xf16>) -> tensor<2x4x6xf16>
    %25 = stablehlo.dot_general %21, %24, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x6x4xf16>, tensor<2x4x6xf16>) -> tensor<2x6x6xf16>
    %26 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f16>) -> tensor<2x6x6xf16>
    %27 = stablehlo.divide %25, %26 : tensor<2x6x6xf16>
    %28 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<6x6xi1>
    %29 = call @tril(%28) : (tensor<6x6xi1>) -> tensor<6x6xi1>
    %30 = call @_where_0(%29, %27, %cst_4) : (tensor<6x6xi1>, tensor<2x6x6xf16>, tensor<f16>) -> tensor<2x6x6xf16>
    %31 = stablehlo.reduce(%30 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<2x6x6xf16>, tensor<f16>) -> tensor<2x6xf16>
    %32 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f16>) -> tensor<2x6xf16>
    %33 = stablehlo.maximum %32, %31 : tensor<2x6xf16>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1] : (tensor<2x6xf16>) -> tensor<2x6x1xf16>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<2x6x1xf16>) -> tensor<2x6x6xf16>
    %36 = stablehlo.subtract %30, %35 : tensor<2x6x6xf16>
    %37 = stablehlo.exponential %36 : tensor<2x6x6xf16>
    %38 = stablehlo.convert %37 : (tensor<2x6x6xf16>) -> tensor<2x6x6xf32>
    %39 = stablehlo.reduce(%38 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<2x6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
    %40 = stablehlo.broadcast_in_dim %39, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %41 = stablehlo.convert %40 : (tensor<2x6x1xf32>) -> tensor<2x6x1xf16>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1, 2] : (tensor<2x6x1xf16>) -> tensor<2x6x6xf16>
    %43 = stablehlo.divide %37, %42 : tensor<2x6x6xf16>
    %44 = stablehlo.reshape %19 : (tensor<6x8xf16>) -> tensor<6x2x4xf16>
    %45 = stablehlo.transpose %44, dims = [1, 0, 2] : (tensor<6x2x4xf16>) -> tensor<2x6x4xf16>
    %46 = stablehlo.dot_general %43, %45, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x6x6xf16>, tensor<2x6x4xf16>) -> tensor<2x6x4xf16>
    %47 = stablehlo.transpose %46, dims = [1, 0, 2] : (tensor<2x6x4xf16>) -> tensor<6x2x4xf16>
    %48 = stablehlo.reshape %47 : (tensor<6x2x4xf16>) -> tensor<6x8xf16>
    %49 = stablehlo.dot_general %48, %arg4, contracting_dims = [1] x [0] : (tensor<6x8xf16>, tensor<8x8xf16>) -> tensor<6x8xf16>
    %50 = stablehlo.add %arg0, %49 : tensor<6x8xf16>
    %51 = stablehlo.convert %50 : (tensor<6x8xf16>) -> tensor<6x8xf32>
    %52 = stablehlo.reduce(%51 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %54 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %55 = stablehlo.divide %53, %54 : tensor<6x1xf32>
    %56 = stablehlo.convert %55 : (tensor<6x1xf32>) -> tensor<6x1xf16>
    %57 = call @_var(%50, %c_7) : (tensor<6x8xf16>, tensor<i32>) -> tensor<6x1xf16>
    %58 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<6x1xf16>) -> tensor<6x8xf16>
    %59 = stablehlo.subtract %50, %58 : tensor<6x8xf16>
    %60 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f16>) -> tensor<6x1xf16>
    %61 = stablehlo.add %57, %60 : tensor<6x1xf16>
    %62 = stablehlo.rsqrt %61 : tensor<6x1xf16>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0, 1] : (tensor<6x1xf16>) -> tensor<6x8xf16>
    %64 = stablehlo.multiply %59, %63 : tensor<6x8xf16>
    %65 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<8xf16>) -> tensor<1x8xf16>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<1x8xf16>) -> tensor<6x8xf16>
    %67 = stablehlo.multiply %64, %66 : tensor<6x8xf16>
    %68 = stablehlo.dot_general %67, %arg5, contracting_dims = [1] x [0] : (tensor<6x8xf16>, tensor<8x16xf16>) -> tensor<6x16xf16>
    %69 = stablehlo.multiply %68, %68 : tensor<6x16xf16>
    %70 = stablehlo.multiply %69, %68 : tensor<6x16xf16>
    %71 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f16>) -> tensor<6x16xf16>
    %72 = stablehlo.multiply %71, %70 : tensor<6x16xf16>
    %73 = stablehlo.add %68, %72 : tensor<6x16xf16>
    %74 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f16>) -> tensor<6x16xf16>
    %75 = stablehlo.multiply %74, %73 : tensor<6x16xf16>
    %76 = stablehlo.tanh %75 : tensor<6x16xf16>
    %77 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<6x16xf16>
    %78 = stablehlo.add %77, %76 : tensor<6x16xf16>
    %79 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<6x16xf16>
    %80 = stablehlo.multiply %79, %78 : tensor<6x16xf16>
    %81 = stablehlo.multiply %68, %80 : tensor<6x16xf16>
    %82 = stablehlo.dot_general %81, %arg6, contracting_dims = [1] x [0] : (tensor<6x16xf16>, tensor<16x8xf16>) -> tensor<6x8xf16>
    %83 = stablehlo.add %50, %82 : tensor<6x8xf16>
    return %83 : tensor<6x8xf16>
  }
  func.func private @_var(%arg0: tensor<6x8xf16>, %arg1: tensor<i32>) -> tensor<6x1xf16> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.convert %arg0 : (tensor<6x8xf16>) -> tensor<6x8xf32>
    %1 = stablehlo.reduce(%0 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<6x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x8xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<6x8xf32>
    %7 = stablehlo.multiply %6, %6 : tensor<6x8xf32>
    %8 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %9 = stablehlo.subtract %cst_0, %8 : tensor<f32>
    %10 = stablehlo.reduce(%7 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %13 = stablehlo.divide %11, %12 : tensor<6x1xf32>
    %14 = stablehlo.convert %13 : (tensor<6x1xf32>) -> tensor<6x1xf16>
    %15 = stablehlo.compare GT, %9, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %16 = call @_where(%15, %14, %cst) : (tensor<i1>, tensor<6x1xf16>, tensor<f32>) -> tensor<6x1xf16>
    return %16 : tensor<6x1xf16>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<6x1xf16>, %arg2: tensor<f32>) -> tensor<6x1xf16> {
    %0 = stablehlo.convert %arg2 : (tensor<f32>) -> tensor<f16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f16>) -> tensor<6x1xf16>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<6x1xf16>
    return %2 : tensor<6x1xf16>
  }
  func.func private @tril(%arg0: tensor<6x6xi1>) -> tensor<6x6xi1> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.iota dim = 0 : tensor<6x6xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6x6xi32>
    %2 = stablehlo.add %0, %1 : tensor<6x6xi32>
    %3 = stablehlo.iota dim = 1 : tensor<6x6xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<6x6xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<6x6xi1>, tensor<6x6xi1>
    return %6 : tensor<6x6xi1>
  }
  func.func private @_where_0(%arg0: tensor<6x6xi1>, %arg1: tensor<2x6x6xf16>, %arg2: tensor<f16>) -> tensor<2x6x6xf16> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<6x6xi1>) -> tensor<2x6x6xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f16>) -> tensor<2x6x6xf16>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x6x6xi1>, tensor<2x6x6xf16>
    return %2 : tensor<2x6x6xf16>
  }
}
