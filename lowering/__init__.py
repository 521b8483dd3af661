"""Conversions from one level of IR to the next (DESIGN.md, "Levels of IR")."""
