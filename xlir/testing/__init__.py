"""The project's fuzzers (docs/fuzzing.md): random valid StableHLO programs
differential-tested on every target against the evaluator, and mutated texts
through the parser, the verifier and `hlo-opt`; `python -m
xlir.testing.fuzz` runs them for a while."""
