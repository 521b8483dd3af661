// Regions of several blocks (the llvm dialect's branches): a block sees the
// values of the blocks that dominate it.
// RUN: xlir-opt %s --split-input-file --verify-diagnostics | filecheck %s

llvm.func @sibling_branch(%c: i1, %x: i32) -> i32 {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = llvm.add %x, %x : i32
  llvm.br ^bb3(%a : i32)
^bb2:
  llvm.br ^bb3(%a : i32)
^bb3(%r: i32):
  llvm.return %r : i32
}
// CHECK: branches_invalid.mlir:11:3: error: 'llvm.br' op operand #0 does not dominate this use
// CHECK: branches_invalid.mlir:8:3: note: operand defined here (the result of 'llvm.add', in another block of the same region)

// -----

// The join point is not dominated by either branch.
llvm.func @after_the_join(%c: i1, %x: i32) -> i32 {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = llvm.add %x, %x : i32
  llvm.br ^bb3
^bb2:
  llvm.br ^bb3
^bb3:
  llvm.return %a : i32
}
// CHECK: branches_invalid.mlir:29:3: error: 'llvm.return' op operand #0 does not dominate this use

// -----

// A block no branch reaches is dominated by every other block, but inside
// it uses still follow definitions.
llvm.func @unreachable_block(%x: i32) -> i32 {
  llvm.return %x : i32
^dead:
  %u = llvm.add %u, %x : i32
  llvm.return %u : i32
}
// CHECK: branches_invalid.mlir:40:3: error: 'llvm.add' op operand #0 does not dominate this use
