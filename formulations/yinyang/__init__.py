"""Yin-Yang formulations: one module per kind x approach, named <kind>_<approach>.py."""
