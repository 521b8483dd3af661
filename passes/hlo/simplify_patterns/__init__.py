"""The rewrite rules of `simplify`, one file per family: arithmetic
identities, reshape/transpose/broadcast chains, slices and concatenates, and
dot_general. `constants` reads and builds the constants they match and make."""
