"""The formulas `expand-math` writes in place of `math` ops, one module per
family of functions (see `passes/expand_math.py`)."""
