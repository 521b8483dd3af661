// Channels across processes (tests/e2e/test_mpi_sharded.py): on a grid of
// three, rank 0 sends x, then 2x, on channel 2 (whose home is rank 2);
// rank 1 receives both, in that order; rank 2 sends x on channel 3 (home:
// rank 0) and receives it back itself.
module attributes {mhlo.num_partitions = 3 : i32, mhlo.num_replicas = 1 : i32} {
  func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %p = stablehlo.partition_id : tensor<ui32>
    %i = stablehlo.convert %p : (tensor<ui32>) -> tensor<i32>
    %t = stablehlo.after_all : !stablehlo.token
    %r:2 = "stablehlo.case"(%i) ({
      %s1 = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
      %d = stablehlo.add %x, %x : tensor<2xf32>
      %s2 = "stablehlo.send"(%d, %s1) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
      stablehlo.return %x, %d : tensor<2xf32>, tensor<2xf32>
    }, {
      %a:2 = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
      %b:2 = "stablehlo.recv"(%a#1) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
      stablehlo.return %a#0, %b#0 : tensor<2xf32>, tensor<2xf32>
    }, {
      %s = "stablehlo.send"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (tensor<2xf32>, !stablehlo.token) -> !stablehlo.token
      %c:2 = "stablehlo.recv"(%s) {channel_handle = #stablehlo.channel_handle<handle = 3, type = 1>} : (!stablehlo.token) -> (tensor<2xf32>, !stablehlo.token)
      stablehlo.return %c#0, %x : tensor<2xf32>, tensor<2xf32>
    }) : (tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>)
    func.return %r#0, %r#1 : tensor<2xf32>, tensor<2xf32>
  }
}
