"""`reference-f64`: an xlir target in a package of its own (README.md)."""
