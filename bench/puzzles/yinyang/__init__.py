"""Yinyang: rules (rules.py)."""
