"""Hitori for puzzlebench: a puzzle package found through the ``puzzlebench.puzzles`` entry
point ``hitori`` (rules, picture, tiny boards, generator, check instances) and two formulations
declared as ``puzzlebench.formulations`` entry points (``sat-tree``, ``cpsat-tree``)."""
