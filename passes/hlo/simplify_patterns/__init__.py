"""The rewrite rules of `simplify`, one file per family: arithmetic
identities, reshape/transpose/broadcast chains, slices and concatenates,
dot_general, compares (of clamped values; total orders of canonicalized
floats). `constants` reads and builds the constants they match and make."""
