"""Reusable encodings shared by several puzzles' formulations, one API shape per concept in
each model kind (:mod:`.sat`, :mod:`.cpsat`, :mod:`.mip`), the method chosen by parameter as
python-sat's ``CardEnc.atmost(lits, bound, vpool, encoding=...)`` does:

==========================================================  ==========  ========  ========
call (model first; ``member``: cell -> "cell is on")        sat         cpsat     mip
==========================================================  ==========  ========  ========
``exactly/at_most(model, lits, bound, encoding=)``          EncType     native    native
``no_2x2(model, lits, rows, cols)``                         clauses     bool_or   rows
``connected(model, member, method=, root=, max_size=)``     distance,   tree,     flow,
                                                            lazy        lazy      lazy
``separate_connected(model, member, is_on, cut=, ...)``     adds cuts, returns how many
``region(model, root, size, candidates, method=)``          lazy        tree      flow
``assign(model, member, regions)``                          each on cell in one region
``separate_regions(model, member, is_on, regions)``         adds cuts, returns how many
==========================================================  ==========  ========  ========

``root`` is a cell (on in every solution), ``"first"`` (sat, cpsat) or ``"free"``/None;
``max_size`` is an assumption (the set never has more cells), used to bound depths and
flows, not a constraint. A method a kind does not offer raises ValueError. SAT connects
regions eagerly for all regions at once (:func:`.sat.connect_regions`). The cut logic is
solver-free and shared (:mod:`.cells`); pure grid helpers are in :mod:`bench.grid`.

"Both colours connected" (Yin-Yang) is two ``connected`` calls, on ``member`` and on its
negation, or lazily :func:`.cells.fixed_anchor_cuts` per colour (a set of unknown size that
holds given cells; the cuts go in with each kind's ``add_cuts``); :func:`.cells.border_ring`
lists the border cells in cyclic order. Regions of unknown size (Fillomino) would take the
size as a variable (each module's docstring says how); not built yet. A puzzle's own encodings
live in its folder (Fillomino's: :mod:`bench.puzzles.fillomino.encoding` and
:mod:`bench.puzzles.fillomino.encoding_sat`).
"""
