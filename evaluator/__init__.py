"""The evaluator: the numpy semantics of xlir's IR, as a library below the
passes (named after XLA's HloEvaluator, which its constant folding uses the
same way).

* `hlo/`: StableHLO, CHLO, func and check ops on numpy arrays
  (`ModuleInterpreter`). `fold-constants`, `refine-shapes` and the simplify
  patterns evaluate with it; the `interpreter` target runs programs on it.
* `loop/`: the loop level (loop, device, arith, math, memref, scf, func) on
  numpy arrays (`LoopModule`), with the same tensors in and out as the HLO
  program it was lowered from.

Nothing here knows of targets: a target wraps an evaluator in a platform.
"""
