"""Analyses of the loop level that passes and lowerings share."""
