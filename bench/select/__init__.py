"""Per-instance algorithm selection: cheap, solver-free instance features
(:mod:`.features`) and the ``auto`` rule that picks a pair from them (:mod:`.auto`)."""
