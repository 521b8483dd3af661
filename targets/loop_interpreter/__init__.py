"""Executes loop-level modules (loop, device, arith, math, scf) on numpy arrays."""
