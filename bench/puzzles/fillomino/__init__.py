"""Fillomino: rules (rules.py)."""
