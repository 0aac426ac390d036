"""Shakashaka formulations: one module per kind x approach, named <kind>_<approach>.py.

``mip_seed`` ports the seed's GLPK MathProg model; ``sat_local``, ``cpsat_local`` and
``mip_local`` encode the exact local (vertex wedge) characterisation of ``_local``.
"""
