"""Nurikabe: rules (rules.py)."""
