"""Transformations within one level of IR, and the registry of all passes."""
