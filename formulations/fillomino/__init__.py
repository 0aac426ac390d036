"""Fillomino formulations: one module per kind x approach, named <kind>_<approach>.py."""
