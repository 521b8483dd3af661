"""Transformations within one level of IR (registered as `xlir.passes` entry
points in pyproject.toml)."""
