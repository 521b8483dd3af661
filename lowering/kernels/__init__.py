"""One loop.kernel per heavy unfused HLO op."""
