"""The formulas `expand-math` writes in place of `math` ops, one module per
family of functions (see `passes/loop/expand_math.py`)."""
