"""Shakashaka: rules (rules.py)."""
