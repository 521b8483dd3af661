// RUN: not xlir-opt %s -p 'unroll-last-dimension{max-trips=1}' 2>&1 | filecheck %s --check-prefix=TRIPS
// RUN: not xlir-opt %s -p 'unroll-last-dimension{max-ops=0}' 2>&1 | filecheck %s --check-prefix=OPS
// TRIPS: error: unroll-last-dimension: max-trips must be at least 2 and max-ops and min-outer at least 1, got max-trips=1 max-ops=192 min-outer=8
// OPS: error: unroll-last-dimension: {{.*}} got max-trips=4 max-ops=0 min-outer=8
loop.kernel @k(%x: memref<4xf32>) {
  loop.return
}
