"""Shikaku: rules (rules.py)."""
