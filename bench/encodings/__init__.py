"""Reusable encodings shared by several puzzles' formulations.

* :mod:`bench.grid` — pure grid-graph helpers (neighbours, components, reachability).
* :mod:`bench.encodings.sat` — SAT building blocks over a :class:`bench.models.SatModel`:
  lazy connectivity cuts, an eager rooted distance (acyclic) connectivity encoding, and
  region ownership ("cell v belongs to clue k's region").
"""
