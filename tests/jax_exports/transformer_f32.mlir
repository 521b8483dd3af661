module @jit_block attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<8x8xf32>, %arg5: tensor<8x16xf32>, %arg6: tensor<16x8xf32>, %arg7: tensor<8xf32>) -> (tensor<6x8xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-1.000000e+04> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %cst_8 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<6x1xf32>
    %4 = call @_var(%arg0, %c_7) : (tensor<6x8xf32>, tensor<i32>) -> tensor<6x1xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x8xf32>
    %6 = stablehlo.subtract %arg0, %5 : tensor<6x8xf32>
    %7 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %8 = stablehlo.add %4, %7 : tensor<6x1xf32>
    %9 = stablehlo.rsqrt %8 : tensor<6x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x8xf32>
    %11 = stablehlo.multiply %6, %10 : tensor<6x8xf32>
    %12 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<6x8xf32>
    %14 = stablehlo.multiply %11, %13 : tensor<6x8xf32>
    %15 = stablehlo.dot_general %14, %arg1, contracting_dims = [1] x [0] : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
    %16 = stablehlo.dot_general %14, %arg2, contracting_dims = [1] x [0] : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
    %17 = stablehlo.dot_general %14, %arg3, contracting_dims = [1] x [0] : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
    %18 = stablehlo.reshape %15 : (tensor<6x8xf32>) -> tensor<6x2x4xf32>
    %19 = stablehlo.transpose %18, dims = [1, 0, 2] : (tensor<6x2x4xf32>) -> tensor<2x6x4xf32>
    %20 = stablehlo.reshape %16 : (tensor<6x8xf32>) -> tensor<6x2x4xf32>
    %21 = stablehlo.transpose %20, dims = [1, 0, 2] : (tensor<6x2x4xf32>) -> tensor<2x6x4xf32>
    %22 = stablehlo.transpose %21, dims = [0, 2, 1] : (tensor<2x6x4xf32>) -> tensor<2x4x6xf32>
    %23 = stablehlo.dot_general %19, %22, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x6x4xf32>, tensor<2x4x6xf32>) -> tensor<2x6x6xf32>
    %24 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x6x6xf32>
    %25 = stablehlo.divide %23, %24 : tensor<2x6x6xf32>
    %26 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<6x6xi1>
    %27 = call @tril(%26) : (tensor<6x6xi1>) -> tensor<6x6xi1>
    %28 = call @_where_0(%27, %25, %cst_4) : (tensor<6x6xi1>, tensor<2x6x6xf32>, tensor<f32>) -> tensor<2x6x6xf32>
    %29 = stablehlo.reduce(%28 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<2x6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
    %30 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x6xf32>
    %31 = stablehlo.maximum %30, %29 : tensor<2x6xf32>
    %32 = stablehlo.broadcast_in_dim %31, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
    %34 = stablehlo.subtract %28, %33 : tensor<2x6x6xf32>
    %35 = stablehlo.exponential %34 : tensor<2x6x6xf32>
    %36 = stablehlo.reduce(%35 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<2x6x6xf32>, tensor<f32>) -> tensor<2x6xf32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [0, 1] : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2] : (tensor<2x6x1xf32>) -> tensor<2x6x6xf32>
    %39 = stablehlo.divide %35, %38 : tensor<2x6x6xf32>
    %40 = stablehlo.reshape %17 : (tensor<6x8xf32>) -> tensor<6x2x4xf32>
    %41 = stablehlo.transpose %40, dims = [1, 0, 2] : (tensor<6x2x4xf32>) -> tensor<2x6x4xf32>
    %42 = stablehlo.dot_general %39, %41, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<2x6x6xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
    %43 = stablehlo.transpose %42, dims = [1, 0, 2] : (tensor<2x6x4xf32>) -> tensor<6x2x4xf32>
    %44 = stablehlo.reshape %43 : (tensor<6x2x4xf32>) -> tensor<6x8xf32>
    %45 = stablehlo.dot_general %44, %arg4, contracting_dims = [1] x [0] : (tensor<6x8xf32>, tensor<8x8xf32>) -> tensor<6x8xf32>
    %46 = stablehlo.add %arg0, %45 : tensor<6x8xf32>
    %47 = stablehlo.reduce(%46 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %49 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %50 = stablehlo.divide %48, %49 : tensor<6x1xf32>
    %51 = call @_var(%46, %c_7) : (tensor<6x8xf32>, tensor<i32>) -> tensor<6x1xf32>
    %52 = stablehlo.broadcast_in_dim %50, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x8xf32>
    %53 = stablehlo.subtract %46, %52 : tensor<6x8xf32>
    %54 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %55 = stablehlo.add %51, %54 : tensor<6x1xf32>
    %56 = stablehlo.rsqrt %55 : tensor<6x1xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x8xf32>
    %58 = stablehlo.multiply %53, %57 : tensor<6x8xf32>
    %59 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<6x8xf32>
    %61 = stablehlo.multiply %58, %60 : tensor<6x8xf32>
    %62 = stablehlo.dot_general %61, %arg5, contracting_dims = [1] x [0] : (tensor<6x8xf32>, tensor<8x16xf32>) -> tensor<6x16xf32>
    %63 = stablehlo.multiply %62, %62 : tensor<6x16xf32>
    %64 = stablehlo.multiply %63, %62 : tensor<6x16xf32>
    %65 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6x16xf32>
    %66 = stablehlo.multiply %65, %64 : tensor<6x16xf32>
    %67 = stablehlo.add %62, %66 : tensor<6x16xf32>
    %68 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6x16xf32>
    %69 = stablehlo.multiply %68, %67 : tensor<6x16xf32>
    %70 = stablehlo.tanh %69 : tensor<6x16xf32>
    %71 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x16xf32>
    %72 = stablehlo.add %71, %70 : tensor<6x16xf32>
    %73 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x16xf32>
    %74 = stablehlo.multiply %73, %72 : tensor<6x16xf32>
    %75 = stablehlo.multiply %62, %74 : tensor<6x16xf32>
    %76 = stablehlo.dot_general %75, %arg6, contracting_dims = [1] x [0] : (tensor<6x16xf32>, tensor<16x8xf32>) -> tensor<6x8xf32>
    %77 = stablehlo.add %46, %76 : tensor<6x8xf32>
    return %77 : tensor<6x8xf32>
  }
  func.func private @_var(%arg0: tensor<6x8xf32>, %arg1: tensor<i32>) -> tensor<6x1xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<6x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<6x1xf32>) -> tensor<6x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<6x8xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<6x8xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %8 = stablehlo.subtract %cst_0, %7 : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %11 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<6x1xf32>
    %13 = stablehlo.compare GT, %8, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %14 = call @_where(%13, %12, %cst) : (tensor<i1>, tensor<6x1xf32>, tensor<f32>) -> tensor<6x1xf32>
    return %14 : tensor<6x1xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<6x1xf32>, %arg2: tensor<f32>) -> tensor<6x1xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<6x1xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<6x1xf32>
    return %2 : tensor<6x1xf32>
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
  func.func private @_where_0(%arg0: tensor<6x6xi1>, %arg1: tensor<2x6x6xf32>, %arg2: tensor<f32>) -> tensor<2x6x6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<6x6xi1>) -> tensor<2x6x6xi1>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2x6x6xf32>
    %2 = stablehlo.select %0, %arg1, %1 : tensor<2x6x6xi1>, tensor<2x6x6xf32>
    return %2 : tensor<2x6x6xf32>
  }
}
