// --view-graph draws the fused program: a cluster per fusion, named as in the
// IR, with its kind, its results' buffers and its ops with their shapes; the
// pairs fuse refused as dashed edges labelled with the rule.

// RUN: xlir-opt %S/Inputs/softmax.mlir -p hlo-opt --view-graph=%t.dot | filecheck %s --check-prefix=IR
// RUN: filecheck %s --input-file=%t.dot
// IR: name = "fusion.1"
// IR: name = "fusion.2"
// IR: name = "fusion.3"
// CHECK:      label="@main: arena 32, alignment 64, arguments 512, outputs 512, alias 0, constants 0";
// CHECK:      label="%x\nargument";
// CHECK:      [[ARG:g0n[0-9]+]] [label="arg 0\n8x16xf32"];
// CHECK:      label="fusion.1\ninput fusion\nresult 0: arena offset 0, 32 bytes";
// CHECK:      [[MAX:g0n[0-9]+]] [label="stablehlo.reduce\n8xf32 (2 ops in regions)"];
// CHECK:      label="fusion.2\ninput fusion\nresult 0: out 0\nresult 1: arena offset 0, 32 bytes";
// CHECK:      [[BCAST:g0n[0-9]+]] [label="stablehlo.broadcast_in_dim\n8x16xf32"];
// CHECK:      [[EXP:g0n[0-9]+]] [label="stablehlo.exponential\n8x16xf32"];
// CHECK:      label="fusion.3\nloop fusion\nresult 0: out 0";
// CHECK:      [[DIV:g0n[0-9]+]] [label="stablehlo.divide\n8x16xf32"];
// CHECK:      label="results\nfunc.return (results)";
// CHECK:      [[ARG]] -> [[MAX]] [label="8x16xf32"];
// CHECK:      [[MAX]] -> [[BCAST]] [label="8xf32"];
// CHECK:      [[EXP]] -> [[DIV]] [label="8x16xf32"];
// CHECK:      [[EXP]] -> [[DIV]] [style=dashed, color=red, fontcolor=red, constraint=false, label="refused: multi-output"];
// CHECK:      [[MAX]] -> [[BCAST]] [style=dashed, color=red, fontcolor=red, constraint=false, label="refused: reduce-root"];

// The page lists the refused pairs with their reasons.
// RUN: xlir-opt %S/Inputs/softmax.mlir -p hlo-opt --view-graph=%t.html -o %t.out
// RUN: filecheck %s --check-prefix=HTML --input-file=%t.html
// HTML: <!DOCTYPE html>
// HTML: fusion.1
// HTML: fusion.2
// HTML: fusion.3
// HTML: <td>multi-output</td><td>stablehlo.exponential ({{.*}}softmax.mlir:7:3)</td><td>stablehlo.divide ({{.*}}softmax.mlir:10:3)</td><td>&#x27;stablehlo.exponential&#x27; is not duplicated

// RUN: not xlir-opt %S/Inputs/softmax.mlir -p hlo-opt --view-graph=%t.png 2>&1 | filecheck %s --check-prefix=SUFFIX
// SUFFIX: xlir-opt: error: --view-graph={{.*}}.png: expected a file ending in .svg, .dot, .html

// RUN: not xlir-opt %S/Inputs/softmax.mlir --split-input-file --view-graph=%t.dot 2>&1 | filecheck %s --check-prefix=SPLIT
// SPLIT: xlir-opt: error: --view-graph draws one module: not with --split-input-file

// The regions of a while op left in a function are computations of their
// own, with their fusions.
// RUN: xlir-opt %S/Inputs/while_loop.mlir -p hlo-opt --view-graph=%t.while.dot -o %t.out
// RUN: filecheck %s --check-prefix=WHILE --input-file=%t.while.dot
// WHILE:      label="@main: arena 65, alignment 64, arguments 16, outputs 16, alias 0, constants 4";
// WHILE:      label="stablehlo.while\nunfused op\nresult 0: arena offset 0, 4 bytes\nresult 1: out 0";
// WHILE:      label="@main / stablehlo.while at {{.*}}while_loop.mlir:3:3 cond";
// WHILE:      label="fusion.1\nloop fusion\nresult 0: arena offset 64, 1 bytes";
// WHILE:      label="results\nstablehlo.return (results)";
// WHILE:      label="@main / stablehlo.while at {{.*}}while_loop.mlir:3:3 body";
// WHILE:      label="fusion.2\nloop fusion\nresult 0: arena offset 0, 4 bytes";
// WHILE:      label="fusion.3\nloop fusion\nresult 0: out 0";
// WHILE:      [[EXP:g2n[0-9]+]] [label="stablehlo.exponential\n4xf32"];
// WHILE:      [[OUT:g2n[0-9]+]] [label="result 1\n4xf32"];
// WHILE:      [[EXP]] -> [[OUT]] [label="4xf32"];
