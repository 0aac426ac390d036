"""puzzlebench: compare solver formulations of grid logic puzzles."""

__version__ = "0.2.0"
